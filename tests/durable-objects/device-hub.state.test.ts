// The hub's state and its timers (durable-objects/device-hub/state.ts, timers.ts): what older
// hubs stored is read back, a change is written through and survives a new instance, and the
// one alarm always points at the earliest named timer, schedules' wake-up included.
import { describe, expect, it } from "vitest";
import { HubStateStore, INITIAL_STATE, loadState } from "../../durable-objects/device-hub/state.ts";
import { TIMERS } from "../../durable-objects/device-hub/timers.ts";
import { withRooms } from "./room-support.ts";
import { at6 } from "./schedule-support.ts";

const NOW = 1_800_000_000_000;

describe("state an older hub stored", () => {
  it("a plain relay becomes what the box said at hello; a pending command's note its origin", () => {
    const state = loadState(
      {
        relay: "on",
        pendingSwitch: {
          id: "c1",
          relay: "on",
          source: "schedule",
          note: "6:00 AM, daily, for 30 minutes",
          sentAt: NOW - 1,
          state: "unanswered",
        },
      },
      NOW,
    );
    expect(state.motor).toEqual({ status: "on", since: NOW, source: "hello" });
    expect(state.pendingSwitch?.origin).toEqual({ by: "schedule", minuteOfDay: 360, repeat: "daily", forMinutes: 30 });
  });

  it("a note that cannot be read drops the command; recent logs without kinds are read again from D1", () => {
    const state = loadState({
      pendingSwitch: {
        id: "c1",
        relay: "on",
        source: "schedule",
        note: "something unheard of",
        sentAt: NOW - 1,
        state: "sent",
      },
      lastLogs: [
        { id: 1, action: "on", logMessage: "Motor turned ON from the app", timestamp: new Date(NOW).toISOString() },
      ],
    });
    expect(state.pendingSwitch).toBeNull();
    expect(state.lastLogs).toBeNull();
    expect(loadState(undefined)).toBe(INITIAL_STATE);
  });
});

describe("the state store", () => {
  it("writes every change through: a new instance on the same storage reads it back", async () => {
    const read = await withRooms(({ hub }, state) => {
      hub.state.save({ cooldownUntil: NOW, phaseFault: true });
      return new HubStateStore(state.storage.kv).current;
    });
    expect(read).toMatchObject({ cooldownUntil: NOW, phaseFault: true, online: false });
  });

  it("writes only the fields that changed, each a key of its own, and nothing when nothing did", async () => {
    const written = await withRooms(({ hub }, state) => {
      const keys = () => new Map(state.storage.kv.list({ prefix: "state:" }));
      hub.state.save({ cooldownUntil: NOW, phaseFault: true });
      const first = keys();
      state.storage.kv.delete("state:cooldownUntil");
      hub.state.save({ cooldownUntil: NOW, phaseFault: false });
      return { first, second: keys(), whole: state.storage.kv.get("state") };
    });
    expect(written.first.get("state:cooldownUntil")).toBe(NOW);
    expect(written.first.get("state:phaseFault")).toBe(true);
    expect(written.first.has("state:owner")).toBe(false); // never changed, never written
    // The unchanged cooldown was not written again; the phase fault was.
    expect(written.second.has("state:cooldownUntil")).toBe(false);
    expect(written.second.get("state:phaseFault")).toBe(false);
    expect(written.whole).toBeUndefined();
  });

  it("a hub that kept its state as one record reads it, and keeps it a key per field from then on", async () => {
    const read = await withRooms((_rooms, state) => {
      state.storage.kv.put("state", { ...INITIAL_STATE, cooldownUntil: NOW, phaseFault: true });
      const store = new HubStateStore(state.storage.kv);
      return {
        current: store.current,
        whole: state.storage.kv.get("state"),
        field: state.storage.kv.get("state:cooldownUntil"),
        again: new HubStateStore(state.storage.kv).current,
      };
    });
    expect(read.current).toMatchObject({ cooldownUntil: NOW, phaseFault: true });
    expect(read.whole).toBeUndefined();
    expect(read.field).toBe(NOW);
    expect(read.again).toEqual(read.current);
  });
});

describe("timers", () => {
  it("the alarm follows the earliest timer, moves when it goes, and is cleared with the last one", async () => {
    const alarms = await withRooms(async ({ hub }, state) => {
      const now = Date.now();
      hub.timers.set(TIMERS.flushLogs, now + 60_000);
      hub.timers.set(TIMERS.liveness, now + 30_000);
      const earliest = await state.storage.getAlarm();
      hub.timers.delete(TIMERS.liveness);
      const next = await state.storage.getAlarm();
      hub.timers.delete(TIMERS.flushLogs);
      return { now, earliest, next, none: await state.storage.getAlarm() };
    });
    expect(alarms.earliest).toBe(alarms.now + 30_000);
    expect(alarms.next).toBe(alarms.now + 60_000);
    expect(alarms.none).toBeNull();
  });

  it("the schedules' wake-up is a copy of the earliest run due, restored from the table", async () => {
    const due = await withRooms(({ hub, book }) => {
      const dueAt = Date.now() + 3_600_000;
      book.insert({
        userId: 7,
        authorUserId: null,
        ...at6(),
        nextRunAt: dueAt,
        createdAt: 0,
      });
      hub.timers.delete(TIMERS.schedules); // a lost timer
      hub.timers.syncSchedules();
      return { dueAt, wakeUp: hub.timers.dueAt(TIMERS.schedules) };
    });
    expect(due.wakeUp).toBe(due.dueAt);
  });

  it("takes due timers once: a second delivery finds none", async () => {
    const taken = await withRooms(({ hub }) => {
      const now = Date.now();
      hub.timers.set(TIMERS.otaTimeout, now - 2);
      hub.timers.set(TIMERS.debugOff, now - 1);
      hub.timers.set(TIMERS.liveness, now + 60_000);
      return [hub.timers.takeDue(now), hub.timers.takeDue(now)];
    });
    expect(taken).toEqual([[TIMERS.otaTimeout, TIMERS.debugOff], []]);
  });
});
