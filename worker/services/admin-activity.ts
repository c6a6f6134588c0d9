// What the admin area reads of the fleet's activity, for its pages (the same reads as the
// API's GET /api/admin/dashboard-stats, /motor-logs and /audit-trail): the dashboard's counts, the
// motor log of every box, and the trail of admin writes.
import { type AuditFilter, accountNumbers, listAuditEntries } from "../db/admin-audit-trail.ts";
import { listMotorLogsForAdmin } from "../db/admin-motor-logs.ts";
import { type DashboardStats, dashboardStats } from "../db/admin-stats.ts";
import { getDb } from "../db/client.ts";
import { readsThatMayLag } from "../db/reads-that-may-lag.ts";

export type { DashboardStats };

/** The dashboard's counts, as of now. */
export function fleetStats(env: Env): Promise<DashboardStats> {
  return dashboardStats(getDb(readsThatMayLag(env)), Date.now());
}

/** One page of every box's motor log, newest first. */
export function fleetMotorLogs(env: Env, page: number, pageSize: number) {
  return listMotorLogsForAdmin(getDb(readsThatMayLag(env)), page, pageSize);
}

/** One page of the admin audit trail, newest first, of one admin or about one target if asked. */
export function auditTrailPage(env: Env, filter: AuditFilter, page: number, pageSize: number) {
  return listAuditEntries(getDb(readsThatMayLag(env)), filter, page, pageSize);
}

/** The mobile numbers of the accounts a page of the trail names (`user:12`), by account id. */
export function auditAccountNumbers(env: Env, ids: readonly number[]): Promise<Map<number, string>> {
  return accountNumbers(getDb(env.DB), ids);
}
