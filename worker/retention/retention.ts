// How long each table that grows with the fleet keeps its rows in D1, and the cron trigger's
// share of keeping to it (docs/decisions/034-what-lives-where.md). Every rule works in small
// bounded steps a minute, so a backlog (the first run after a deploy, a day of outage) drains
// over ticks instead of one long statement; each step is safe to repeat and to cut short.
import { getDb } from "../db/client.ts";
import { purgeOldPhoneAlertCounts } from "../db/phone-alert-counts.ts";
import { archiveOldAdminAudit } from "./admin-audit-archive.ts";
import { archiveOldMotorLogs } from "./motor-log-archive.ts";
import { moveLogsToHubs } from "./move-logs-to-hubs.ts";
import { archiveOldPaymentRecords, type PaymentArchiveRun } from "./payments-archive.ts";

/**
 * At most this many of each of the phone alerts' counts are deleted a minute: day counts before
 * yesterday (the daily caps read today only), months past the 13 the admin's costs show.
 */
const PHONE_ALERT_COUNTS_PER_RUN = 500;

export type RetentionRun = {
  motorLogs: number;
  motorLogMonths: number;
  /** Motor logs moved from D1 into their boxes' hubs, and the boxes whose last rows went. */
  motorLogsMoved: number;
  boxesMoved: number;
  adminAudit: number;
  phoneAlertDays: number;
  phoneAlertMonths: number;
} & PaymentArchiveRun;

/**
 * One minute's retention: motor logs and the admin trail past their months in D1 are moved to
 * the archive (R2, written before D1 lets go), the motor logs D1 still holds moved into their
 * boxes' hubs (move-logs-to-hubs.ts: the past months first to R2, as before, so the hubs take
 * only the recent ones), phone alerts' old day and month counts deleted (each SMS and call is
 * kept in its pump's hub, which deletes its own past a year), and payment records past their
 * windows moved to the archive too (payments-archive.ts: gateway events, payments, ended plan
 * periods, decided cash and bank requests; old reminders deleted). Sessions, their realtime watches
 * and push subscriptions have their own purge (worker/auth/sessions.ts).
 */
export async function runRetention(
  env: Pick<Env, "DB" | "ARCHIVE" | "DEVICE_HUB">,
  now = Date.now(),
): Promise<RetentionRun> {
  const db = getDb(env.DB);
  const logs = await archiveOldMotorLogs(db, env.ARCHIVE, now);
  const moved = await moveLogsToHubs(env);
  const audit = await archiveOldAdminAudit(db, env.ARCHIVE, now);
  const counts = await purgeOldPhoneAlertCounts(db, now, PHONE_ALERT_COUNTS_PER_RUN);
  const paid = await archiveOldPaymentRecords(db, env.ARCHIVE, now);
  return {
    motorLogs: logs.rows,
    motorLogMonths: logs.groups,
    motorLogsMoved: moved.rows,
    boxesMoved: moved.boxes,
    adminAudit: audit.rows,
    phoneAlertDays: counts.days,
    phoneAlertMonths: counts.months,
    ...paid,
  };
}
