// The counts of the admin dashboard: SPEC §2's four cards (§3 "Dashboard stats") and what an
// admin running the fleet acts on, all from D1 in one round trip. What they count of the boxes'
// motor logs comes from `box_activity`, one row per box that its hub keeps current
// (durable-objects/device-hub/box-activity.ts): bounded by the fleet, never a count over history.
import { and, count, eq, gte, isNotNull, isNull, sql } from "drizzle-orm";
import { THEFT_ALERTS_WINDOW_MS } from "../../common/box-activity.ts";
import type { Db } from "./client.ts";
import { boxActivity, devices, motorLogs, rechargeRequests, users } from "./schema.ts";

const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The last midnight in India (UTC+5:30, no daylight saving) at or before `now`, in ms. */
export function indiaMidnight(now: number): number {
  return Math.floor((now + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
}

/** A plan whose coverage ends within this is "ending soon": time to ask the farmer to recharge. */
export const PLAN_ENDING_SOON_MS = 7 * DAY_MS;

export { THEFT_ALERTS_WINDOW_MS };

export type DashboardStats = {
  totalUsers: number;
  devicesOnline: number;
  totalLogs: number;
  /** Devices with a motor action (ON or OFF, by anyone or any protection) since midnight India time. */
  activeDevices: number;
  /** Boxes linked to an account that the server cannot hear now (a box in stock is not offline). */
  devicesOffline: number;
  /** Boxes in stock: provisioned, linked to nobody. */
  devicesUnlinked: number;
  /** Online boxes whose last phase report is a fault not yet over (an offline box's is not known). */
  phaseFaultsNow: number;
  /** Boxes that tripped (dry run, overcurrent, a voltage limit) since midnight India time. */
  devicesTrippedToday: number;
  /** Theft alerts (a box opened, a cable cut) in the last 7 days, each event once. */
  theftAlertsWeek: number;
  /** Recharge requests waiting for an admin's decision. */
  rechargesPending: number;
  /** Linked boxes whose connectivity (renewals paid for included) ends within 7 days. */
  plansEndingSoon: number;
  /** Linked boxes whose connectivity has ended. */
  plansLapsed: number;
};

/** One D1 batch: every count in one round trip. */
export async function dashboardStats(db: Db, now: number): Promise<DashboardStats> {
  // Each linked box's coverage: the end of its last plan period (none before its first hello).
  const coverage = sql`(SELECT max(ends_at) FROM plan_periods WHERE plan_periods.device_id = ${devices.id})`;
  const midnight = indiaMidnight(now);
  const [
    usersRow,
    onlineRow,
    logsRow,
    activeRow,
    offlineRow,
    unlinkedRow,
    phaseRow,
    trippedRow,
    theftRow,
    rechargeRow,
    plansRow,
  ] = await db.batch([
    db.select({ value: count() }).from(users),
    db.select({ value: count() }).from(devices).where(eq(devices.online, true)),
    // The hubs' counts, and what D1 still holds until the move into the hubs has taken it (then none).
    db
      .select({
        value: sql<number>`coalesce((SELECT sum(${boxActivity.logEntries}) FROM ${boxActivity}), 0)
          + (SELECT count(*) FROM ${motorLogs})`,
      })
      .from(sql`(SELECT 1)`),
    db.select({ value: count() }).from(boxActivity).where(gte(boxActivity.lastSwitchAt, midnight)),
    db
      .select({ value: count() })
      .from(devices)
      .where(and(isNotNull(devices.ownerUserId), eq(devices.online, false))),
    db.select({ value: count() }).from(devices).where(isNull(devices.ownerUserId)),
    db
      .select({ value: count() })
      .from(devices)
      .innerJoin(boxActivity, eq(boxActivity.deviceId, devices.id))
      .where(and(eq(devices.online, true), eq(boxActivity.phaseFault, true))),
    db.select({ value: count() }).from(boxActivity).where(gte(boxActivity.lastTripAt, midnight)),
    db
      .select({ value: count() })
      .from(sql`${boxActivity}, json_each(${boxActivity.theftAlerts}) AS alert`)
      .where(sql`alert.value >= ${now - THEFT_ALERTS_WINDOW_MS}`),
    db.select({ value: count() }).from(rechargeRequests).where(eq(rechargeRequests.status, "pending")),
    db
      .select({
        endingSoon: sql<number>`coalesce(sum(${coverage} > ${now} AND ${coverage} <= ${now + PLAN_ENDING_SOON_MS}), 0)`,
        lapsed: sql<number>`coalesce(sum(${coverage} <= ${now}), 0)`,
      })
      .from(devices)
      .where(isNotNull(devices.ownerUserId)),
  ]);
  return {
    totalUsers: usersRow[0]?.value ?? 0,
    devicesOnline: onlineRow[0]?.value ?? 0,
    totalLogs: Number(logsRow[0]?.value ?? 0),
    activeDevices: activeRow[0]?.value ?? 0,
    devicesOffline: offlineRow[0]?.value ?? 0,
    devicesUnlinked: unlinkedRow[0]?.value ?? 0,
    phaseFaultsNow: phaseRow[0]?.value ?? 0,
    devicesTrippedToday: trippedRow[0]?.value ?? 0,
    theftAlertsWeek: theftRow[0]?.value ?? 0,
    rechargesPending: rechargeRow[0]?.value ?? 0,
    plansEndingSoon: Number(plansRow[0]?.endingSoon ?? 0),
    plansLapsed: Number(plansRow[0]?.lapsed ?? 0),
  };
}
