// Run hours, starts and energy per IST day (durable-objects/device-hub/usage.ts). The room is
// driven with explicit clocks over a real hub's storage; opening the rooms again over the same
// storage is what a restart does. The last test takes a real box through a hub evicted mid-run.
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { istDay, istDayStart, USAGE_RETENTION_DAYS } from "../../common/pump-usage.ts";
import { DAY_MS } from "../../common/schedule-time.ts";
import { openHubContext } from "../../durable-objects/device-hub/context.ts";
import { openRooms } from "../../durable-objects/device-hub/rooms.ts";
import type { MotorBelief } from "../../durable-objects/device-hub/state.ts";
import { READING_HOLDS_MS } from "../../durable-objects/device-hub/usage-model.ts";
import { UsageTables } from "../../durable-objects/device-hub/usage-tables.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { farmerWithBox } from "../worker/helpers/boxes.ts";
import { postJson } from "../worker/helpers/http.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";
import { uniqueHubName, withRooms } from "./room-support.ts";

const MINUTE = 60_000;
/** An IST midnight in the recent past: 2026-11-20 00:00 IST is 2026-11-19 18:30 UTC. */
const MIDNIGHT = istDayStart(istDay(Date.now() - 3 * DAY_MS));
const DAY_BEFORE = istDay(MIDNIGHT - 1);
const DAY_AFTER = istDay(MIDNIGHT);
const UNLIMITED = { take: () => true, grant: () => {} };

type Rooms = Parameters<Parameters<typeof withRooms>[0]>[0];

/** The hub's belief becomes `status` at `at` (as setMotor saves it), and usage follows. */
function believe(rooms: Rooms, status: MotorBelief["status"], at: number): void {
  rooms.hub.state.save({ motor: { status, since: at, source: "ack" }, online: true, lastSeenAt: at });
  rooms.usage.follow(at);
}

function day(rooms: Rooms, date: string, now: number) {
  const days = rooms.usage.days(USAGE_RETENTION_DAYS, now).days;
  return days.find((entry) => entry.date === date);
}

describe("run hours and energy", () => {
  it("splits a run across IST midnight and counts its start on the day it began", async () => {
    const { before, after, totals } = await withRooms((rooms) => {
      believe(rooms, "off", MIDNIGHT - 120 * MINUTE);
      believe(rooms, "on", MIDNIGHT - 30 * MINUTE);
      rooms.usage.follow(MIDNIGHT - 10 * MINUTE); // a look in between changes nothing
      believe(rooms, "off", MIDNIGHT + 45 * MINUTE);
      const now = MIDNIGHT + 2 * DAY_MS;
      return {
        before: day(rooms, DAY_BEFORE, now),
        after: day(rooms, DAY_AFTER, now),
        totals: rooms.usage.days(7, now).totals,
      };
    });
    expect(before).toEqual({ date: DAY_BEFORE, runningMinutes: 30, starts: 1, kwh: 0 });
    expect(after).toEqual({ date: DAY_AFTER, runningMinutes: 45, starts: 0, kwh: 0 });
    expect(totals).toEqual({ runningMinutes: 75, starts: 1, kwh: 0 });
  });

  it("counts a run still going up to the moment it is read, without storing anything for the read", async () => {
    const { first, again } = await withRooms((rooms) => {
      believe(rooms, "off", MIDNIGHT);
      believe(rooms, "on", MIDNIGHT + MINUTE);
      const first = rooms.usage.days(7, MIDNIGHT + 11 * MINUTE).totals;
      const again = rooms.usage.days(7, MIDNIGHT + 21 * MINUTE).totals;
      return { first, again };
    });
    expect(first).toEqual({ runningMinutes: 10, starts: 1, kwh: 0 });
    expect(again).toEqual({ runningMinutes: 20, starts: 1, kwh: 0 });
  });

  it("counts starts only from OFF: an unknown between two ONs is no start, and unknown time is not running", async () => {
    const totals = await withRooms((rooms) => {
      believe(rooms, "off", MIDNIGHT);
      believe(rooms, "on", MIDNIGHT + MINUTE); // start 1
      believe(rooms, "unknown", MIDNIGHT + 11 * MINUTE); // an OFF nobody confirmed
      believe(rooms, "on", MIDNIGHT + 21 * MINUTE); // it was still running: no start
      believe(rooms, "off", MIDNIGHT + 31 * MINUTE);
      believe(rooms, "on", MIDNIGHT + 41 * MINUTE); // start 2 (a stated relay or readings count too)
      believe(rooms, "off", MIDNIGHT + 51 * MINUTE);
      return rooms.usage.days(7, MIDNIGHT + 60 * MINUTE).totals;
    });
    expect(totals).toEqual({ runningMinutes: 30, starts: 2, kwh: 0 });
  });

  it("integrates the box's wattage, never across a silence longer than a reading holds", async () => {
    const totals = await withRooms((rooms) => {
      const start = MIDNIGHT + 60 * MINUTE;
      believe(rooms, "off", start - MINUTE);
      believe(rooms, "on", start);
      const at = (minutes: number) => start + 2_000 + minutes * MINUTE;
      // The first reading comes 2 s after the start: nothing is known of those 2 s.
      for (const minutes of [0, 3]) rooms.usage.onReading(6_000, at(minutes));
      rooms.usage.onReading(3_000, at(6)); // 6 kW for 6 minutes: 0.6 kWh
      // Silent for two hours: the last reading counts only as long as it holds.
      rooms.usage.onReading(3_000, at(126));
      rooms.usage.onReading(3_000, at(129));
      believe(rooms, "off", at(132)); // 3 kW for 6 minutes: 0.3 kWh
      return rooms.usage.days(7, start + DAY_MS).totals;
    });
    const held = (3_000 * READING_HOLDS_MS) / 3_600_000 / 1000;
    expect(totals.kwh).toBeCloseTo(0.6 + held + 0.3, 3);
    expect(totals.runningMinutes).toBe(132.03); // 2 s, then 132 minutes
  });

  it("does not count a run while its box is offline, and resumes when the box is back", async () => {
    const totals = await withRooms((rooms) => {
      const { hub, usage } = rooms;
      believe(rooms, "off", MIDNIGHT);
      believe(rooms, "on", MIDNIGHT + MINUTE);
      for (const minute of [1, 5, 9]) usage.onReading(4_000, MIDNIGHT + minute * MINUTE);
      // Last heard 10 minutes in; marked offline 9 minutes later (the status stays ON).
      hub.state.save({ online: false, lastSeenAt: MIDNIGHT + 11 * MINUTE });
      usage.follow(MIDNIGHT + 20 * MINUTE);
      usage.follow(MIDNIGHT + 50 * MINUTE); // still offline
      hub.state.save({ online: true, lastSeenAt: MIDNIGHT + 60 * MINUTE }); // its hello: still ON
      usage.follow(MIDNIGHT + 60 * MINUTE);
      believe(rooms, "off", MIDNIGHT + 70 * MINUTE);
      return usage.days(7, MIDNIGHT + DAY_MS).totals;
    });
    // 10 minutes before the silence, 10 after the box was back; 4 kW for the first 10 (no reading since).
    expect(totals).toEqual({ runningMinutes: 20, starts: 1, kwh: expect.closeTo(4 * (10 / 60), 3) });
  });

  it("loses and doubles nothing when the hub restarts mid-run, however often it looks", async () => {
    const name = uniqueHubName();
    await withRooms((rooms) => {
      believe(rooms, "off", MIDNIGHT);
      believe(rooms, "on", MIDNIGHT + MINUTE);
      rooms.usage.onReading(5_000, MIDNIGHT + MINUTE);
      rooms.usage.follow(MIDNIGHT + 31 * MINUTE);
    }, name);
    // A new instance over the same storage: what a restart or a wake from hibernation is.
    const totals = await runInDurableObject(hubStub(name), (_hub: DeviceHub, state) => {
      const { usage, hub } = openRooms(openHubContext(state, env), UNLIMITED);
      usage.follow(MIDNIGHT + 31 * MINUTE); // an alarm delivered twice, a second wake: nothing new
      usage.follow(MIDNIGHT + 31 * MINUTE);
      usage.onReading(5_000, MIDNIGHT + 31 * MINUTE); // the same reading again
      usage.follow(MIDNIGHT + 61 * MINUTE);
      hub.state.save({ motor: { status: "off", since: MIDNIGHT + 61 * MINUTE, source: "ack" } });
      usage.follow(MIDNIGHT + 61 * MINUTE);
      usage.follow(MIDNIGHT + 90 * MINUTE);
      return usage.days(7, MIDNIGHT + DAY_MS).totals;
    });
    // 5 kW held for at most READING_HOLDS_MS after each reading (at 1 and 31 minutes in).
    const kwh = (2 * 5_000 * READING_HOLDS_MS) / 3_600_000 / 1000;
    expect(totals).toEqual({ runningMinutes: 60, starts: 1, kwh: expect.closeTo(kwh, 3) });
  });

  it("closes the run at a restart that left the status unknown (a command without its answer)", async () => {
    const name = uniqueHubName();
    await withRooms((rooms) => {
      believe(rooms, "off", MIDNIGHT);
      believe(rooms, "on", MIDNIGHT + MINUTE);
    }, name);
    const totals = await runInDurableObject(hubStub(name), (_hub: DeviceHub, state) => {
      const { usage, hub } = openRooms(openHubContext(state, env), UNLIMITED);
      hub.state.save({ motor: { status: "unknown", since: MIDNIGHT + 21 * MINUTE, source: "noAnswer" } });
      usage.follow(MIDNIGHT + 21 * MINUTE);
      return usage.days(7, MIDNIGHT + DAY_MS).totals;
    });
    expect(totals).toEqual({ runningMinutes: 20, starts: 1, kwh: 0 });
  });

  it("keeps 90 IST days: older ones go when a day is written, a second pruning changes nothing", async () => {
    const now = MIDNIGHT + 12 * 60 * MINUTE;
    const kept = await withRooms((rooms, state) => {
      const { usage } = rooms;
      const tables = new UsageTables(state.storage.sql);
      const old = istDay(now - USAGE_RETENTION_DAYS * DAY_MS);
      const oldest = istDay(now - (USAGE_RETENTION_DAYS - 1) * DAY_MS);
      tables.add(old, { runningMs: 60 * MINUTE, starts: 1, energyWh: 500 });
      tables.add(oldest, { runningMs: 30 * MINUTE, starts: 1, energyWh: 250 });
      believe(rooms, "off", now - 20 * MINUTE);
      believe(rooms, "on", now - 10 * MINUTE);
      believe(rooms, "off", now);
      believe(rooms, "off", now);
      usage.follow(now);
      return { rows: tables.since("0000").map((row) => row.day), oldest, today: istDay(now) };
    });
    expect(kept.rows).toEqual([kept.oldest, kept.today]);
  });

  it("answers the days asked for, oldest first, with the days without a run as zeros", async () => {
    const now = MIDNIGHT + 12 * 60 * MINUTE;
    const usage = await withRooms((rooms) => {
      believe(rooms, "off", now - 2 * DAY_MS);
      believe(rooms, "on", now - 2 * DAY_MS + MINUTE);
      believe(rooms, "off", now - 2 * DAY_MS + 16 * MINUTE);
      return rooms.usage.days(7, now);
    });
    expect(usage.days.map((entry) => entry.date)).toEqual(
      Array.from({ length: 7 }, (_, index) => istDay(now - (6 - index) * DAY_MS)),
    );
    expect(usage.days.map((entry) => entry.runningMinutes)).toEqual([0, 0, 0, 0, 15, 0, 0]);
    expect(usage.totals).toEqual({ runningMinutes: 15, starts: 1, kwh: 0 });
  });

  it("a real box's start at the box and one learned from its readings each count once", async () => {
    const { device, box } = await farmerWithBox();
    const stub = hubStub(device.deviceId);
    const starts = async () => (await stub.usage(7)).totals.starts;
    const status = async () => (await stub.getSnapshot()).pump.status;
    // The hello said OFF; the farmer switches it ON at the starter.
    box.send({ type: "relay", relay: "on", cause: "manual" });
    await expect.poll(status).toBe("on");
    box.send({ type: "power", current: 8.9, wattage: 5_118 });
    box.send({ type: "relay", relay: "off", cause: "manual" });
    await expect.poll(status).toBe("off");
    expect(await starts()).toBe(1);
    // Current while OFF: the hub learns from the readings that the motor runs.
    box.send({ type: "power", current: 8.9, wattage: 5_118 });
    await expect.poll(status).toBe("on");
    box.send({ type: "power", current: 8.8, wattage: 5_060 });
    expect(await starts()).toBe(2);
    box.close();
  });

  it("a real box's run survives the hub's eviction: one start, its time and energy counted once", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const stub = hubStub(device.deviceId);
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    await expect.poll(async () => (await stub.usage(7)).totals.kwh).toBeGreaterThan(0);
    await evictDurableObject(stub, { webSockets: "hibernate" });
    const afterEviction = await stub.usage(7);
    expect(afterEviction.totals.starts).toBe(1);
    box.send({ type: "power", current: 8.9, wattage: 5_118 });
    await evictDurableObject(stub, { webSockets: "hibernate" });
    expect((await postJson("/api/devices/motor", { action: "off" }, token)).status).toBe(200);
    const stopped = await stub.usage(7);
    expect(stopped.totals.starts).toBe(1);
    expect(stopped.totals.runningMinutes).toBeGreaterThanOrEqual(afterEviction.totals.runningMinutes);
    // Stopped: time stands still however long after it is read.
    await evictDurableObject(stub, { webSockets: "hibernate" });
    expect((await stub.usage(7)).totals).toEqual(stopped.totals);
    box.close();
  });
});
