// A box's hub as a test reaches into it: its stub, its snapshot, its stored state and timers
// rewritten or fired, and the motor log it has written to D1.
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { AlertDeliveriesTable } from "../../../durable-objects/device-hub/alert-deliveries-table.ts";
import { FrameBudget } from "../../../durable-objects/device-hub/socket-caps.ts";
import { readStoredState, writeStoredState } from "../../../durable-objects/device-hub/state.ts";
import { getDb } from "../../../worker/db/client.ts";
import { motorLogs } from "../../../worker/db/schema.ts";

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
  // The hub writes its log to D1 after it answers, and saves its recent list when D1 has it: a
  // write behind its back while that is under way would be overwritten by its copy in memory.
  await stub.flushLogs();
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
 * The motor logs D1 holds for a device, oldest first, once its hub has written what waits in its
 * outbox (the hub answers before it writes to D1; a farmer's log read flushes the same way).
 */
export async function motorLogRows(deviceId: string) {
  await hubStub(deviceId).flushLogs();
  return getDb(env.DB).select().from(motorLogs).where(eq(motorLogs.deviceId, deviceId)).orderBy(motorLogs.id);
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

/** Every SMS and call the hub's alerts made (its `alert_deliveries`), oldest first. */
export function hubAlertDeliveries(deviceId: string) {
  return runInDurableObject(hubStub(deviceId), (_hub: unknown, state) =>
    new AlertDeliveriesTable(state.storage.sql).all(),
  );
}
