// The motor log's way to D1 (durable-objects/device-hub/motor-log.ts): the hub answers a tap
// before D1 has its entry, so nothing may be lost on the way. An entry D1 refuses is kept in
// the outbox, shown at once and written exactly once however often it is flushed; so is one
// whose hub is evicted before its flush, and one whose write landed but whose outbox row was
// not removed; many entries arrive in the order they happened.
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LIVE_MOTOR_LOG_LIMIT } from "../../common/constants.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import { LogOutboxTable } from "../../durable-objects/device-hub/log-outbox-table.ts";
import { hubRefOf, outboxRowOf, withNewest } from "../../durable-objects/device-hub/motor-log.ts";
import { TIMERS } from "../../durable-objects/device-hub/timers.ts";
import { getDb } from "../../worker/db/client.ts";
import { insertMotorLogs } from "../../worker/db/motor-logs.ts";
import { motorLogs } from "../../worker/db/schema.ts";
import { createUser } from "../worker/helpers/accounts.ts";
import { farmerWithBox } from "../worker/helpers/boxes.ts";
import { postJson } from "../worker/helpers/http.ts";
import { fireTimer, hubStub } from "../worker/helpers/hub-state.ts";
import { uniqueHubName, withRooms } from "./room-support.ts";

/** Makes D1 refuse every motor log of `deviceId` until the returned function is called. */
async function refuseLogsOf(deviceId: string): Promise<() => Promise<void>> {
  const trigger = `refuse_${deviceId.replace(/[^A-Za-z0-9]/g, "_")}`;
  await env.DB.exec(
    `CREATE TRIGGER ${trigger} BEFORE INSERT ON motor_logs WHEN NEW.device_id = '${deviceId}' BEGIN SELECT RAISE(ABORT, 'D1 unavailable'); END;`,
  );
  return async () => {
    await env.DB.exec(`DROP TRIGGER ${trigger};`);
  };
}

/** What D1 holds for `deviceId`, in the order it was written, without asking the hub to flush first. */
function storedRows(deviceId: string) {
  return getDb(env.DB).select().from(motorLogs).where(eq(motorLogs.deviceId, deviceId)).orderBy(asc(motorLogs.id));
}

function outboxOf(deviceId: string) {
  return runInDurableObject(hubStub(deviceId), (_hub: unknown, state) => ({
    waiting: state.storage.sql.exec<{ id: number }>("SELECT id FROM log_outbox").toArray().length,
    flushDue: state.storage.sql
      .exec<{ dueAt: number }>("SELECT due_at AS dueAt FROM timers WHERE name = ?", TIMERS.flushLogs)
      .toArray()[0]?.dueAt,
  }));
}

const entry = (id: number): MotorLogEntry => ({
  id,
  action: "other",
  logMessage: "Phase is OK now.",
  timestamp: new Date(0).toISOString(),
  kind: "phaseOk",
  params: {},
});

describe("the recent list", () => {
  it("puts the newest first, each entry once, and keeps LIVE_MOTOR_LOG_LIMIT", () => {
    const recent = Array.from({ length: LIVE_MOTOR_LOG_LIMIT }, (_, index) => entry(LIVE_MOTOR_LOG_LIMIT - index));
    expect(withNewest(entry(8), recent).map((log) => log.id)).toEqual([8, 7, 6, 5, 4, 3, 2]);
    // The same entry again (its outbox copy replaced by D1's): listed once.
    expect(withNewest(entry(7), recent.slice(0, 2)).map((log) => log.id)).toEqual([7, 6]);
  });

  it("an outbox row an older hub stored as a sentence is read back as its kind", () => {
    const legacy = {
      deviceId: "SNC-X",
      userId: 1,
      mobileNo: "9876543210",
      action: "off" as const,
      message: "Power cut at the pump. Motor stopped.",
      createdAt: 5,
    };
    expect(outboxRowOf(legacy)).toEqual({
      deviceId: "SNC-X",
      userId: 1,
      mobileNo: "9876543210",
      action: "off",
      event: { kind: "powerLost" },
      createdAt: 5,
    });
  });
});

describe("an entry D1 refuses", () => {
  it("is shown at once from the outbox, retried by the flush-logs timer and written exactly once", async () => {
    const deviceId = uniqueHubName();
    const allow = await refuseLogsOf(deviceId);
    const refused = await withRooms(async ({ hub, log }, state) => {
      log.record("other", { kind: "phaseOk" });
      await log.flushOutbox(); // the attempt record() started, refused
      return {
        recent: await log.recent(),
        outbox: new LogOutboxTable(state.storage.sql).waiting().length,
        retry: hub.timers.dueAt(TIMERS.flushLogs),
      };
    }, deviceId);
    expect(refused.recent).toEqual([expect.objectContaining({ kind: "phaseOk", id: -1 })]);
    expect(refused.outbox).toBe(1);
    expect(refused.retry).toBeGreaterThan(Date.now() + 20_000);

    await allow();
    const outbox = await withRooms(async ({ log }, state) => {
      await log.flushOutbox();
      await log.flushOutbox(); // the timer delivered twice
      return new LogOutboxTable(state.storage.sql).waiting().length;
    }, deviceId);
    expect(outbox).toBe(0);
    const rows = await storedRows(deviceId);
    expect(rows.map((row) => [row.kind, row.hubRef])).toEqual([["phaseOk", `${deviceId}:1`]]);
  });

  it("does not hold back a tap: the switch is confirmed while D1 refuses, and its entry reaches D1 once D1 is back", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const allow = await refuseLogsOf(device.deviceId);
    const answer = await postJson("/api/devices/motor", { action: "on" }, token);
    expect(answer.status).toBe(200);
    const snapshot = await hubStub(device.deviceId).getSnapshot();
    expect(snapshot.motorStatus).toBe("on");
    expect(snapshot.lastLogs[0]).toMatchObject({ kind: "switched", action: "on", id: -1 });
    // Its flush, tried once the answer had gone, was refused: the retry waits.
    await expect.poll(() => outboxOf(device.deviceId)).toEqual({ waiting: 1, flushDue: expect.any(Number) });
    expect(await storedRows(device.deviceId)).toEqual([]);

    await allow();
    await fireTimer(device.deviceId, TIMERS.flushLogs);
    await fireTimer(device.deviceId, TIMERS.flushLogs); // an alarm may come twice
    const rows = await storedRows(device.deviceId);
    expect(rows.map((row) => [row.action, row.kind])).toEqual([["on", "switched"]]);
    expect(await outboxOf(device.deviceId)).toEqual({ waiting: 0, flushDue: undefined });
    // The recent list now names the entry by D1's id.
    expect((await hubStub(device.deviceId).getSnapshot()).lastLogs[0]).toMatchObject({ id: rows[0]!.id });
    box.close();
  });
});

describe("an entry whose owner is gone from D1", () => {
  it("is written without them, and holds back none of the entries after it", async () => {
    // The owner's account was deleted between the entry and its flush (or before the hub heard
    // of it): D1 would refuse their id, and one refused batch would stop every later one.
    const deviceId = uniqueHubName();
    const owner = await createUser();
    const result = await withRooms(async ({ hub, log }, state) => {
      hub.state.save({ owner: { userId: 2_000_000_001, mobileNo: "9012345678" } });
      log.record("other", { kind: "phaseOk" });
      hub.state.save({ owner: null });
      log.record("other", { kind: "phaseOk" });
      hub.state.save({ owner: { userId: owner.id, mobileNo: owner.mobileNo } });
      log.record("other", { kind: "phaseOk" });
      await log.flushOutbox();
      return {
        outbox: new LogOutboxTable(state.storage.sql).waiting().length,
        retry: hub.timers.dueAt(TIMERS.flushLogs),
      };
    }, deviceId);
    expect(result).toEqual({ outbox: 0, retry: null });
    const rows = await storedRows(deviceId);
    expect(rows.map((row) => [row.userId, row.mobileNo])).toEqual([
      [null, "9012345678"],
      [null, null],
      [owner.id, owner.mobileNo],
    ]);
  });
});

describe("a hub stopped before its entries reached D1", () => {
  it("is woken by the flush-logs timer, which writes them exactly once", async () => {
    const { device, box } = await farmerWithBox();
    const allow = await refuseLogsOf(device.deviceId);
    box.send({ type: "relay", relay: "on", cause: "manual" });
    await expect.poll(async () => (await outboxOf(device.deviceId)).waiting).toBe(1);
    box.close();
    // Evicted (a deploy, memory pressure): nothing of the hub's memory survives, its storage does.
    await evictDurableObject(hubStub(device.deviceId));
    await allow();
    expect(await outboxOf(device.deviceId)).toEqual({ waiting: 1, flushDue: expect.any(Number) });
    await fireTimer(device.deviceId, TIMERS.flushLogs);
    const rows = await storedRows(device.deviceId);
    expect(rows.map((row) => [row.action, row.kind, row.hubRef])).toEqual([
      ["on", "stated", hubRefOf(device.deviceId, 1)],
    ]);
    expect((await outboxOf(device.deviceId)).waiting).toBe(0);
  });

  it("finds the flush-logs timer set 5 s ahead while its D1 write was under way, and cleared once written", async () => {
    // What wakes a hub stopped mid-write (the eviction above proves the waking, not this timer:
    // a hub that starts with entries sets its own).
    const during = await withRooms(async ({ hub, log }, state) => {
      new LogOutboxTable(state.storage.sql).add({
        deviceId: hub.deviceId,
        userId: null,
        mobileNo: null,
        action: "other",
        event: { kind: "phaseOk" },
        createdAt: 1,
      });
      const startedAt = Date.now();
      const writing = log.flushOutbox();
      const backstop = hub.timers.dueAt(TIMERS.flushLogs);
      await writing;
      return {
        startedAt,
        backstop,
        after: hub.timers.dueAt(TIMERS.flushLogs),
        waiting: new LogOutboxTable(state.storage.sql).waiting().length,
      };
    }, uniqueHubName());
    expect(during.backstop).toBeGreaterThanOrEqual(during.startedAt + 5_000);
    expect(during.backstop).toBeLessThan(during.startedAt + 10_000);
    expect(during).toMatchObject({ after: null, waiting: 0 });
  });

  it("writes them as soon as it starts again, even if it stopped before its first flush", async () => {
    const deviceId = uniqueHubName();
    // What a hub stopped between its answer and its flush leaves: an entry, and no timer yet.
    await runInDurableObject(hubStub(deviceId), (_hub: unknown, state) => {
      const row = { deviceId, userId: null, mobileNo: null, action: "other", event: { kind: "phaseOk" }, createdAt: 1 };
      state.storage.sql.exec("INSERT INTO log_outbox (row) VALUES (?)", JSON.stringify(row));
    });
    await evictDurableObject(hubStub(deviceId));
    await hubStub(deviceId).ping(); // anything that starts it again
    expect((await outboxOf(deviceId)).flushDue).toBeLessThanOrEqual(Date.now());
    await fireTimer(deviceId, TIMERS.flushLogs);
    expect((await storedRows(deviceId)).map((row) => row.kind)).toEqual(["phaseOk"]);
    expect((await outboxOf(deviceId)).waiting).toBe(0);
  });

  it("writes nothing twice when its last write landed in D1 but the outbox row was not removed", async () => {
    const deviceId = uniqueHubName();
    const allow = await refuseLogsOf(deviceId);
    await withRooms(async ({ log }) => {
      log.record("off", { kind: "powerLost" });
      log.record("other", { kind: "powerRestored" });
      await log.flushOutbox();
    }, deviceId);
    await allow();
    // The first entry's write landed, then the hub stopped before removing it from the outbox.
    await insertMotorLogs(getDb(env.DB), [
      {
        deviceId,
        userId: null,
        mobileNo: null,
        action: "off",
        event: { kind: "powerLost" },
        createdAt: Date.now(),
        hubRef: hubRefOf(deviceId, 1),
      },
    ]);
    await fireTimer(deviceId, TIMERS.flushLogs);
    const rows = await storedRows(deviceId);
    expect(rows.map((row) => [row.kind, row.hubRef])).toEqual([
      ["powerLost", hubRefOf(deviceId, 1)],
      ["powerRestored", hubRefOf(deviceId, 2)],
    ]);
    expect((await outboxOf(deviceId)).waiting).toBe(0);
  });
});

describe("many entries", () => {
  it("kept while D1 refuses reach it all, in the order they happened, once each", async () => {
    const deviceId = uniqueHubName();
    const allow = await refuseLogsOf(deviceId);
    const entries = 120; // more than two batches
    await withRooms(async ({ log }) => {
      for (let index = 0; index < entries; index++) log.record("other", { kind: "legacy", text: `entry ${index}` });
      await log.flushOutbox();
    }, deviceId);
    expect((await outboxOf(deviceId)).waiting).toBe(entries);
    await allow();
    await fireTimer(deviceId, TIMERS.flushLogs);
    await fireTimer(deviceId, TIMERS.flushLogs);
    const rows = await storedRows(deviceId);
    expect(rows.map((row) => JSON.parse(row.params).text)).toEqual(
      Array.from({ length: entries }, (_, index) => `entry ${index}`),
    );
    expect((await outboxOf(deviceId)).waiting).toBe(0);
  });
});
