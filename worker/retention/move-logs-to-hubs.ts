// The move of a running fleet's motor log from D1 into the boxes' hubs
// (docs/decisions/045-history-lives-with-its-box.md), a few boxes a minute from the cron trigger.
// Nothing writes a motor log to D1 any more, so the rows still there are the whole of what is
// left to move, and they are the move's only cursor: a box's rows go to its hub oldest first, a
// batch at a time, and leave D1 only once the hub has stored them. A move stopped anywhere (a
// tick cut short, a hub or D1 that failed) starts again from what D1 still holds; the hub keeps
// each row under its D1 id and stores one it already has no second time, so nothing is lost or
// doubled. Until a box's last rows are in, its log pages read D1 beside the hub
// (worker/hubs/motor-log-pages.ts).
import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { getDb } from "../db/client.ts";
import { motorLogs } from "../db/schema.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { deleteArchivedRows } from "./delete-archived.ts";

/** What one tick may move: batches (one hub call and one D1 delete each) of at most `rowsPerBatch` rows. */
export type LogMoveLimits = { batches: number; rowsPerBatch: number };

export const LOG_MOVE_LIMITS: LogMoveLimits = { batches: 20, rowsPerBatch: 200 };

export type LogMoveRun = { rows: number; boxes: number };

/** The box whose rows are next (the smallest id with any left, through `motor_logs_device_created_idx`). */
async function nextBox(db: Db): Promise<string | null> {
  const [next] = await db
    .select({ deviceId: motorLogs.deviceId })
    .from(motorLogs)
    .orderBy(asc(motorLogs.deviceId))
    .limit(1);
  return next?.deviceId ?? null;
}

/** One tick of the move, within `limits`; `boxes`: boxes whose last rows it moved. */
export async function moveLogsToHubs(
  env: Pick<Env, "DB" | "DEVICE_HUB">,
  limits: LogMoveLimits = LOG_MOVE_LIMITS,
): Promise<LogMoveRun> {
  const db = getDb(env.DB);
  const run: LogMoveRun = { rows: 0, boxes: 0 };
  for (let batch = 0; batch < limits.batches; batch++) {
    const deviceId = await nextBox(db);
    if (!deviceId) break;
    // One more than a batch: whether this batch holds the box's last rows.
    const rows = await db
      .select()
      .from(motorLogs)
      .where(eq(motorLogs.deviceId, deviceId))
      .orderBy(asc(motorLogs.id))
      .limit(limits.rowsPerBatch + 1);
    const moving = rows.slice(0, limits.rowsPerBatch);
    const last = rows.length <= limits.rowsPerBatch;
    await deviceHub(env, deviceId).importMotorLogs(moving, last);
    await deleteArchivedRows(
      db,
      motorLogs,
      moving.map((row) => row.id),
    );
    run.rows += moving.length;
    if (last) run.boxes += 1;
  }
  return run;
}
