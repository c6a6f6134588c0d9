// Alerts by SMS and call in D1 (`alert_settings`, `alert_deliveries`): who gets a pump's alert by
// phone and how, each SMS and call claimed once per event, account and channel within the daily
// caps, what became of it, and what the month cost (docs/telephony.md, "Alerts by SMS and call").
import { and, asc, eq, gte, lt, ne, sql } from "drizzle-orm";
import {
  ALERT_REPEAT_WINDOW_MS,
  type AlertChannels,
  alertChannelsOf,
  DAILY_ALERT_CAPS,
  type DeliveryKind,
  type PhoneAlertValues,
} from "../../common/alert-channels.ts";
import { istDay, istDayStart } from "../../common/pump-usage.ts";
import type { TelephonyProviderName } from "../../common/telephony-events.ts";
import { alertRecipientIds } from "./alert-recipients.ts";
import type { Db } from "./client.ts";
import {
  type AlertDeliveryRow,
  type AlertDeliveryStatus,
  alertDeliveries,
  alertSettings,
  devices,
  users,
} from "./schema.ts";

export type PhoneLanguage = "hi" | "en";

/** An account's choices: each kind's channel over the defaults, and the language of its SMS and calls. */
export type AlertSettings = { channels: AlertChannels; language: PhoneLanguage };

export async function alertSettingsOf(db: Db, userId: number): Promise<AlertSettings> {
  const row = await db.query.alertSettings.findFirst({ where: eq(alertSettings.userId, userId) });
  return { channels: alertChannelsOf(row?.channels), language: row?.language ?? "hi" };
}

/** Saves every kind's channel (a kind not given keeps what it had) and the language, in one statement. */
export async function saveAlertSettings(
  db: Db,
  userId: number,
  changes: { channels: Partial<AlertChannels>; language: PhoneLanguage },
  now = Date.now(),
): Promise<AlertSettings> {
  const current = await alertSettingsOf(db, userId);
  const channels = { ...current.channels, ...changes.channels };
  await db
    .insert(alertSettings)
    .values({ userId, channels, language: changes.language, updatedAt: now })
    .onConflictDoUpdate({
      target: alertSettings.userId,
      set: { channels, language: changes.language, updatedAt: now },
    });
  return { channels, language: changes.language };
}

/** Someone who gets a pump's alerts, with what a phone alert needs to reach them. */
export type PhoneRecipient = {
  userId: number;
  mobileNo: string;
  verified: boolean;
  settings: AlertSettings;
  pumpName: string;
};

/** The pump's alert recipients (alert-recipients.ts) with their numbers and choices, in one query. */
export async function phoneRecipientsOf(db: Db, deviceId: string): Promise<PhoneRecipient[]> {
  const people = alertRecipientIds(deviceId);
  if (people === null) return [];
  const rows = await db
    .select({
      userId: users.id,
      mobileNo: users.mobileNo,
      verifiedAt: users.numberVerifiedAt,
      channels: alertSettings.channels,
      language: alertSettings.language,
      deviceId: devices.id,
      name: devices.name,
    })
    .from(users)
    .innerJoin(devices, eq(devices.id, deviceId))
    .leftJoin(alertSettings, eq(alertSettings.userId, users.id))
    .where(sql`${users.id} IN (${people})`)
    .orderBy(asc(users.id));
  return rows.map((row) => ({
    userId: row.userId,
    mobileNo: row.mobileNo,
    verified: row.verifiedAt !== null,
    settings: { channels: alertChannelsOf(row.channels), language: row.language ?? "hi" },
    // The owner's name for the pump, or the box's id printed on it.
    pumpName: row.name ?? row.deviceId,
  }));
}

export type DeliveryClaim = {
  eventId: string;
  userId: number;
  deviceId: string;
  kind: DeliveryKind;
  channel: "sms" | "call";
  reason: "chosen" | "callFallback";
  language: PhoneLanguage;
  values: PhoneAlertValues;
};

/**
 * Claims one SMS or call, in one statement (D1 runs one at a time): null when this event already
 * has one for this account and channel (an event sent twice), or one reached them about the same
 * pump and kind within ALERT_REPEAT_WINDOW_MS (a call nobody answered did not: the next event
 * calls again); else the row, `capped` when the account already had its day's SMS or calls (the
 * row is the log of what was not sent), `sending` otherwise.
 */
export async function claimDelivery(
  db: Db,
  claim: DeliveryClaim,
  now = Date.now(),
): Promise<{ id: number; status: "sending" | "capped" } | null> {
  const { eventId, userId, deviceId, kind, channel, reason, language, values } = claim;
  const dayStart = istDayStart(istDay(now));
  const cap = DAILY_ALERT_CAPS[channel];
  const rows = await db.all<{ id: number; status: "sending" | "capped" }>(sql`
    INSERT INTO alert_deliveries (event_id, user_id, device_id, kind, channel, reason, language, "values", status, created_at, updated_at)
    SELECT ${eventId}, ${userId}, ${deviceId}, ${kind}, ${channel}, ${reason}, ${language}, ${JSON.stringify(values)},
      CASE WHEN (
        SELECT count(*) FROM alert_deliveries
        WHERE user_id = ${userId} AND channel = ${channel} AND created_at >= ${dayStart} AND status != 'capped'
      ) >= ${cap} THEN 'capped' ELSE 'sending' END,
      ${now}, ${now}
    WHERE NOT EXISTS (
      SELECT 1 FROM alert_deliveries
      WHERE user_id = ${userId} AND device_id = ${deviceId} AND kind = ${kind} AND channel = ${channel}
        AND created_at > ${now - ALERT_REPEAT_WINDOW_MS}
        AND status NOT IN ('capped', 'refused', 'noAnswer', 'busy', 'failed', 'canceled')
    )
    ON CONFLICT DO NOTHING
    RETURNING id, status`);
  return rows[0] ?? null;
}

/** What the provider said when it took (or refused) a claimed SMS or call. */
export async function recordDeliverySent(
  db: Db,
  id: number,
  sent:
    | { provider: TelephonyProviderName; providerId: string; status: AlertDeliveryStatus; segments: number | null }
    | { status: "refused" },
  now = Date.now(),
): Promise<void> {
  await db
    .update(alertDeliveries)
    .set({ ...sent, updatedAt: now })
    .where(eq(alertDeliveries.id, id));
}

/** The SMS or call a provider's webhook is about, by the provider's id for it. */
export async function findDeliveryByProviderId(
  db: Db,
  provider: TelephonyProviderName,
  providerId: string,
): Promise<AlertDeliveryRow | undefined> {
  return db.query.alertDeliveries.findFirst({
    where: and(eq(alertDeliveries.provider, provider), eq(alertDeliveries.providerId, providerId)),
  });
}

/** Whether the account's number was proved with a code (users.number_verified_at). */
export async function isNumberVerified(db: Db, userId: number): Promise<boolean> {
  const row = await db.query.users.findFirst({ columns: { numberVerifiedAt: true }, where: eq(users.id, userId) });
  return row?.numberVerifiedAt != null;
}

/** The account an SMS or call went to, as it is now. */
export async function accountOf(db: Db, userId: number): Promise<{ id: number; mobileNo: string } | undefined> {
  return db.query.users.findFirst({ columns: { id: true, mobileNo: true }, where: eq(users.id, userId) });
}

/** The accounts an alert's SMS or call went to (not one over the cap, nor one the provider refused). */
export async function reachedBy(db: Db, eventId: string): Promise<number[]> {
  const rows = await db
    .selectDistinct({ userId: alertDeliveries.userId })
    .from(alertDeliveries)
    .where(
      and(
        eq(alertDeliveries.eventId, eventId),
        ne(alertDeliveries.status, "capped"),
        ne(alertDeliveries.status, "refused"),
      ),
    );
  return rows.map((row) => row.userId);
}

export async function findDelivery(db: Db, id: number): Promise<AlertDeliveryRow | undefined> {
  return db.query.alertDeliveries.findFirst({ where: eq(alertDeliveries.id, id) });
}

/** A provider's later word on an SMS or call: its status and, for a call that ended, how long it lasted. */
export async function recordDeliveryStatus(
  db: Db,
  id: number,
  status: AlertDeliveryStatus,
  durationSeconds: number | null,
  now = Date.now(),
): Promise<void> {
  await db
    .update(alertDeliveries)
    .set({ status, updatedAt: now, ...(durationSeconds === null ? {} : { durationSeconds }) })
    .where(eq(alertDeliveries.id, id));
}

/** What the stop key did on a call, once; false when an outcome was already recorded. */
export async function recordCallOutcome(db: Db, id: number, outcome: string, now = Date.now()): Promise<boolean> {
  const rows = await db
    .update(alertDeliveries)
    .set({ outcome, updatedAt: now })
    .where(and(eq(alertDeliveries.id, id), sql`${alertDeliveries.outcome} IS NULL`))
    .returning({ id: alertDeliveries.id });
  return rows.length > 0;
}

/** An account's SMS and calls today (IST), what was not sent past the cap left out: what the caps count. */
export async function phoneAlertsToday(
  db: Db,
  userId: number,
  now = Date.now(),
): Promise<{ sms: number; call: number }> {
  const rows = await db
    .select({ channel: alertDeliveries.channel, count: sql<number>`count(*)` })
    .from(alertDeliveries)
    .where(
      and(
        eq(alertDeliveries.userId, userId),
        gte(alertDeliveries.createdAt, istDayStart(istDay(now))),
        ne(alertDeliveries.status, "capped"),
      ),
    )
    .groupBy(alertDeliveries.channel);
  const count = (channel: "sms" | "call") => rows.find((row) => row.channel === channel)?.count ?? 0;
  return { sms: count("sms"), call: count("call") };
}

/** One account's SMS and calls in a month, as the admin's cost view adds them up. */
export type MonthUsageRow = {
  userId: number;
  mobileNo: string;
  sms: number;
  smsParts: number;
  calls: number;
  answeredCalls: number;
  callSeconds: number;
  /** Calls billed by the started minute (Exotel's 60-second pulse). */
  callMinutes: number;
  capped: number;
};

/** The IST month `month` ("2026-11"): when it begins and when the next one does. */
export function istMonthBounds(month: string): { from: number; to: number } {
  const [year, monthNo] = month.split("-").map(Number) as [number, number];
  const next = monthNo === 12 ? `${year + 1}-01` : `${year}-${String(monthNo + 1).padStart(2, "0")}`;
  return { from: istDayStart(`${month}-01`), to: istDayStart(`${next}-01`) };
}

/** Every account that had an alert by SMS or call in `month`, most SMS parts and call minutes first. */
export async function monthUsage(db: Db, month: string): Promise<MonthUsageRow[]> {
  const { from, to } = istMonthBounds(month);
  const sent = sql`${alertDeliveries.status} NOT IN ('capped', 'refused')`;
  const isSms = sql`${alertDeliveries.channel} = 'sms'`;
  const isCall = sql`${alertDeliveries.channel} = 'call'`;
  const seconds = sql`coalesce(${alertDeliveries.durationSeconds}, 0)`;
  const rows = await db
    .select({
      userId: users.id,
      mobileNo: users.mobileNo,
      sms: sql<number>`sum(CASE WHEN ${isSms} AND ${sent} THEN 1 ELSE 0 END)`,
      smsParts: sql<number>`sum(CASE WHEN ${isSms} AND ${sent} THEN coalesce(${alertDeliveries.segments}, 0) ELSE 0 END)`,
      calls: sql<number>`sum(CASE WHEN ${isCall} AND ${sent} THEN 1 ELSE 0 END)`,
      answeredCalls: sql<number>`sum(CASE WHEN ${isCall} AND ${seconds} > 0 THEN 1 ELSE 0 END)`,
      callSeconds: sql<number>`sum(CASE WHEN ${isCall} THEN ${seconds} ELSE 0 END)`,
      callMinutes: sql<number>`sum(CASE WHEN ${isCall} THEN (${seconds} + 59) / 60 ELSE 0 END)`,
      capped: sql<number>`sum(CASE WHEN ${alertDeliveries.status} = 'capped' THEN 1 ELSE 0 END)`,
    })
    .from(alertDeliveries)
    .innerJoin(users, eq(users.id, alertDeliveries.userId))
    .where(and(gte(alertDeliveries.createdAt, from), lt(alertDeliveries.createdAt, to)))
    .groupBy(users.id);
  const usage = rows.map((row) => ({
    ...row,
    sms: Number(row.sms),
    smsParts: Number(row.smsParts),
    calls: Number(row.calls),
    answeredCalls: Number(row.answeredCalls),
    callSeconds: Number(row.callSeconds),
    callMinutes: Number(row.callMinutes),
    capped: Number(row.capped),
  }));
  return usage.sort((a, b) => b.smsParts - a.smsParts || b.callMinutes - a.callMinutes || a.userId - b.userId);
}
