// Power-window runs with the real hub, a box on a real socket and the hub's own alarm: the
// window opening before or after supply, supply flickering, a cut mid-run with and without
// resume, the window closing while the motor runs, an alarm delivered twice and a hub
// restarted mid-run. Time is moved by rewriting the hub's stored instants, never by waiting.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ScheduleView } from "../../common/schedule-schemas.ts";
import { MAX_WINDOW_START_DELAY_SECONDS } from "../../common/schedule-view.ts";
import type { WindowRunRow } from "../../durable-objects/device-hub/window-runs-table.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { farmerWithBox } from "../worker/helpers/boxes.ts";
import { deleteJson, postJson } from "../worker/helpers/http.ts";
import { hubStub, motorLogLines, owedSwitchOffs } from "../worker/helpers/hub-state.ts";
import type { DevicePeer } from "../worker/helpers/sockets.ts";
import { createSchedule, endCooldown, listSchedules, switchesSeen } from "./schedule-support.ts";

const MINUTE = 60_000;

/** A window from 10:00 PM to 6:00 AM, every day, to run `runMinutes`. */
const nightWindow = (changes: Record<string, unknown> = {}) => ({
  type: "window",
  from: "10:00 PM",
  to: "6:00 AM",
  runMinutes: 120,
  repeat: "daily",
  randomDelay: false,
  resume: true,
  autoStart: true,
  ...changes,
});

async function scheduleNow(token: string): Promise<ScheduleView> {
  return (await listSchedules(token))[0]!;
}

function sqlIn<T>(deviceId: string, use: (sql: SqlStorage) => T): Promise<T> {
  return runInDurableObject(hubStub(deviceId), (_hub: DeviceHub, state) => use(state.storage.sql));
}

/** The window opened `agoMs` ago (default: just now): its run is due, and the alarm opens it. */
async function openWindow(deviceId: string, scheduleId: number, agoMs = 1_000) {
  await sqlIn(deviceId, (sql) =>
    sql.exec("UPDATE schedules SET next_run_at = ? WHERE id = ?", Date.now() - agoMs, scheduleId),
  );
  return runDurableObjectAlarm(hubStub(deviceId));
}

type StoredRun = Pick<
  WindowRunRow,
  "scheduleId" | "phase" | "ranMs" | "runMs" | "startAt" | "runningSince" | "closesAt"
>;

function windowRun(deviceId: string): Promise<StoredRun | null> {
  return sqlIn(
    deviceId,
    (sql) =>
      (sql
        .exec(
          "SELECT schedule_id AS scheduleId, phase, ran_ms AS ranMs, run_ms AS runMs, start_at AS startAt, running_since AS runningSince, closes_at AS closesAt FROM window_runs",
        )
        .toArray()[0] as StoredRun | undefined) ?? null,
  );
}

/** Moves a run's clocks: it has run `minutes` so far, and/or its window closes at `closesAt`. */
function ageRun(deviceId: string, changes: { ranMinutes?: number; closesAt?: number }) {
  return sqlIn(deviceId, (sql) => {
    if (changes.ranMinutes !== undefined)
      sql.exec("UPDATE window_runs SET running_since = ?", Date.now() - changes.ranMinutes * MINUTE);
    if (changes.closesAt !== undefined) sql.exec("UPDATE window_runs SET closes_at = ?", changes.closesAt);
  });
}

/** Makes every look and switch-off the hub owes due now, and runs the alarm. */
async function wakeNow(deviceId: string) {
  await sqlIn(deviceId, (sql) => {
    sql.exec(
      "UPDATE window_runs SET wake_at = ?, start_at = CASE WHEN start_at IS NULL THEN NULL ELSE ? END",
      Date.now() - 1,
      Date.now() - 1,
    );
    sql.exec("UPDATE schedule_offs SET due_at = ?", Date.now() - 1);
  });
  return runDurableObjectAlarm(hubStub(deviceId));
}

/** With the cooldown over, supply goes and comes back, and the hub looks at everything it owes. */
async function flickerAfterCooldown(deviceId: string, box: DevicePeer) {
  await endCooldown(deviceId);
  box.send({ type: "event", event: "powerLost", relay: "off" });
  box.send({ type: "event", event: "powerRestored", relay: "off" });
  await wakeNow(deviceId);
}

/**
 * A farmer's box (answering like a healthy one) with a window `changes` that opened a second
 * ago; with supply present, once the run is running.
 */
async function windowOpened(changes: Record<string, unknown> = {}, box: { supply?: boolean } = {}) {
  const farmer = await farmerWithBox({ autoAck: true, ...box });
  const schedule = await createSchedule(farmer.token, nightWindow(changes));
  await openWindow(farmer.device.deviceId, schedule.id);
  if (box.supply !== false) await until(phaseIs(farmer.device.deviceId, "running"), "running");
  return { ...farmer, schedule };
}

/** Waits until the hub holds `check` true (frames are handled as they come, not when sent). */
async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const motorIs = (deviceId: string, status: string) => async () =>
  (await hubStub(deviceId).getSnapshot()).motorStatus === status;
const phaseIs = (deviceId: string, phase: string | null) => async () =>
  ((await windowRun(deviceId))?.phase ?? null) === phase;

describe("a power window", () => {
  it("opening with supply present starts the motor at once, logs why, and owes its stop at the run's end", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const schedule = await createSchedule(token, nightWindow());
    expect(schedule).toMatchObject({ kind: "window", time: "10:00 PM", window: { endTime: "6:00 AM", resume: true } });
    const before = Date.now();
    await openWindow(device.deviceId, schedule.id);

    expect(switchesSeen(box)).toEqual(["on"]);
    await until(phaseIs(device.deviceId, "running"), "running");
    const [off] = await owedSwitchOffs(device.deviceId);
    expect(off!.dueAt).toBeGreaterThanOrEqual(before + 120 * MINUTE);
    expect(off!.dueAt).toBeLessThanOrEqual(Date.now() + 120 * MINUTE);
    expect(await motorLogLines(device.deviceId)).toEqual([
      ["on", "Motor turned ON by the power window (10:00 PM–6:00 AM) with power present, 120 minutes of 120 to run"],
    ]);
    expect((await scheduleNow(token)).activeRun).toMatchObject({ phase: "running", ranMinutes: 0 });
    box.close();
  });

  it("opening before supply waits without a switch, then starts when the box reports power back", async () => {
    const { device, token, box } = await windowOpened({}, { supply: false });
    expect(switchesSeen(box)).toEqual([]);
    expect(await windowRun(device.deviceId)).toMatchObject({ phase: "waiting" });
    expect((await scheduleNow(token)).activeRun).toMatchObject({ phase: "waiting", ranMinutes: 0 });

    box.send({ type: "event", event: "powerRestored", relay: "off" });
    await until(motorIs(device.deviceId, "on"), "motor on after power came");
    expect(switchesSeen(box)).toEqual(["on"]);
    box.close();
  });

  it("with a random delay waits 0–120 s after supply, and a flicker inside the delay starts nothing", async () => {
    const { device, box } = await windowOpened({ randomDelay: true }, { supply: false });

    const restoredAt = Date.now();
    box.send({ type: "event", event: "powerRestored", relay: "off" });
    await until(phaseIs(device.deviceId, "delaying"), "delaying");
    const delaying = (await windowRun(device.deviceId))!;
    expect(delaying.startAt! - restoredAt).toBeGreaterThanOrEqual(0);
    expect(delaying.startAt! - Date.now()).toBeLessThanOrEqual(MAX_WINDOW_START_DELAY_SECONDS * 1000);
    // Supply goes again before the delay is over: back to waiting, nothing sent.
    box.send({ type: "event", event: "powerLost", relay: "off" });
    await until(phaseIs(device.deviceId, "waiting"), "waiting again");
    await wakeNow(device.deviceId);
    expect(switchesSeen(box)).toEqual([]);

    // Supply again, and this time the delay runs out: one start.
    box.send({ type: "event", event: "powerRestored", relay: "off" });
    await until(phaseIs(device.deviceId, "delaying"), "delaying again");
    await Promise.all([wakeNow(device.deviceId), wakeNow(device.deviceId)]);
    await until(motorIs(device.deviceId, "on"), "motor on after the delay");
    expect(switchesSeen(box)).toEqual(["on"]);
    box.close();
  });

  it("cut mid-run with resume pauses, then runs only the minutes left when power returns", async () => {
    const { device, box } = await windowOpened({ runMinutes: 60 });
    await ageRun(device.deviceId, { ranMinutes: 20 });

    box.send({ type: "event", event: "powerLost", relay: "off" });
    await until(phaseIs(device.deviceId, "waiting"), "paused");
    expect((await windowRun(device.deviceId))!.ranMs).toBeGreaterThanOrEqual(20 * MINUTE - 1_000);
    expect(await owedSwitchOffs(device.deviceId)).toEqual([]);

    await endCooldown(device.deviceId);
    box.send({ type: "event", event: "powerRestored", relay: "off" });
    await until(motorIs(device.deviceId, "on"), "motor on again");
    const resumedAt = Date.now();
    expect(switchesSeen(box)).toEqual(["on", "on"]);
    const [off] = await owedSwitchOffs(device.deviceId);
    expect(off!.dueAt).toBeLessThanOrEqual(resumedAt + 40 * MINUTE + 1_000);
    expect(off!.dueAt).toBeGreaterThan(resumedAt + 39 * MINUTE);
    const lines = (await motorLogLines(device.deviceId)).map(([, text]) => text);
    expect(lines).toContain(
      "Power-window run paused by a power cut after 20 of 60 minutes; it runs the rest if power returns before 6:00 AM.",
    );
    expect(lines.at(-1)).toBe(
      "Motor turned ON by the power window (10:00 PM–6:00 AM) with power present, 40 minutes of 60 to run",
    );
    box.close();
  });

  it("cut mid-run without resume ends the run; power coming back starts nothing", async () => {
    const { device, token, box } = await windowOpened({ runMinutes: 60, resume: false });
    await ageRun(device.deviceId, { ranMinutes: 15 });

    box.send({ type: "event", event: "powerLost", relay: "off" });
    await until(phaseIs(device.deviceId, null), "ended");
    await endCooldown(device.deviceId);
    box.send({ type: "event", event: "powerRestored", relay: "off" });
    await until(async () => (await motorLogLines(device.deviceId)).length >= 4, "power back logged");
    await wakeNow(device.deviceId);
    expect(switchesSeen(box)).toEqual(["on"]);
    expect((await scheduleNow(token)).lastRun).toMatchObject({ outcome: "failed", code: "powerCut", ranMinutes: 15 });
    box.close();
  });

  it("completes: the owed stop switches OFF, logged as complete, the run done, however often the alarm comes", async () => {
    const { device, token, box } = await windowOpened({ runMinutes: 30 });
    await ageRun(device.deviceId, { ranMinutes: 30 });
    // The hub restarts mid-run: nothing of the run is in memory.
    await endCooldown(device.deviceId);

    await Promise.all([wakeNow(device.deviceId), runDurableObjectAlarm(hubStub(device.deviceId))]);
    await until(phaseIs(device.deviceId, null), "ended");
    expect(switchesSeen(box)).toEqual(["on", "off"]);
    expect((await motorLogLines(device.deviceId)).at(-1)).toEqual([
      "off",
      "Motor turned OFF by the power window: run complete, 30 of 30 minutes run",
    ]);
    const view = await scheduleNow(token);
    expect(view.lastRun).toMatchObject({ outcome: "done", code: null, ranMinutes: 30 });
    expect(view.activeRun).toBeNull();
    expect(Date.parse(view.nextRunAt!)).toBeGreaterThan(Date.now());
    box.close();
  });

  it("closing while the motor runs stops it, short of its minutes, and never starts it again", async () => {
    const { device, token, box } = await windowOpened({ runMinutes: 120 });
    await ageRun(device.deviceId, { ranMinutes: 50, closesAt: Date.now() - 1 });
    await endCooldown(device.deviceId);

    await wakeNow(device.deviceId);
    await until(phaseIs(device.deviceId, null), "ended");
    expect((await motorLogLines(device.deviceId)).at(-1)).toEqual([
      "off",
      "Motor turned OFF by the power window: window closed, 50 of 120 minutes run",
    ]);
    expect((await scheduleNow(token)).lastRun).toMatchObject({
      outcome: "failed",
      code: "windowClosed",
      ranMinutes: 50,
    });
    await flickerAfterCooldown(device.deviceId, box);
    expect(switchesSeen(box)).toEqual(["on", "off"]);
    box.close();
  });

  it("that closes with no supply ends missed, and power after it starts nothing", async () => {
    const { device, token, box } = await windowOpened({}, { supply: false });
    await ageRun(device.deviceId, { closesAt: Date.now() - 1 });
    await wakeNow(device.deviceId);
    expect(await windowRun(device.deviceId)).toBeNull();
    box.send({ type: "event", event: "powerRestored", relay: "off" });
    await until(async () => (await motorLogLines(device.deviceId)).length >= 2, "power back logged");
    expect(switchesSeen(box)).toEqual([]);
    expect((await scheduleNow(token)).lastRun).toMatchObject({ outcome: "missed", code: "noSupply", ranMinutes: 0 });
    expect((await motorLogLines(device.deviceId))[0]).toEqual([
      "other",
      "Power-window run (10:00 PM–6:00 AM) ended after 0 of 120 minutes: no power came in the window.",
    ]);
    box.close();
  });

  it("whose hub woke only after it closed is missed as late, with no switch", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const schedule = await createSchedule(token, nightWindow());
    await openWindow(device.deviceId, schedule.id, 9 * 60 * MINUTE);
    expect(switchesSeen(box)).toEqual([]);
    expect(await windowRun(device.deviceId)).toBeNull();
    expect((await scheduleNow(token)).lastRun).toMatchObject({ outcome: "missed", code: "late" });
    box.close();
  });

  it("opened twice by a doubled alarm starts the motor once", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const schedule = await createSchedule(token, nightWindow());
    await sqlIn(device.deviceId, (sql) =>
      sql.exec("UPDATE schedules SET next_run_at = ? WHERE id = ?", Date.now() - 1_000, schedule.id),
    );
    await Promise.all([
      runDurableObjectAlarm(hubStub(device.deviceId)),
      runDurableObjectAlarm(hubStub(device.deviceId)),
    ]);
    await until(phaseIs(device.deviceId, "running"), "running");
    await runDurableObjectAlarm(hubStub(device.deviceId));
    expect(switchesSeen(box)).toEqual(["on"]);
    box.close();
  });

  it("stopped by the farmer mid-run ends the run, and supply returning never restarts it", async () => {
    const { device, token, box } = await windowOpened();
    await endCooldown(device.deviceId);
    const off = await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "off" }, token);
    expect(off.status).toBe(200);
    await until(phaseIs(device.deviceId, null), "ended");
    expect((await scheduleNow(token)).lastRun).toMatchObject({ outcome: "failed", code: "stopped" });
    await flickerAfterCooldown(device.deviceId, box);
    expect(switchesSeen(box)).toEqual(["on", "off"]);
    box.close();
  });

  it("deleted while waiting for supply starts nothing when supply comes", async () => {
    const { device, token, box, schedule } = await windowOpened({}, { supply: false });
    expect((await windowRun(device.deviceId))?.phase).toBe("waiting");
    expect((await deleteJson(`/api/schedule/${schedule.id}`, {}, token)).status).toBe(200);
    expect(await windowRun(device.deviceId)).toBeNull();
    box.send({ type: "event", event: "powerRestored", relay: "off" });
    await until(async () => (await motorLogLines(device.deviceId)).length >= 1, "power back logged");
    await wakeNow(device.deviceId);
    expect(switchesSeen(box)).toEqual([]);
    box.close();
  });
});
