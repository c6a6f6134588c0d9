// The four counts of the admin dashboard (SPEC §2, §3 "Dashboard stats").
import { and, count, countDistinct, eq, gte, inArray } from "drizzle-orm";
import type { Db } from "./client.ts";
import { devices, motorLogs, users } from "./schema.ts";

const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The last midnight in India (UTC+5:30, no daylight saving) at or before `now`, in ms. */
export function indiaMidnight(now: number): number {
  return Math.floor((now + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
}

export type DashboardStats = {
  totalUsers: number;
  devicesOnline: number;
  totalLogs: number;
  /** Devices with a motor action (ON or OFF, by anyone or any protection) since midnight India time. */
  activeDevices: number;
};

/** One D1 batch: four indexed counts in one round trip. */
export async function dashboardStats(db: Db, now: number): Promise<DashboardStats> {
  const [usersRow, onlineRow, logsRow, activeRow] = await db.batch([
    db.select({ value: count() }).from(users),
    db.select({ value: count() }).from(devices).where(eq(devices.online, true)),
    db.select({ value: count() }).from(motorLogs),
    db
      .select({ value: countDistinct(motorLogs.deviceId) })
      .from(motorLogs)
      .where(and(gte(motorLogs.createdAt, indiaMidnight(now)), inArray(motorLogs.action, ["on", "off"]))),
  ]);
  return {
    totalUsers: usersRow[0]?.value ?? 0,
    devicesOnline: onlineRow[0]?.value ?? 0,
    totalLogs: logsRow[0]?.value ?? 0,
    activeDevices: activeRow[0]?.value ?? 0,
  };
}
