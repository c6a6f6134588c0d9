// How alerts reach an account besides the open app: Web Push, and SMS and calls.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
  type AlertChannel,
  DELIVERY_KINDS,
  type PhoneAlertKind,
  type PhoneAlertValues,
} from "../../../common/alert-channels.ts";
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

/** Where an alert's SMS or call is: ours (`sending`, `capped`, `refused`) or the provider's last word. */
export const ALERT_DELIVERY_STATUSES = [
  "sending",
  "capped",
  "refused",
  "queued",
  "sent",
  "delivered",
  "undelivered",
  "failed",
  "ringing",
  "answered",
  "completed",
  "busy",
  "noAnswer",
  "canceled",
] as const;
export type AlertDeliveryStatus = (typeof ALERT_DELIVERY_STATUSES)[number];

/**
 * Every SMS and call an alert made, or would have made past the daily cap
 * (worker/alerts/phone-alerts.ts): one per event, account and channel (the unique index), so an
 * event sent twice sends once. `reason`: the account chose it, or it is the SMS in place of a
 * call that nobody answered, that could not be placed or that was over the cap. `values`: what
 * filled the SMS and the call (the pump's name, a time). The caps count these rows, the admin's costs
 * add up their SMS parts and call seconds, and a key pressed on a call finds its account and
 * pump here by the provider's call id.
 */
export const alertDeliveries = sqliteTable(
  "alert_deliveries",
  {
    id: autoIncrementId(),
    eventId: text("event_id").notNull(),
    userId: ownedBy(integer("user_id"), () => users.id),
    /** No foreign key: what an alert cost outlives a box given back. */
    deviceId: text("device_id").notNull(),
    kind: text("kind", { enum: DELIVERY_KINDS }).notNull(),
    channel: text("channel", { enum: ["sms", "call"] }).notNull(),
    reason: text("reason", { enum: ["chosen", "callFallback"] }).notNull(),
    language: text("language", { enum: ["hi", "en"] }).notNull(),
    values: text("values", { mode: "json" }).$type<PhoneAlertValues>().notNull(),
    status: text("status", { enum: ALERT_DELIVERY_STATUSES }).notNull(),
    provider: text("provider", { enum: ["twilio", "exotel"] }),
    /** The provider's message or call id, once it took it. */
    providerId: text("provider_id"),
    /** The SMS parts it was billed as (sms-segments.ts). */
    segments: integer("segments"),
    /** How long an answered call lasted, from its final status. */
    durationSeconds: integer("duration_seconds"),
    /** What the stop key did on this call (a MotorCommandResult's code), once pressed. */
    outcome: text("outcome"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (table) => [
    uniqueIndex("alert_deliveries_event_idx").on(table.eventId, table.userId, table.channel),
    index("alert_deliveries_user_idx").on(table.userId, table.channel, table.createdAt),
    index("alert_deliveries_provider_idx").on(table.provider, table.providerId),
    index("alert_deliveries_created_idx").on(table.createdAt),
  ],
);

export type AlertDeliveryRow = typeof alertDeliveries.$inferSelect;
