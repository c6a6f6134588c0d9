// What the admin area reads of the fleet's activity, for its pages and the API (GET
// /api/admin/dashboard-stats, /motor-logs and /audit-trail): the dashboard's counts, the motor
// log of a farmer's boxes or of one box, and the trail of admin writes.

import type { AdminMotorLogFilter } from "../../common/admin-schemas.ts";
import { wordsIn } from "../../common/i18n/dictionaries.ts";
import type { Language } from "../../common/i18n/language.ts";
import { motorLogText } from "../../common/i18n/motor-log.ts";
import { type MotorLogParam, splitMotorLogEvent } from "../../common/motor-log-event.ts";
import { type AuditFilter, accountNumbers, listAuditEntries } from "../db/admin-audit-trail.ts";
import { boxesOfLogFilter } from "../db/admin-motor-logs.ts";
import { type DashboardStats, dashboardStats } from "../db/admin-stats.ts";
import { getDb } from "../db/client.ts";
import { motorLogEventOfRow } from "../db/motor-logs.ts";
import { readsThatMayLag } from "../db/reads-that-may-lag.ts";
import { newestOfBoxes } from "../hubs/motor-log-pages.ts";

export type { DashboardStats };

/** The dashboard's counts, as of now. */
export function fleetStats(env: Env): Promise<DashboardStats> {
  return dashboardStats(getDb(readsThatMayLag(env)), Date.now());
}

/** An entry of the admin's motor log (SPEC §3 "Motor log (admin list)"), naming its box. */
export type AdminMotorLog = {
  id: number;
  deviceId: string;
  boxName: string | null;
  mobileNo: string | null;
  action: "on" | "off" | "other";
  /** In `language`; pages word the entry again from `kind` and `params`. */
  message: string;
  createdAt: string;
  kind: string;
  params: Record<string, MotorLogParam>;
};

export type AdminMotorLogPage = { logs: AdminMotorLog[]; pageSize: number; nextBefore: number | null };

/**
 * One page of the motor log of a farmer's boxes or of one box, newest first, older than `before`
 * if given: read from those boxes' hubs only (a box's history lives there, docs/decisions/045-
 * history-lives-with-its-box.md). Undefined when there is no such farmer or box. Which boxes is
 * a read that may lag: a box linked a moment ago may miss one page.
 */
export async function boxMotorLogs(
  env: Env,
  filter: AdminMotorLogFilter,
  before: number | undefined,
  pageSize: number,
  language: Language = "en",
): Promise<AdminMotorLogPage | undefined> {
  const boxes = await boxesOfLogFilter(getDb(readsThatMayLag(env)), filter);
  if (!boxes) return undefined;
  const names = new Map(boxes.map((box) => [box.id, box.name]));
  const { rows, nextBefore } = await newestOfBoxes(
    env,
    boxes.map((box) => box.id),
    { limit: pageSize, before },
  );
  return {
    logs: rows.map((row) => {
      const event = motorLogEventOfRow(row);
      return {
        id: row.id,
        deviceId: row.deviceId,
        boxName: names.get(row.deviceId) ?? null,
        mobileNo: row.mobileNo,
        action: row.action,
        message: motorLogText(event, wordsIn(language)),
        createdAt: new Date(row.createdAt).toISOString(),
        ...splitMotorLogEvent(event),
      };
    }),
    pageSize,
    nextBefore,
  };
}

/** One page of the admin audit trail, newest first, of one admin or about one target if asked. */
export function auditTrailPage(env: Env, filter: AuditFilter, page: number, pageSize: number) {
  return listAuditEntries(getDb(readsThatMayLag(env)), filter, page, pageSize);
}

/** The mobile numbers of the accounts a page of the trail names (`user:12`), by account id. */
export function auditAccountNumbers(env: Env, ids: readonly number[]): Promise<Map<number, string>> {
  return accountNumbers(getDb(env.DB), ids);
}
