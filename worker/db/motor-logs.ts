import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { wordsIn } from "../../common/i18n/dictionaries.ts";
import type { Language } from "../../common/i18n/language.ts";
import { motorLogText } from "../../common/i18n/motor-log.ts";
import { type MotorLogEvent, motorLogEventOf, splitMotorLogEvent } from "../../common/motor-log-event.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import type { Db } from "./client.ts";
import { type MotorLogRow, motorLogs, users } from "./schema.ts";

/** A log as a DeviceHub writes it: the event, never a sentence. */
export type MotorLogInsert = Pick<MotorLogRow, "deviceId" | "userId" | "mobileNo" | "action" | "createdAt"> & {
  event: MotorLogEvent;
  hubRef: string;
};

/**
 * Inserts logs written by a DeviceHub in one round trip (D1 runs a batch as one transaction: all
 * or none), each with its English wording in `message` for people who read the table directly,
 * and answers every one as stored. A retry of an entry already stored (same `hubRef`) adds
 * nothing: the stored row is answered. At most 50 (D1 binds at most 100 values a statement, and
 * the read-back names each entry). An entry names its user only if the account still exists:
 * one deleted between the entry and its write (or before its hub heard) would make D1 refuse
 * the whole batch, and every batch after it, for good.
 */
export async function insertMotorLogs(db: Db, entries: MotorLogInsert[]): Promise<MotorLogRow[]> {
  if (entries.length === 0) return [];
  if (entries.length > MAX_MOTOR_LOGS_PER_INSERT) throw new Error(`at most ${MAX_MOTOR_LOGS_PER_INSERT} logs at once`);
  const inserts = entries.map(({ event, userId, ...values }) => {
    const { kind, params } = splitMotorLogEvent(event);
    return db
      .insert(motorLogs)
      .values({
        ...values,
        userId: userId === null ? null : sql`(SELECT ${users.id} FROM ${users} WHERE ${users.id} = ${userId})`,
        kind,
        params: JSON.stringify(params),
        message: motorLogText(event, wordsIn("en")),
      })
      .onConflictDoNothing({ target: motorLogs.hubRef });
  });
  const hubRefs = entries.map((entry) => entry.hubRef);
  const readBack = db.select().from(motorLogs).where(inArray(motorLogs.hubRef, hubRefs));
  const [first, ...rest] = inserts;
  const results = await db.batch([first!, ...rest, readBack]);
  const stored = new Map((results.at(-1) as MotorLogRow[]).map((row) => [row.hubRef, row]));
  return hubRefs.map((hubRef) => {
    const row = stored.get(hubRef);
    if (!row) throw new Error(`motor log ${hubRef} missing after its insert`);
    return row;
  });
}

export const MAX_MOTOR_LOGS_PER_INSERT = 50;

export function listRecentMotorLogs(db: Db, deviceId: string, limit: number) {
  return db
    .select()
    .from(motorLogs)
    .where(eq(motorLogs.deviceId, deviceId))
    .orderBy(desc(motorLogs.createdAt), desc(motorLogs.id))
    .limit(limit);
}

/**
 * One page of a device's logs, newest first; `before` is the last id of the previous page,
 * `since` the time before which nothing is given (another owner's, ownedSince).
 */
export function listMotorLogsPage(db: Db, deviceId: string, limit: number, before?: number, since?: number) {
  return db
    .select()
    .from(motorLogs)
    .where(
      and(
        eq(motorLogs.deviceId, deviceId),
        before ? lt(motorLogs.id, before) : undefined,
        since === undefined ? undefined : gte(motorLogs.createdAt, since),
      ),
    )
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
