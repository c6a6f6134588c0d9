// How alerts reach an account besides the open app: Web Push, and SMS and calls.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { AlertChannel, PhoneAlertKind } from "../../../common/alert-channels.ts";
import type { AlertKind } from "../../../common/alerts.ts";
import { sessions, users } from "./accounts.ts";
import { autoIncrementId, ownedBy, timestamp } from "./columns.ts";

/**
 * A browser that gets alerts with the app closed (Web Push). `endpoint` is the push service's
 * address for that browser, `p256dh` and `auth` its keys (RFC 8291): a browser has one
 * subscription, so the endpoint is unique. Alerts are worded in `language` and sent only for
 * `kinds`, from every pump whose alerts the account may get (common/pump-roles.ts).
 *
 * A subscription belongs to the session that saved it and ends with it: logout and a password
 * change delete it in the same D1 batch that ends the session (worker/auth/), the purge of
 * expired sessions through the foreign key, and nothing is sent to one whose session is no
 * longer live (worker/push/push-alerts.ts). Also deleted when the push service answers 404 or
 * 410 (the browser dropped it). At most MAX_SUBSCRIPTIONS_PER_SESSION per session and
 * MAX_SUBSCRIPTIONS_PER_ACCOUNT per account (worker/db/push-subscriptions.ts).
 */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: autoIncrementId(),
    userId: ownedBy(integer("user_id"), () => users.id),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    language: text("language", { enum: ["hi", "en"] }).notNull(),
    kinds: text("kinds", { mode: "json" }).$type<AlertKind[]>().notNull(),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
    /** The push service's last acceptance of a message for it. */
    lastSentAt: timestamp("last_sent_at"),
  },
  (table) => [
    index("push_subscriptions_user_idx").on(table.userId),
    index("push_subscriptions_session_idx").on(table.sessionId),
  ],
);

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * How each alert kind reaches an account besides the app (common/alert-channels.ts), and the
 * language its SMS and calls speak: what the farmer last saved on /alerts. No row: the
 * defaults, in Hindi.
 */
export const alertSettings = sqliteTable("alert_settings", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  channels: text("channels", { mode: "json" }).$type<Partial<Record<PhoneAlertKind, AlertChannel>>>().notNull(),
  language: text("language", { enum: ["hi", "en"] }).notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

/**
 * What each account's SMS or calls took of its daily cap (DAILY_ALERT_CAPS) on an IST day, across
 * all its pumps: the one thing about an alert's deliveries that no single pump's hub can count.
 * Claimed one at a time in one statement that adds one only while under the cap
 * (worker/db/phone-alert-counts.ts). One row per account, channel and day; the retention cron
 * deletes days before yesterday, so it is bounded by accounts.
 */
export const phoneAlertDays = sqliteTable(
  "phone_alert_days",
  {
    userId: ownedBy(integer("user_id"), () => users.id),
    channel: text("channel", { enum: ["sms", "call"] }).notNull(),
    /** The IST day, 2026-11-23. */
    day: text("day").notNull(),
    sent: integer("sent").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.channel, table.day] }),
    index("phone_alert_days_day_idx").on(table.day),
  ],
);

/**
 * What an account's alerts by SMS and call came to in an IST month, for the admin's cost view:
 * added to when a delivery is sent or capped, and when a call's duration arrives, each once (the
 * pump's hub records the transition first: durable-objects/device-hub/alert-deliveries-table.ts).
 * One row per account and month; kept PHONE_ALERT_MONTHS_KEPT months by the retention cron.
 */
export const phoneAlertMonths = sqliteTable(
  "phone_alert_months",
  {
    userId: ownedBy(integer("user_id"), () => users.id),
    /** The IST month, 2026-11. */
    month: text("month").notNull(),
    sms: integer("sms").notNull().default(0),
    smsParts: integer("sms_parts").notNull().default(0),
    calls: integer("calls").notNull().default(0),
    answeredCalls: integer("answered_calls").notNull().default(0),
    callSeconds: integer("call_seconds").notNull().default(0),
    /** Calls billed by the started minute (Exotel's 60-second pulse). */
    callMinutes: integer("call_minutes").notNull().default(0),
    capped: integer("capped").notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.month] }),
    index("phone_alert_months_month_idx").on(table.month),
  ],
);
