import { and, desc, eq, lt } from "drizzle-orm";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import type { Db } from "./client.ts";
import { motorLogs, type MotorLogRow } from "./schema.ts";

/**
 * Inserts a log written by a DeviceHub. A retry with the same `hubRef` returns the row
 * already stored instead of adding a second one.
 */
export async function insertMotorLog(
  db: Db,
  values: Omit<MotorLogRow, "id"> & { hubRef: string },
): Promise<MotorLogRow> {
  const inserted = await db
    .insert(motorLogs)
    .values(values)
    .onConflictDoNothing({ target: motorLogs.hubRef })
    .returning();
  if (inserted[0]) return inserted[0];
  const existing = await db.query.motorLogs.findFirst({ where: eq(motorLogs.hubRef, values.hubRef) });
  if (!existing) throw new Error(`motor log ${values.hubRef} vanished after a conflicting insert`);
  return existing;
}

export function listRecentMotorLogs(db: Db, deviceId: string, limit: number) {
  return db
    .select()
    .from(motorLogs)
    .where(eq(motorLogs.deviceId, deviceId))
    .orderBy(desc(motorLogs.createdAt), desc(motorLogs.id))
    .limit(limit);
}

/** One page of a device's logs, newest first; `before` is the last id of the previous page. */
export function listMotorLogsPage(db: Db, deviceId: string, limit: number, before?: number) {
  return db
    .select()
    .from(motorLogs)
    .where(before ? and(eq(motorLogs.deviceId, deviceId), lt(motorLogs.id, before)) : eq(motorLogs.deviceId, deviceId))
    .orderBy(desc(motorLogs.id))
    .limit(limit);
}

/** The user view of a log entry (SPEC §3). */
export function toMotorLogEntry(row: MotorLogRow): MotorLogEntry {
  return {
    id: row.id,
    action: row.action,
    logMessage: row.message,
    timestamp: new Date(row.createdAt).toISOString(),
  };
}
