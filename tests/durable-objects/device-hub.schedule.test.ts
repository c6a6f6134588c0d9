// The DeviceHub carries out its farmer's schedules with its own alarm, with nobody watching:
// at most once per run, through the same checks as a tap in the app, logged either way.
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { readJson } from "../../common/api-client.ts";
import { motorStatusResponseSchema } from "../../common/api-responses/devices.ts";
import { DAY_MS, istMinuteKey } from "../../common/schedule-time.ts";
import { SCHEDULE_LATE_LIMIT_MS, SCHEDULE_OFF_RETRY_MS } from "../../durable-objects/device-hub/schedules.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { getDb } from "../../worker/db/client.ts";
import { devices } from "../../worker/db/schema.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { createUser } from "../worker/helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice } from "../worker/helpers/boxes.ts";
import { deleteJson, getJson, postJson } from "../worker/helpers/http.ts";
import { hubStub, motorLogLines, owedSwitchOffs, rewriteHubState } from "../worker/helpers/hub-state.ts";
import { browserWatching, connectDevice } from "../worker/helpers/sockets.ts";
import { holdHubD1, releaseHubD1 } from "./hub-d1-hold.ts";
import { createSchedule, endCooldown, listSchedules, makeDue, switchesSeen } from "./schedule-support.ts";

/** Makes a schedule due (see makeDue) and runs the hub's alarm, as when its time comes. */
async function runWhenDue(deviceId: string, scheduleId: number, at?: number) {
  await makeDue(deviceId, scheduleId, at);
  return runDurableObjectAlarm(hubStub(deviceId));
}

/**
 * Runs a daily 6:00 AM "ON for `durationMinutes`" schedule now; `startedAt` is taken just before
 * the run, so the switch-off it owes is due no earlier than `startedAt` plus the duration.
 */
async function startTimedRun(deviceId: string, token: string, durationMinutes: number) {
  const schedule = await createSchedule(token, { time: "6:00 AM", action: "ON", repeat: "daily", durationMinutes });
  await makeDue(deviceId, schedule.id);
  const startedAt = Date.now();
  await runDurableObjectAlarm(hubStub(deviceId));
  return { schedule, startedAt };
}

/** Makes every switch-off the hub owes due now and runs the alarm. */
async function runOwedSwitchOffs(deviceId: string) {
  await runInDurableObject(hubStub(deviceId), (_hub: DeviceHub, state) => {
    state.storage.sql.exec("UPDATE schedule_offs SET due_at = ?", Date.now() - 1);
  });
  return runDurableObjectAlarm(hubStub(deviceId));
}

/** How many schedules the hub's storage holds, whoever they belong to. */
function storedScheduleCount(deviceId: string) {
  return runInDurableObject(
    hubStub(deviceId),
    (_hub: DeviceHub, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM schedules").one().n,
  );
}

describe("a schedule's run", () => {
  it("switches the motor at its time, logs it, and moves a daily schedule to the next day", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const schedule = await createSchedule(token, { time: "6:00 AM", action: "ON", repeat: "daily" });
    const dueAt = Date.now() - 1_000;
    await makeDue(device.deviceId, schedule.id, dueAt);

    expect(await runDurableObjectAlarm(hubStub(device.deviceId))).toBe(true);
    expect(switchesSeen(box)).toEqual(["on"]);
    expect((await hubStub(device.deviceId).getSnapshot()).motorStatus).toBe("on");
    expect(await motorLogLines(device.deviceId)).toEqual([["on", "Motor turned ON by schedule (6:00 AM, daily)"]]);
    const [after] = await listSchedules(token);
    expect(after!.lastRun).toMatchObject({ at: new Date(dueAt).toISOString(), outcome: "done", code: null });
    const next = Date.parse(after!.nextRunAt!);
    expect(istMinuteKey(next)).toMatch(/T06:00$/);
    expect(next).toBeGreaterThan(Date.now());
    expect(next).toBeLessThanOrEqual(Date.now() + DAY_MS);
    // The hub's one alarm is set for it (or for an earlier timer such as liveness).
    const alarm = await runInDurableObject(hubStub(device.deviceId), (_hub: DeviceHub, state) =>
      state.storage.getAlarm(),
    );
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeLessThanOrEqual(next);
    box.close();
  });

  it("switches once when the alarm is delivered twice, even while the first delivery still waits for the box", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const schedule = await createSchedule(token, { time: "7:00 AM", action: "ON", repeat: "once" });
    const dueAt = Date.now() - 1_000;
    await makeDue(device.deviceId, schedule.id, dueAt);
    const stub = hubStub(device.deviceId);
    await Promise.all([runDurableObjectAlarm(stub), runInDurableObject(stub, (hub: DeviceHub) => hub.alarm())]);
    await runInDurableObject(stub, (hub: DeviceHub) => hub.alarm()); // and once more, later
    expect(switchesSeen(box)).toEqual(["on"]);
    // Even a run whose very minute comes round again (state restored from before the run) is
    // recognised by its key and not repeated.
    await endCooldown(device.deviceId);
    await makeDue(device.deviceId, schedule.id, dueAt);
    await runDurableObjectAlarm(stub);
    expect(switchesSeen(box)).toEqual(["on"]);
    expect(await motorLogLines(device.deviceId)).toEqual([["on", "Motor turned ON by schedule (7:00 AM, once)"]]);
    const [after] = await listSchedules(token);
    expect(after).toMatchObject({ nextRunAt: null, lastRun: { outcome: "done" } });
    box.close();
  });

  it("logs and shows a run missed because the device was offline", async () => {
    const { device, token } = await farmerWithDevice();
    (await connectDevice(device)).close(); // known to the hub, now gone
    await expect.poll(async () => (await hubStub(device.deviceId).getSnapshot()).deviceStatus).toBe("offline");
    const schedule = await createSchedule(token, {
      time: "5:30 AM",
      action: "ON",
      repeat: "daily",
      durationMinutes: 30,
    });
    await runWhenDue(device.deviceId, schedule.id);
    expect(await motorLogLines(device.deviceId)).toEqual([
      ["other", "Scheduled ON at 5:30 AM was missed: the device was offline."],
    ]);
    const [after] = await listSchedules(token);
    expect(after!.lastRun).toMatchObject({ outcome: "missed", code: "offline" });
    expect(Date.parse(after!.nextRunAt!)).toBeGreaterThan(Date.now()); // tomorrow, as usual
    expect(await owedSwitchOffs(device.deviceId)).toEqual([]);
  });

  it("logs a refused run with the reason (phase fault) and switches nothing", async () => {
    const { device, token, box } = await farmerWithBox({ phaseFault: true, autoAck: true });
    const schedule = await createSchedule(token, { time: "8:15 PM", action: "ON", repeat: "daily" });
    await runWhenDue(device.deviceId, schedule.id);
    expect(switchesSeen(box)).toEqual([]);
    expect(await motorLogLines(device.deviceId)).toEqual([
      [
        "other",
        "Scheduled ON at 8:15 PM was not carried out: Phase fault detected. Motor operation is disabled until the phase is OK.",
      ],
    ]);
    expect((await listSchedules(token))[0]!.lastRun).toMatchObject({ outcome: "failed", code: "phaseFault" });
    box.close();
  });

  it("waits out a cooldown started by a tap just before, then switches", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const schedule = await createSchedule(token, { time: "9:00 PM", action: "OFF", repeat: "daily" });
    await rewriteHubState(device.deviceId, (state) => ({ ...state, cooldownUntil: Date.now() + 1_500 }));
    await runWhenDue(device.deviceId, schedule.id);
    expect(switchesSeen(box)).toEqual(["off"]);
    expect(await motorLogLines(device.deviceId)).toEqual([["off", "Motor turned OFF by schedule (9:00 PM, daily)"]]);
    expect((await listSchedules(token))[0]!.lastRun).toMatchObject({ outcome: "done" });
    box.close();
  });

  it("does not start a motor long after its time: a late run is logged as missed", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const schedule = await createSchedule(token, { time: "4:00 AM", action: "ON", repeat: "once" });
    await runWhenDue(device.deviceId, schedule.id, Date.now() - SCHEDULE_LATE_LIMIT_MS - 60_000);
    expect(switchesSeen(box)).toEqual([]);
    expect(await motorLogLines(device.deviceId)).toEqual([
      ["other", "Scheduled ON at 4:00 AM was missed: the server could not run it on time."],
    ]);
    expect((await listSchedules(token))[0]).toMatchObject({
      nextRunAt: null,
      lastRun: { outcome: "missed", code: "late" },
    });
    box.close();
  });
});

describe("ON for N minutes", () => {
  it("switches OFF again after the duration, once, and keeps that even if the schedule is deleted", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const { schedule, startedAt } = await startTimedRun(device.deviceId, token, 30);
    expect(switchesSeen(box)).toEqual(["on"]);
    const [owed] = await owedSwitchOffs(device.deviceId);
    expect(owed!.scheduleId).toBe(schedule.id);
    expect(owed!.dueAt).toBeGreaterThanOrEqual(startedAt + 30 * 60_000);
    expect(owed!.dueAt).toBeLessThan(Date.now() + 30 * 60_000 + 1_000);

    // The farmer deletes the schedule while its run is under way: the switch-off still comes.
    expect((await deleteJson(`/api/schedule/${schedule.id}`, undefined, token)).status).toBe(200);
    expect(await listSchedules(token)).toEqual([]);

    await endCooldown(device.deviceId);
    await runOwedSwitchOffs(device.deviceId);
    await runInDurableObject(hubStub(device.deviceId), (hub: DeviceHub) => hub.alarm()); // delivered twice
    expect(switchesSeen(box)).toEqual(["on", "off"]);
    expect(await motorLogLines(device.deviceId)).toEqual([
      ["on", "Motor turned ON by schedule (6:00 AM, daily, for 30 minutes)"],
      ["off", "Motor turned OFF by schedule (after 30 minutes)"],
    ]);
    expect(await owedSwitchOffs(device.deviceId)).toEqual([]);
    box.close();
  });

  it("tells the pages when the motor will stop, until someone stops it; a manual start owes no stop", async () => {
    const { user, device, token } = await farmerWithBox({ autoAck: true });
    const browser = await browserWatching(user.mobileNo, { token });
    const { startedAt } = await startTimedRun(device.deviceId, token, 45);
    const [owed] = await owedSwitchOffs(device.deviceId);
    const snapshot = await hubStub(device.deviceId).getSnapshot();
    expect(snapshot.pump).toMatchObject({ status: "on", stopsAt: owed!.dueAt });
    expect(owed!.dueAt).toBeGreaterThanOrEqual(startedAt + 45 * 60_000);
    const status = await readJson(
      await getJson(`/api/devices/motor/status/${user.mobileNo}`, token),
      motorStatusResponseSchema,
    );
    expect(status.stopsAt).toBe(owed!.dueAt);
    // The open page heard it with the ON.
    const lastState = () => browser.received.filter((message) => message.type === "pumpState").at(-1);
    await expect.poll(lastState).toMatchObject({ pump: { status: "on", stopsAt: owed!.dueAt } });

    await endCooldown(device.deviceId);
    expect((await postJson("/api/devices/motor", { action: "off" }, token)).status).toBe(200);
    expect((await hubStub(device.deviceId).getSnapshot()).pump).toMatchObject({ status: "off", stopsAt: null });
    await endCooldown(device.deviceId);
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    expect((await hubStub(device.deviceId).getSnapshot()).pump).toMatchObject({ status: "on", stopsAt: null });
    browser.close();
  });

  it("owes nothing once someone stops the motor, so a later manual start is left alone", async () => {
    const { device, token } = await farmerWithBox({ autoAck: true });
    await startTimedRun(device.deviceId, token, 15);
    expect(await owedSwitchOffs(device.deviceId)).toHaveLength(1);
    await endCooldown(device.deviceId);
    expect((await postJson("/api/devices/motor", { action: "off" }, token)).status).toBe(200);
    expect(await owedSwitchOffs(device.deviceId)).toEqual([]);
  });

  it("tries a failed switch-off again every minute, logging the failure once", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    await startTimedRun(device.deviceId, token, 10);
    box.close(); // the box drops off the network with the motor running
    await expect.poll(async () => (await hubStub(device.deviceId).getSnapshot()).deviceStatus).toBe("offline");
    await runOwedSwitchOffs(device.deviceId);
    const [owed] = await owedSwitchOffs(device.deviceId);
    expect(owed!.dueAt).toBeGreaterThan(Date.now() + SCHEDULE_OFF_RETRY_MS - 5_000);
    await runOwedSwitchOffs(device.deviceId);
    expect((await motorLogLines(device.deviceId)).slice(1)).toEqual([
      [
        "other",
        "Scheduled switch-off (after 10 minutes) failed: Device is offline. Check its power and network, then try again. Trying again every minute.",
      ],
    ]);

    // The box comes back still running: the next attempt stops it.
    const back = (await connectDevice(device, { relay: "on" })).autoAck();
    await endCooldown(device.deviceId);
    await runOwedSwitchOffs(device.deviceId);
    expect(switchesSeen(back)).toEqual(["off"]);
    expect(await owedSwitchOffs(device.deviceId)).toEqual([]);
    back.close();
  });
});

describe("schedules and the hub's lifecycle", () => {
  it("survive eviction, and a lost wake-up timer is restored when the hub starts again", async () => {
    const { device, token } = await farmerWithDevice();
    const schedule = await createSchedule(token, { time: "11:00 PM", action: "OFF", repeat: "daily" });
    const stub = hubStub(device.deviceId);
    await runInDurableObject(stub, (_hub: DeviceHub, state) => {
      state.storage.sql.exec("DELETE FROM timers WHERE name = 'schedules'");
    });
    await evictDurableObject(stub);
    const timer = await runInDurableObject(stub, (_hub: DeviceHub, state) =>
      state.storage.sql.exec<{ due_at: number }>("SELECT due_at FROM timers WHERE name = 'schedules'").toArray(),
    );
    expect(timer).toEqual([{ due_at: Date.parse(schedule.nextRunAt!) }]);
    expect(await runInDurableObject(stub, (_hub: DeviceHub, state) => state.storage.getAlarm())).toBe(
      Date.parse(schedule.nextRunAt!),
    );
    expect(await listSchedules(token)).toHaveLength(1);
  });

  it("are dropped when the device changes hands", async () => {
    const { user, device, token } = await farmerWithDevice();
    await createSchedule(token, { time: "6:00 AM", action: "ON", repeat: "daily" });
    const newOwner = await createUser();
    await getDb(env.DB).update(devices).set({ ownerUserId: newOwner.id }).where(eq(devices.id, device.deviceId));
    await hubStub(device.deviceId).refreshAccess(); // what the admin API calls after an assignment
    // The old owner sees none (they may no longer), the new one inherits none.
    const hub = hubStub(device.deviceId);
    expect(await hub.listSchedules({ userId: user.id, role: "owner", label: null })).toEqual([]);
    expect(await hub.listSchedules({ userId: newOwner.id, role: "owner", label: null })).toEqual([]);
    expect(await storedScheduleCount(device.deviceId)).toBe(0);
  });

  it("goes by the hub's copy of its people at the minute: nothing from D1 on the way to the switch", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const schedule = await createSchedule(token, { time: "6:00 AM", action: "ON", repeat: "daily" });
    await makeDue(device.deviceId, schedule.id);
    // D1 answers nothing while the minute runs: a fleet's schedules firing together would
    // otherwise queue on the one database before their motors start. Only this hub's D1 is
    // held (other hubs of the run may ask D1 meanwhile, and their answers are theirs alone).
    const stub = hubStub(device.deviceId);
    await runInDurableObject(stub, (hub: DeviceHub) => holdHubD1(hub));
    const alarm = runDurableObjectAlarm(stub);
    try {
      await vi.waitFor(() => expect(switchesSeen(box)).toEqual(["on"]), { timeout: CONDITION_LIMIT_MS });
    } finally {
      await runInDurableObject(stub, (hub: DeviceHub) => releaseHubD1(hub));
    }
    await alarm;
    expect((await hubStub(device.deviceId).getSnapshot()).motorStatus).toBe("on");
    box.close();
  });

  it("runs none of a previous owner's schedules once the change is told to the hub, as every change of owner does at once", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const schedule = await createSchedule(token, { time: "6:00 AM", action: "ON", repeat: "daily" });
    await getDb(env.DB).update(devices).set({ ownerUserId: null }).where(eq(devices.id, device.deviceId));
    // What every access change does after its D1 batch (worker/services/hub-notices.ts; the cron
    // trigger tells it again every minute until the hub confirms).
    expect(await hubStub(device.deviceId).refreshAccess()).toMatchObject({ ok: true });
    await runWhenDue(device.deviceId, schedule.id).catch(() => false);
    expect(switchesSeen(box)).toEqual([]);
    expect(await motorLogLines(device.deviceId)).toEqual([]);
    expect(await storedScheduleCount(device.deviceId)).toBe(0);
    box.close();
  });

  it("asks D1 before running a schedule its copy does not vouch for, and drops it when D1 says it is nobody's now", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const schedule = await createSchedule(token, { time: "6:00 AM", action: "ON", repeat: "daily" });
    // The hub's copy forgot its owner (a state from before it was ever told): it asks D1.
    await rewriteHubState(device.deviceId, (state) => ({ ...state, owner: null }));
    await getDb(env.DB).update(devices).set({ ownerUserId: null }).where(eq(devices.id, device.deviceId));
    await runWhenDue(device.deviceId, schedule.id);
    expect(switchesSeen(box)).toEqual([]);
    expect(await storedScheduleCount(device.deviceId)).toBe(0);
    box.close();
  });

  it("never runs a schedule of anyone but the device's owner", async () => {
    const { device, box } = await farmerWithBox({ autoAck: true }); // the hello tells the hub its owner
    await runInDurableObject(hubStub(device.deviceId), (_hub: DeviceHub, state) => {
      state.storage.sql.exec(
        "INSERT INTO schedules (user_id, minute_of_day, action, repeat, next_run_at, created_at) VALUES (?, 600, 'on', 'daily', ?, ?)",
        987_654,
        Date.now() - 1_000,
        Date.now(),
      );
    });
    await runDurableObjectAlarm(hubStub(device.deviceId));
    expect(switchesSeen(box)).toEqual([]);
    expect(await motorLogLines(device.deviceId)).toEqual([]);
    box.close();
  });
});
