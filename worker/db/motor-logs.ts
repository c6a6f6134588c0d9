import { and, desc, eq, lt } from "drizzle-orm";
import { wordsIn } from "../../app/i18n/dictionaries.ts";
import type { Language } from "../../app/i18n/language.ts";
import { motorLogText } from "../../app/i18n/motor-log.ts";
import { type MotorLogEvent, motorLogEventOf, splitMotorLogEvent } from "../../common/motor-log-event.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import type { Db } from "./client.ts";
import { type MotorLogRow, motorLogs } from "./schema.ts";

/** A log as a DeviceHub writes it: the event, never a sentence. */
export type MotorLogInsert = Pick<MotorLogRow, "deviceId" | "userId" | "mobileNo" | "action" | "createdAt"> & {
  event: MotorLogEvent;
  hubRef: string;
};

/**
 * Inserts a log written by a DeviceHub, with its English wording in `message` for people who
 * read the table directly. A retry with the same `hubRef` returns the row already stored
 * instead of adding a second one.
 */
export async function insertMotorLog(db: Db, { event, ...values }: MotorLogInsert): Promise<MotorLogRow> {
  const { kind, params } = splitMotorLogEvent(event);
  const inserted = await db
    .insert(motorLogs)
    .values({ ...values, kind, params: JSON.stringify(params), message: motorLogText(event, wordsIn("en")) })
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

/** A stored row's event; a row this code cannot read shows its sentence. */
export function motorLogEventOfRow(row: Pick<MotorLogRow, "kind" | "params" | "message">): MotorLogEvent {
  let params: unknown = null;
  try {
    params = JSON.parse(row.params);
  } catch {
    // Unreadable parameters: the sentence stands in.
  }
  return motorLogEventOf(row.kind, params, row.message);
}

/** The user view of a log entry (SPEC §3), `logMessage` in `language`, plus its kind and parameters. */
export function motorLogEntry(
  id: number,
  action: MotorLogRow["action"],
  event: MotorLogEvent,
  createdAt: number,
  language: Language = "en",
): MotorLogEntry {
  const { kind, params } = splitMotorLogEvent(event);
  return {
    id,
    action,
    logMessage: motorLogText(event, wordsIn(language)),
    timestamp: new Date(createdAt).toISOString(),
    kind,
    params,
  };
}

export function toMotorLogEntry(row: MotorLogRow, language: Language = "en"): MotorLogEntry {
  return motorLogEntry(row.id, row.action, motorLogEventOfRow(row), row.createdAt, language);
}
