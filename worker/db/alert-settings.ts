// Alerts by SMS and call in D1 (`alert_settings`): who gets a pump's alert by phone, how and in
// which language (docs/telephony.md, "Alerts by SMS and call"). Each SMS and call itself is kept
// in its pump's hub, the counts across pumps in phone-alert-counts.ts.
import { asc, eq, sql } from "drizzle-orm";
import { type AlertChannels, alertChannelsOf } from "../../common/alert-channels.ts";
import { alertRecipientIds } from "./alert-recipients.ts";
import type { Db } from "./client.ts";
import { alertSettings, devices, users } from "./schema.ts";

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

/** Whether the account's number was proved with a code (users.number_verified_at). */
export async function isNumberVerified(db: Db, userId: number): Promise<boolean> {
  const row = await db.query.users.findFirst({ columns: { numberVerifiedAt: true }, where: eq(users.id, userId) });
  return row?.numberVerifiedAt != null;
}

/** The account an SMS or call went to, as it is now. */
export async function accountOf(db: Db, userId: number): Promise<{ id: number; mobileNo: string } | undefined> {
  return db.query.users.findFirst({ columns: { id: true, mobileNo: true }, where: eq(users.id, userId) });
}
