import { and, desc, eq, gte, lt } from "drizzle-orm";
import { wordsIn } from "../../common/i18n/dictionaries.ts";
import type { Language } from "../../common/i18n/language.ts";
import { motorLogText } from "../../common/i18n/motor-log.ts";
import { type MotorLogEvent, motorLogEventOf, splitMotorLogEvent } from "../../common/motor-log-event.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import type { Db } from "./client.ts";
import { type MotorLogRow, motorLogs } from "./schema.ts";

/** A log as hubs once wrote it to D1 (and may still hold in an outbox): the event, never a sentence. */
export type MotorLogInsert = Pick<MotorLogRow, "deviceId" | "userId" | "mobileNo" | "action" | "createdAt"> & {
  event: MotorLogEvent;
  hubRef: string;
};

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
