// What alerts by SMS and call add up to across an account's pumps, in D1 (docs/telephony.md,
// "Alerts by SMS and call" and "Costs"): each delivery itself is kept in its pump's hub
// (durable-objects/device-hub/alert-deliveries-table.ts). Both tables are bounded by accounts:
// `phone_alert_days` holds today and yesterday, `phone_alert_months` PHONE_ALERT_MONTHS_KEPT
// months (worker/retention/retention.ts).
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { DAILY_ALERT_CAPS } from "../../common/alert-channels.ts";
import { istDay, istDayBefore } from "../../common/pump-usage.ts";
import type { Db } from "./client.ts";
import { phoneAlertDays, phoneAlertMonths, users } from "./schema.ts";

/** The IST month an instant falls in, as "2026-11". */
export function istMonth(at: number): string {
  return istDay(at).slice(0, 7);
}

/**
 * Takes one of the account's SMS or calls of today (IST), in one statement: adds one to the
 * day's count only while it is under DAILY_ALERT_CAPS, so alerts from two pumps at once cannot
 * both take the last one. False when the day's are used up.
 */
export async function claimDailyAlert(
  db: Db,
  userId: number,
  channel: "sms" | "call",
  now = Date.now(),
): Promise<boolean> {
  const cap = DAILY_ALERT_CAPS[channel];
  const rows = await db.all<{ sent: number }>(sql`
    INSERT INTO phone_alert_days (user_id, channel, day, sent) VALUES (${userId}, ${channel}, ${istDay(now)}, 1)
    ON CONFLICT (user_id, channel, day) DO UPDATE SET sent = sent + 1 WHERE sent < ${cap}
    RETURNING sent`);
  return rows.length > 0;
}

/** An account's SMS and calls today (IST), what was not sent past the cap left out: what the caps count. */
export async function phoneAlertsToday(
  db: Db,
  userId: number,
  now = Date.now(),
): Promise<{ sms: number; call: number }> {
  const rows = await db
    .select({ channel: phoneAlertDays.channel, sent: phoneAlertDays.sent })
    .from(phoneAlertDays)
    .where(and(eq(phoneAlertDays.userId, userId), eq(phoneAlertDays.day, istDay(now))));
  const count = (channel: "sms" | "call") => rows.find((row) => row.channel === channel)?.sent ?? 0;
  return { sms: count("sms"), call: count("call") };
}

/** What an account's month counts of its SMS and calls. */
type MonthTotals = {
  sms: number;
  smsParts: number;
  calls: number;
  answeredCalls: number;
  callSeconds: number;
  /** Calls billed by the started minute (Exotel's 60-second pulse). */
  callMinutes: number;
  capped: number;
};

/** What one change adds to an account's month. */
export type MonthCounts = Partial<MonthTotals>;

/** Adds `counts` to the account's month (the IST month of `at`, when the delivery was claimed), in one statement. */
export async function countMonth(db: Db, userId: number, at: number, counts: MonthCounts): Promise<void> {
  const values = {
    sms: counts.sms ?? 0,
    smsParts: counts.smsParts ?? 0,
    calls: counts.calls ?? 0,
    answeredCalls: counts.answeredCalls ?? 0,
    callSeconds: counts.callSeconds ?? 0,
    callMinutes: counts.callMinutes ?? 0,
    capped: counts.capped ?? 0,
  };
  const add = (column: keyof typeof values) => sql`${phoneAlertMonths[column]} + ${values[column]}`;
  await db
    .insert(phoneAlertMonths)
    .values({ userId, month: istMonth(at), ...values })
    .onConflictDoUpdate({
      target: [phoneAlertMonths.userId, phoneAlertMonths.month],
      set: {
        sms: add("sms"),
        smsParts: add("smsParts"),
        calls: add("calls"),
        answeredCalls: add("answeredCalls"),
        callSeconds: add("callSeconds"),
        callMinutes: add("callMinutes"),
        capped: add("capped"),
      },
    });
}

/** What an answered call of `seconds` adds to its month: billed by the started minute. */
export function callDurationCounts(seconds: number): MonthCounts {
  return seconds > 0
    ? { answeredCalls: 1, callSeconds: seconds, callMinutes: Math.ceil(seconds / 60) }
    : { callSeconds: 0 };
}

/** One account's SMS and calls in a month, as the admin's cost view adds them up. */
export type MonthUsageRow = { userId: number; mobileNo: string } & MonthTotals;

/** Every account that had an alert by SMS or call in `month`, most SMS parts and call minutes first. */
export async function monthUsage(db: Db, month: string): Promise<MonthUsageRow[]> {
  return db
    .select({
      userId: users.id,
      mobileNo: users.mobileNo,
      sms: phoneAlertMonths.sms,
      smsParts: phoneAlertMonths.smsParts,
      calls: phoneAlertMonths.calls,
      answeredCalls: phoneAlertMonths.answeredCalls,
      callSeconds: phoneAlertMonths.callSeconds,
      callMinutes: phoneAlertMonths.callMinutes,
      capped: phoneAlertMonths.capped,
    })
    .from(phoneAlertMonths)
    .innerJoin(users, eq(users.id, phoneAlertMonths.userId))
    .where(eq(phoneAlertMonths.month, month))
    .orderBy(desc(phoneAlertMonths.smsParts), desc(phoneAlertMonths.callMinutes), users.id);
}

/** Months of costs kept: a year, beside the same month a year before. */
export const PHONE_ALERT_MONTHS_KEPT = 13;

/** The first IST month still kept at `now`. */
export function firstMonthKept(now: number): string {
  const [year, month] = istMonth(now).split("-").map(Number) as [number, number];
  const index = year * 12 + (month - 1) - (PHONE_ALERT_MONTHS_KEPT - 1);
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/**
 * Deletes at most `limit` day counts before yesterday (IST; yesterday stays for the hour an
 * alarm may run late) and at most `limit` months before the kept ones. Safe to repeat and to cut short.
 */
export async function purgeOldPhoneAlertCounts(
  db: Db,
  now: number,
  limit: number,
): Promise<{ days: number; months: number }> {
  const oldDays = db
    .select({ rowid: sql`rowid` })
    .from(phoneAlertDays)
    .where(lt(phoneAlertDays.day, istDayBefore(now, 1)))
    .limit(limit);
  const days = await db
    .delete(phoneAlertDays)
    .where(inArray(sql`rowid`, oldDays))
    .returning({ userId: phoneAlertDays.userId });
  const oldMonths = db
    .select({ rowid: sql`rowid` })
    .from(phoneAlertMonths)
    .where(lt(phoneAlertMonths.month, firstMonthKept(now)))
    .limit(limit);
  const months = await db
    .delete(phoneAlertMonths)
    .where(inArray(sql`rowid`, oldMonths))
    .returning({ userId: phoneAlertMonths.userId });
  return { days: days.length, months: months.length };
}
