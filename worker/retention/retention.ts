// How long each table that grows with the fleet keeps its rows in D1, and the cron trigger's
// share of keeping to it (docs/decisions/034-what-lives-where.md). Every rule works in small
// bounded steps a minute, so a backlog (the first run after a deploy, a day of outage) drains
// over ticks instead of one long statement; each step is safe to repeat and to cut short.
import { inArray, lt } from "drizzle-orm";
import { getDb } from "../db/client.ts";
import { alertDeliveries } from "../db/schema.ts";
import { archiveOldAdminAudit } from "./admin-audit-archive.ts";
import { archiveOldMotorLogs } from "./motor-log-archive.ts";
import { moveLogsToHubs } from "./move-logs-to-hubs.ts";

/**
 * An alert's SMS and call records: the daily caps read a day, the admin's costs a month at a
 * time, a key pressed on a call finds its delivery within minutes. Kept about 13 months (a
 * year of costs beside the same month a year before), then deleted: the provider's invoices
 * are the record of what was paid.
 */
export const ALERT_DELIVERIES_KEPT_DAYS = 400;

const DAY_MS = 24 * 60 * 60_000;

/** At most this many alert deliveries are deleted a minute. */
const ALERT_DELIVERIES_PER_RUN = 500;

async function purgeOldAlertDeliveries(db: ReturnType<typeof getDb>, now: number): Promise<number> {
  const old = db
    .select({ id: alertDeliveries.id })
    .from(alertDeliveries)
    .where(lt(alertDeliveries.createdAt, now - ALERT_DELIVERIES_KEPT_DAYS * DAY_MS))
    .limit(ALERT_DELIVERIES_PER_RUN);
  const deleted = await db
    .delete(alertDeliveries)
    .where(inArray(alertDeliveries.id, old))
    .returning({ id: alertDeliveries.id });
  return deleted.length;
}

export type RetentionRun = {
  motorLogs: number;
  motorLogMonths: number;
  /** Motor logs moved from D1 into their boxes' hubs, and the boxes whose last rows went. */
  motorLogsMoved: number;
  boxesMoved: number;
  adminAudit: number;
  alertDeliveries: number;
};

/**
 * One minute's retention: motor logs and the admin trail past their months in D1 are moved to
 * the archive (R2, written before D1 lets go), the motor logs D1 still holds moved into their
 * boxes' hubs (move-logs-to-hubs.ts: the past months first to R2, as before, so the hubs take
 * only the recent ones), old alert deliveries deleted. Sessions, their
 * realtime watches and push subscriptions have their own purge (worker/auth/sessions.ts).
 */
export async function runRetention(
  env: Pick<Env, "DB" | "ARCHIVE" | "DEVICE_HUB">,
  now = Date.now(),
): Promise<RetentionRun> {
  const db = getDb(env.DB);
  const logs = await archiveOldMotorLogs(db, env.ARCHIVE, now);
  const moved = await moveLogsToHubs(env);
  const audit = await archiveOldAdminAudit(db, env.ARCHIVE, now);
  const alertDeliveries = await purgeOldAlertDeliveries(db, now);
  return {
    motorLogs: logs.rows,
    motorLogMonths: logs.groups,
    motorLogsMoved: moved.rows,
    boxesMoved: moved.boxes,
    adminAudit: audit.rows,
    alertDeliveries,
  };
}
