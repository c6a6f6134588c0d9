// Every device's motor logs for the admin list (SPEC §2 "Admin motor logs"), one page at a
// time: the browser never receives the whole table.
import { count, desc } from "drizzle-orm";
import { wordsIn } from "../../common/i18n/dictionaries.ts";
import type { Language } from "../../common/i18n/language.ts";
import { motorLogText } from "../../common/i18n/motor-log.ts";
import { type MotorLogParam, splitMotorLogEvent } from "../../common/motor-log-event.ts";
import type { Db } from "./client.ts";
import { motorLogEventOfRow } from "./motor-logs.ts";
import { motorLogs } from "./schema.ts";

/**
 * SPEC §3 "Motor log (admin list)": id, mobileNo, message (in the reader's language),
 * createdAt; plus the action for colour, and the entry's kind and parameters.
 */
export type AdminMotorLog = {
  id: number;
  mobileNo: string | null;
  action: "on" | "off" | "other";
  message: string;
  createdAt: string;
  kind: string;
  params: Record<string, MotorLogParam>;
};

export type AdminMotorLogPage = {
  logs: AdminMotorLog[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
};

/**
 * Page `page` (from 1) of all logs, newest first. A page past the end gives the last page, so
 * a stale link never shows an empty table while logs exist.
 */
export async function listMotorLogsForAdmin(
  db: Db,
  page: number,
  pageSize: number,
  language: Language = "en",
): Promise<AdminMotorLogPage> {
  const [totalRow] = await db.select({ value: count() }).from(motorLogs);
  const total = totalRow?.value ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(page, totalPages);
  // Ordered by id: the primary key, so the offset walks an index rather than sorting the table.
  const rows = await db
    .select({
      id: motorLogs.id,
      mobileNo: motorLogs.mobileNo,
      action: motorLogs.action,
      kind: motorLogs.kind,
      params: motorLogs.params,
      message: motorLogs.message,
      createdAt: motorLogs.createdAt,
    })
    .from(motorLogs)
    .orderBy(desc(motorLogs.id))
    .limit(pageSize)
    .offset((current - 1) * pageSize);
  return {
    logs: rows.map((row) => {
      const event = motorLogEventOfRow(row);
      return {
        id: row.id,
        mobileNo: row.mobileNo,
        action: row.action,
        message: motorLogText(event, wordsIn(language)),
        createdAt: new Date(row.createdAt).toISOString(),
        ...splitMotorLogEvent(event),
      };
    }),
    page: current,
    pageSize,
    total,
    totalPages,
  };
}
