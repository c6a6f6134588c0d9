// A box's hub as a test reaches into it: its stub, its snapshot, its stored state and timers
// rewritten or fired, and the motor log it holds.
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { wordsIn } from "../../../common/i18n/dictionaries.ts";
import { motorLogText } from "../../../common/i18n/motor-log.ts";
import type { MotorLogEvent } from "../../../common/motor-log-event.ts";
import { AlertDeliveriesTable } from "../../../durable-objects/device-hub/alert-deliveries-table.ts";
import type { HubRooms } from "../../../durable-objects/device-hub/rooms.ts";
import { FrameBudget } from "../../../durable-objects/device-hub/socket-caps.ts";
import { readStoredState, writeStoredState } from "../../../durable-objects/device-hub/state.ts";
import { motorLogEventOfRow } from "../../../worker/db/motor-logs.ts";

export function hubStub(deviceId: string) {
  return env.DEVICE_HUB.get(env.DEVICE_HUB.idFromName(deviceId));
}

/**
 * The hub's snapshot without its clocks (when it was taken, when the box was last heard: a
 * heartbeat moves that), to compare the state at two moments.
 */
export async function snapshotWithoutClocks(deviceId: string) {
  const { pump, ...rest } = await hubStub(deviceId).getSnapshot();
  const { at: _at, lastSeenAt: _lastSeenAt, ...stable } = pump;
  return { ...rest, pump: stable };
}

/**
 * Rewrites the hub's stored state, then evicts it so the next instance loads the change (the
 * running instance keeps its state cached in memory). For moving a hub's clock back.
 */
export async function rewriteHubState(
  deviceId: string,
  change: (state: Record<string, unknown>) => Record<string, unknown>,
) {
  const stub = hubStub(deviceId);
  await runInDurableObject(stub, (_hub: unknown, state) => {
    writeStoredState(state.storage.kv, change(readStoredState(state.storage.kv) as Record<string, unknown>));
  });
  await evictDurableObject(stub, { webSockets: "hibernate" });
}

/** Makes a named hub timer due now and runs the alarm. */
export async function fireTimer(deviceId: string, name: string) {
  const stub = hubStub(deviceId);
  await runInDurableObject(stub, (_hub: unknown, state) => {
    state.storage.sql.exec("UPDATE timers SET due_at = ? WHERE name = ?", Date.now() - 1, name);
  });
  return runDurableObjectAlarm(stub);
}

/**
 * Lifts the box's frame-rate cap on a running hub, for suites about what frames say rather than
 * how many come (the fuzzers send thousands back to back). The cap's own tests: caps.test.ts.
 */
export async function liftFrameRateCap(deviceId: string) {
  await runInDurableObject(hubStub(deviceId), (hub: unknown) => {
    (hub as { deviceFrameBudget: FrameBudget }).deviceFrameBudget = new FrameBudget(Number.MAX_SAFE_INTEGER, 0);
  });
}

/**
 * The motor log a device's hub holds, oldest first, each row's `message` its English words (the
 * hub stores the event, not a sentence).
 */
export async function motorLogRows(deviceId: string) {
  const { rows } = await hubStub(deviceId).motorLogPage({ limit: 100_000 });
  return rows.map((row) => ({ ...row, message: motorLogText(motorLogEventOfRow(row), wordsIn("en")) })).reverse();
}

/** A device's motor logs as `[action, message]`, oldest first. */
export async function motorLogLines(deviceId: string) {
  return (await motorLogRows(deviceId)).map((row) => [row.action, row.message]);
}

/** The switch-offs of schedule runs a hub still owes, as its storage holds them. */
export function owedSwitchOffs(deviceId: string) {
  return runInDurableObject(hubStub(deviceId), (_hub: unknown, state) =>
    state.storage.sql
      .exec<{ scheduleId: number; dueAt: number }>(
        "SELECT schedule_id AS scheduleId, due_at AS dueAt FROM schedule_offs",
      )
      .toArray(),
  );
}

/**
 * Writes `event` into the box's log as its hub would have at `at`, and copies the box's row of
 * the dashboard's figures to D1 at once (the hub would within the hour).
 */
export async function logThroughHub(
  deviceId: string,
  action: "on" | "off" | "other",
  event: MotorLogEvent,
  at: number,
) {
  await runInDurableObject(hubStub(deviceId), async (hub: unknown) => {
    const { log } = (hub as { rooms: HubRooms }).rooms;
    log.record(action, event, at);
    await log.activity.copy();
  });
}

/** Every SMS and call the hub's alerts made (its `alert_deliveries`), oldest first. */
export function hubAlertDeliveries(deviceId: string) {
  return runInDurableObject(hubStub(deviceId), (_hub: unknown, state) =>
    new AlertDeliveriesTable(state.storage.sql).all(),
  );
}
