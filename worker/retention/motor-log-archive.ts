// Motor logs past their months in D1 went to R2, one NDJSON object per box and IST month
// (`motor-logs/<deviceId>/<YYYY-MM>.ndjson`), and the farmer's and admin's log pages read them
// back through the same API: the hub first (and D1 while it holds some), then the archive,
// newest first by id. A box's log now lives in its hub (docs/decisions/045-history-lives-with-its-box.md):
// what D1 still holds past its months keeps going to R2 until the move has emptied D1.
import { and, asc, eq, gte, lt } from "drizzle-orm";
import { istDayStart } from "../../common/pump-usage.ts";
import { z } from "../../common/zod.ts";
import type { Db } from "../db/client.ts";
import { type MotorLogRow, motorLogs } from "../db/schema.ts";
import { istMonth } from "../services/telephony-usage.ts";
import { archiveMetadata, archiveRows, listArchive, readArchive } from "./archive-objects.ts";
import { deleteArchivedRows } from "./delete-archived.ts";

/**
 * Motor logs stay in D1 at least this long: the live list, the run-hours chart and the pages a
 * farmer opens most read the last weeks. A month is archived whole once it ended this long ago,
 * so D1 holds 90 to 121 days of a box's log and each box-month is one R2 write.
 */
export const MOTOR_LOGS_IN_D1_DAYS = 90;

/** A motor log row as archived: every D1 column, checked on its way in and out. */
const archivedMotorLogSchema = z.object({
  id: z.number().int().positive(),
  deviceId: z.string(),
  userId: z.number().int().nullable(),
  mobileNo: z.string().nullable(),
  action: z.enum(["on", "off", "other"]),
  kind: z.string(),
  params: z.string(),
  message: z.string(),
  createdAt: z.number().int(),
  hubRef: z.string().nullable(),
}) satisfies z.ZodType<MotorLogRow>;

export const MOTOR_LOG_ARCHIVE_PREFIX = "motor-logs/";

export function motorLogArchiveKey(deviceId: string, month: string): string {
  return `${MOTOR_LOG_ARCHIVE_PREFIX}${deviceId}/${month}.ndjson`;
}

/** The start of the IST month `at` falls in. */
function istMonthStart(at: number): number {
  return istDayStart(`${istMonth(at)}-01`);
}

/** The start of the IST month after the one `at` falls in. */
function nextIstMonthStart(at: number): number {
  // Day 32 after a month's first day is always in the next month.
  return istMonthStart(istMonthStart(at) + 32 * 24 * 60 * 60_000);
}

/** Logs created before this are archived: the start of the month `MOTOR_LOGS_IN_D1_DAYS` ago. */
export function motorLogArchiveCutoff(now: number): number {
  return istMonthStart(now - MOTOR_LOGS_IN_D1_DAYS * 24 * 60 * 60_000);
}

/** A box's month of logs that is due for the archive. */
export type MotorLogGroup = { deviceId: string; month: string; from: number; to: number };

/** The oldest box-month still in D1 that is past the cutoff (through `motor_logs_created_idx`). */
export async function nextMotorLogGroup(db: Db, now: number): Promise<MotorLogGroup | null> {
  const [oldest] = await db
    .select({ deviceId: motorLogs.deviceId, createdAt: motorLogs.createdAt })
    .from(motorLogs)
    .where(lt(motorLogs.createdAt, motorLogArchiveCutoff(now)))
    .orderBy(asc(motorLogs.createdAt))
    .limit(1);
  if (!oldest) return null;
  return {
    deviceId: oldest.deviceId,
    month: istMonth(oldest.createdAt),
    from: istMonthStart(oldest.createdAt),
    to: nextIstMonthStart(oldest.createdAt),
  };
}

/**
 * Copies up to `limit` of the group's rows (oldest ids first) into its R2 object. Answers the
 * ids now proven to be in R2, which only then may leave D1; none when another run wrote the
 * object in between (it will be tried again on the next tick).
 */
export async function archiveMotorLogGroup(
  db: Db,
  bucket: R2Bucket,
  group: MotorLogGroup,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .select()
    .from(motorLogs)
    .where(
      and(
        eq(motorLogs.deviceId, group.deviceId),
        gte(motorLogs.createdAt, group.from),
        lt(motorLogs.createdAt, group.to),
      ),
    )
    .orderBy(asc(motorLogs.id))
    .limit(limit);
  const archived = await archiveRows(
    bucket,
    motorLogArchiveKey(group.deviceId, group.month),
    rows,
    archivedMotorLogSchema,
  );
  return archived ? rows.map((row) => row.id) : [];
}

/** What one tick may do: box-months (two R2 calls each) and rows a box-month at a time. */
export type MotorLogArchiveLimits = { groups: number; rowsPerGroup: number };

export const MOTOR_LOG_ARCHIVE_LIMITS: MotorLogArchiveLimits = { groups: 25, rowsPerGroup: 500 };

/**
 * One tick of the archive: the oldest box-months past the cutoff, each copied to R2 and then
 * deleted from D1, within `limits`. Stops at the first group another run is writing.
 */
export async function archiveOldMotorLogs(
  db: Db,
  bucket: R2Bucket,
  now: number,
  limits = MOTOR_LOG_ARCHIVE_LIMITS,
): Promise<{ rows: number; groups: number }> {
  let rows = 0;
  let groups = 0;
  while (groups < limits.groups) {
    const group = await nextMotorLogGroup(db, now);
    if (!group) break;
    const ids = await archiveMotorLogGroup(db, bucket, group, limits.rowsPerGroup);
    if (ids.length === 0) break;
    await deleteArchivedRows(db, motorLogs, ids);
    rows += ids.length;
    groups += 1;
  }
  return { rows, groups };
}

/**
 * One page of a box's motor logs, newest first by id, with `before` the last id of the previous
 * page: `recent` (what the hub, and D1 while it still holds some, gave), then the archive's once
 * they are fewer than `limit`. A row both in `recent` and R2 (archived, then moved into the hub
 * before D1 let it go) is given once. Archive objects whose ids are all at or above `before` are
 * not opened. `since`: nothing written before it (ownedSince).
 */
export async function withArchivedLogs(
  bucket: R2Bucket,
  deviceId: string,
  recent: MotorLogRow[],
  limit: number,
  before?: number,
  since?: number,
): Promise<MotorLogRow[]> {
  if (recent.length >= limit) return recent.slice(0, limit);
  const byId = new Map(recent.map((row) => [row.id, row]));
  const months = (await listArchive(bucket, `${MOTOR_LOG_ARCHIVE_PREFIX}${deviceId}/`))
    .map((object) => ({ key: object.key, metadata: archiveMetadata(object) }))
    .filter(({ metadata }) => !metadata || before === undefined || metadata.minId < before)
    // Newest ids first; an object without our metadata is read in key (month) order.
    .sort((a, b) => (b.metadata?.maxId ?? 0) - (a.metadata?.maxId ?? 0) || b.key.localeCompare(a.key));
  for (const { key, metadata } of months) {
    const taken = [...byId.values()].sort((a, b) => b.id - a.id);
    // Enough rows, and every later object holds only smaller ids than the smallest one kept.
    if (taken.length >= limit && metadata && metadata.maxId < taken[limit - 1]!.id) break;
    for (const row of await readArchive(bucket, key, archivedMotorLogSchema)) {
      if ((before === undefined || row.id < before) && (since === undefined || row.createdAt >= since)) {
        byId.set(row.id, row);
      }
    }
  }
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, limit);
}
