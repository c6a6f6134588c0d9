// D1 tables (drizzle). Migrations in ../../migrations are generated from this file with
// `npm run db:generate`; never edit a migration that has been applied anywhere.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
  type AlertChannel,
  PHONE_ALERT_KINDS,
  type PhoneAlertKind,
  type PhoneAlertValues,
} from "../../common/alert-channels.ts";
import type { AlertKind } from "../../common/alerts.ts";

/** Milliseconds since the epoch; every timestamp in D1 is one of these. */
const timestamp = (name: string) => integer(name, { mode: "number" });

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  mobileNo: text("mobile_no").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
  createdAt: timestamp("created_at").notNull(),
  lastLogin: timestamp("last_login"),
  /**
   * When the holder of the number proved it with a code sent there by SMS; null until then.
   * Only a verified number is trusted: it may be invited to a pump and gets alerts by SMS and
   * call (docs/telephony.md). Accounts from before verification existed start unverified.
   */
  numberVerifiedAt: timestamp("number_verified_at"),
});

/** One row per login; a token is only valid while its session row is neither revoked nor expired. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    audience: text("audience", { enum: ["user", "admin"] }).notNull(),
    createdAt: timestamp("created_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    revokedAt: timestamp("revoked_at"),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

/**
 * Which DeviceHubs a session's realtime sockets were opened on, so that whatever ends the
 * session (logout, a lost role, a deleted account) can close them there. No foreign keys on
 * purpose: the rows must still be readable just after an account's deletion. A row is deleted
 * when it is used, and pruned once its session has expired.
 */
export const realtimeWatches = sqliteTable(
  "realtime_watches",
  {
    sessionId: text("session_id").notNull(),
    deviceId: text("device_id").notNull(),
    userId: integer("user_id").notNull(),
    audience: text("audience", { enum: ["user", "admin"] }).notNull(),
    expiresAt: timestamp("expires_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.sessionId, table.deviceId] }),
    index("realtime_watches_user_idx").on(table.userId),
  ],
);

/**
 * A controller box. `id` is printed on the box and addresses its DeviceHub; it never changes,
 * unlike the owner's mobile number. An account may own several; the oldest is its first box,
 * the one SPEC §7's routes keyed by mobile number act on (docs/decisions/018-shared-pumps.md).
 */
export const devices = sqliteTable(
  "devices",
  {
    id: text("id").primaryKey(),
    ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "set null" }),
    kind: text("kind", { enum: ["1phase", "3phase"] }).notNull(),
    keyHash: text("key_hash").notNull(),
    /** The owner's name for the box ("कुएँ वाला पंप"); null until they give one. */
    name: text("name"),
    /** The protection settings of this box's motor (SPEC §3's motor config, one per motor). */
    defaultCurrent: real("default_current").notNull().default(1),
    dryRunThreshold: real("dry_run_threshold").notNull().default(30),
    overCurrentThreshold: real("over_current_threshold").notNull().default(30),
    /** Voltage limits in V and %; null: the box's kind's default (common/protection.ts, decision 019). */
    underVoltage: real("under_voltage"),
    overVoltage: real("over_voltage"),
    voltageUnbalance: real("voltage_unbalance"),
    /** Which firmware build the box runs: Wi-Fi or SIM (from its hello). */
    connection: text("connection", { enum: ["wifi", "sim"] }),
    signal: integer("signal"),
    imei: text("imei"),
    sim: text("sim"),
    chipId: text("chip_id"),
    firmware: text("firmware"),
    online: integer("online", { mode: "boolean" }).notNull().default(false),
    lastSeenAt: timestamp("last_seen_at"),
    /**
     * When the box was linked to its current owner; null: when it was made (provisioned for
     * them). An account's first box is the one linked longest, so assigning an older spare
     * never moves SPEC §7's routes to another pump.
     */
    linkedAt: timestamp("linked_at"),
    /** When the box first said hello: its free connectivity year starts here. */
    activatedAt: timestamp("activated_at"),
    /**
     * Whether a missed call to the start number switches this pump ON (its owner turns it on;
     * a missed call to the stop number always stops it): docs/decisions/028-switching-by-phone.md.
     */
    startByMissedCall: integer("start_by_missed_call", { mode: "boolean" }).notNull().default(false),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("devices_owner_idx").on(table.ownerUserId, table.createdAt)],
);

/**
 * The people besides its owner who may use a box, one row per number (docs/decisions/018).
 * Kept by number, not by account, so that a number invited before it registers finds the
 * invitation waiting; deleting an account deletes the rows of its number. A row is an
 * invitation until the number's account accepts it (`accepted_at`): only accepted rows give
 * any access. `label` is the owner's name for that person, which the motor log shows ("राम").
 */
export const deviceMembers = sqliteTable(
  "device_members",
  {
    deviceId: text("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    mobileNo: text("mobile_no").notNull(),
    role: text("role", { enum: ["operator", "viewer"] }).notNull(),
    label: text("label").notNull(),
    invitedByUserId: integer("invited_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at").notNull(),
    /** When the invited number's account said yes; null: still an invitation, which lets it do nothing. */
    acceptedAt: timestamp("accepted_at"),
  },
  (table) => [
    primaryKey({ columns: [table.deviceId, table.mobileNo] }),
    index("device_members_mobile_idx").on(table.mobileNo),
  ],
);

/**
 * Boxes whose DeviceHub must reload who may use them (owner, members) from D1. Every change of
 * access writes its box's row in the same D1 batch as the change; the row is deleted once the
 * hub confirms it reloaded, and the cron trigger retries what is left
 * (worker/services/hub-notices.ts). `version` grows with every new notice for the box, so a
 * delivery deletes only the notice it delivered, never one that arrived while it was under way.
 * No foreign key, as for realtime_watches: a notice must outlive whatever the change deleted.
 */
export const hubNotices = sqliteTable("hub_notices", {
  deviceId: text("device_id").primaryKey(),
  askedAt: timestamp("asked_at").notNull(),
  version: integer("version").notNull().default(1),
});

/**
 * A device's connectivity, period by period: the free first year from activation, then one
 * period per paid recharge, each starting when the previous one ends (or now, if it lapsed).
 */
export const planPeriods = sqliteTable(
  "plan_periods",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deviceId: text("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    plan: text("plan", { enum: ["free", "1month", "3month", "6month", "1year"] }).notNull(),
    amount: integer("amount").notNull(),
    startsAt: timestamp("starts_at").notNull(),
    endsAt: timestamp("ends_at").notNull(),
    /** The paid request that bought this period; unique, so a request never extends twice. */
    rechargeRequestId: integer("recharge_request_id")
      .unique()
      .references(() => rechargeRequests.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("plan_periods_device_idx").on(table.deviceId, table.endsAt)],
);

/**
 * Every motor action and protection event. `mobileNo` is the owner's number when it happened,
 * kept so the admin log still reads right after a number change or account deletion.
 */
export const motorLogs = sqliteTable(
  "motor_logs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deviceId: text("device_id").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    mobileNo: text("mobile_no"),
    action: text("action", { enum: ["on", "off", "other"] }).notNull(),
    /** What happened, as a code (common/motor-log-event.ts); pages word it (docs/motor-log.md). */
    kind: text("kind").notNull().default("legacy"),
    /** The kind's parameters, as JSON. */
    params: text("params").notNull().default("{}"),
    /** The entry in English when it was written, for people reading this table; the app never reads it back. */
    message: text("message").notNull(),
    createdAt: timestamp("created_at").notNull(),
    /** `<deviceId>:<outbox id>`: lets the hub retry a write to D1 without ever doubling a log. */
    hubRef: text("hub_ref").unique(),
  },
  (table) => [
    index("motor_logs_device_created_idx").on(table.deviceId, table.createdAt),
    index("motor_logs_created_idx").on(table.createdAt),
  ],
);

/**
 * The motor settings an admin set for an account that has no box yet (an installer sets the
 * motor's current before the box is fitted): SPEC §7's three numbers, kept for the account's
 * first box. The statements that give the account that box (provisioning, a link from stock:
 * common/first-box-sql.ts) copy them onto it and delete this row in the same batch. No voltage
 * limits: they depend on the box's kind.
 */
export const firstBoxSettings = sqliteTable("first_box_settings", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  defaultCurrent: real("default_current").notNull(),
  dryRunThreshold: real("dry_run_threshold").notNull(),
  overCurrentThreshold: real("over_current_threshold").notNull(),
  changedByUserId: integer("changed_by_user_id").references(() => users.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at").notNull(),
});

export const motorConfigHistory = sqliteTable(
  "motor_config_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * The box whose settings changed; null for entries written before boxes had their own, and
     * for settings kept for an account's first box before it had one (first_box_settings).
     */
    deviceId: text("device_id"),
    defaultCurrent: real("default_current").notNull(),
    dryRunThreshold: real("dry_run_threshold").notNull(),
    overCurrentThreshold: real("over_current_threshold").notNull(),
    /** The voltage limits the change left in force; null in entries from before they existed. */
    underVoltage: real("under_voltage"),
    overVoltage: real("over_voltage"),
    voltageUnbalance: real("voltage_unbalance"),
    changeNote: text("change_note").notNull(),
    changedByUserId: integer("changed_by_user_id").references(() => users.id, {
      onDelete: "set null",
    }),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [
    index("motor_config_history_user_idx").on(table.userId, table.createdAt),
    index("motor_config_history_device_idx").on(table.deviceId, table.createdAt),
  ],
);

export const rechargeRequests = sqliteTable(
  "recharge_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    deviceId: text("device_id"),
    mobileNo: text("mobile_no").notNull(),
    plan: text("plan", { enum: ["1month", "3month", "6month", "1year"] }).notNull(),
    amount: integer("amount").notNull(),
    paymentMethod: text("payment_method", { enum: ["upi", "bank", "cash"] }).notNull(),
    status: text("status", { enum: ["pending", "paid", "failed"] })
      .notNull()
      .default(sql`'pending'`),
    requestedAt: timestamp("requested_at").notNull(),
    decidedAt: timestamp("decided_at"),
    decidedByUserId: integer("decided_by_user_id").references(() => users.id, {
      onDelete: "set null",
    }),
  },
  (table) => [
    index("recharge_requests_status_idx").on(table.status, table.requestedAt),
    index("recharge_requests_user_idx").on(table.userId),
    // One request waiting per device: a second would only pile up unpaid rows for an admin.
    // The insert checks first (worker/db/recharges.ts); this is the backstop.
    uniqueIndex("recharge_requests_one_pending_idx").on(table.deviceId).where(sql`status = 'pending'`),
  ],
);

/**
 * Firmware builds, one file per device type and version. The file itself is in R2 under
 * `r2Key`; devices download it from /api/device/firmware/{id} and check `sha256`.
 */
export const firmwareImages = sqliteTable(
  "firmware_images",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deviceType: text("device_type", { enum: ["wifi", "sim"] }).notNull(),
    version: text("version").notNull(),
    sha256: text("sha256").notNull(),
    size: integer("size").notNull(),
    r2Key: text("r2_key").notNull(),
    uploadedByUserId: integer("uploaded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    uploadedAt: timestamp("uploaded_at").notNull(),
  },
  (table) => [uniqueIndex("firmware_images_type_version_idx").on(table.deviceType, table.version)],
);

/**
 * One row per admin write (docs/decisions/007-admin-audit-trail.md): who, what, on what, with
 * which outcome. Append-only. No foreign keys on purpose: deleting an account must neither
 * delete nor rewrite the record of what that admin did (AUTOINCREMENT never reuses an id, so
 * `adminUserId` keeps naming the same account), and `adminMobileNo` is the number at the time.
 */
export const adminAudit = sqliteTable(
  "admin_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    createdAt: timestamp("created_at").notNull(),
    /** Null for a failed admin login: nobody was authenticated. */
    adminUserId: integer("admin_user_id"),
    adminMobileNo: text("admin_mobile_no"),
    /** The route pattern (`PUT /api/admin/update-user-role`), or `admin login`. */
    action: text("action").notNull(),
    /** A mobile number or device id as is; other records as `user:12`, `recharge:7`, `firmware:wifi/1.2.0`. */
    target: text("target"),
    status: integer("status").notNull(),
    /** JSON: the validated, non-secret request fields, or why the write was refused. Capped. */
    details: text("details").notNull(),
    clientIp: text("client_ip"),
    userAgent: text("user_agent"),
  },
  (table) => [
    index("admin_audit_admin_idx").on(table.adminUserId, table.id),
    index("admin_audit_target_idx").on(table.target, table.id),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type DeviceRow = typeof devices.$inferSelect;
export type DeviceMemberRow = typeof deviceMembers.$inferSelect;
export type MotorLogRow = typeof motorLogs.$inferSelect;
export type FirmwareImageRow = typeof firmwareImages.$inferSelect;
export type PlanPeriodRow = typeof planPeriods.$inferSelect;
export type RechargeRequestRow = typeof rechargeRequests.$inferSelect;
export type AdminAuditRow = typeof adminAudit.$inferSelect;

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
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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
 * One-time codes sent by SMS (worker/auth/one-time-codes.ts, docs/telephony.md): at most one live
 * code per number and purpose, a new one replacing the old. Only a keyed hash of the code is
 * kept (HMAC-SHA-256 with a key derived from JWT_SECRET), so these rows alone reveal no code.
 * `tries` counts every check, right or wrong, before it is made; `usedAt` marks the one check
 * that succeeded. No foreign key: a code may be for a number that has no account yet.
 */
export const oneTimeCodes = sqliteTable(
  "one_time_codes",
  {
    purpose: text("purpose", { enum: ["signIn", "resetPassword", "verifyNumber"] }).notNull(),
    mobileNo: text("mobile_no").notNull(),
    codeHash: text("code_hash").notNull(),
    tries: integer("tries").notNull().default(0),
    createdAt: timestamp("created_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    usedAt: timestamp("used_at"),
  },
  (table) => [
    primaryKey({ columns: [table.purpose, table.mobileNo] }),
    index("one_time_codes_expires_idx").on(table.expiresAt),
  ],
);

/**
 * Every verified webhook of a telephony provider, once (worker/api/telephony.ts): the event as
 * read by the provider's adapter (common/telephony-events.ts) under its replay key, which a
 * replayed or retried delivery repeats and the unique index refuses. Kept 30 days
 * (worker/scheduled.ts); handlers refuse what is older than that by its own dates.
 */
export const telephonyEvents = sqliteTable(
  "telephony_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    provider: text("provider", { enum: ["twilio", "exotel"] }).notNull(),
    replayKey: text("replay_key").notNull(),
    type: text("type").notNull(),
    event: text("event").notNull(),
    receivedAt: timestamp("received_at").notNull(),
  },
  (table) => [
    uniqueIndex("telephony_events_replay_idx").on(table.provider, table.replayKey),
    index("telephony_events_received_idx").on(table.receivedAt),
  ],
);

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
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: text("event_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** No foreign key: what an alert cost outlives a box given back. */
    deviceId: text("device_id").notNull(),
    kind: text("kind", { enum: PHONE_ALERT_KINDS }).notNull(),
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

/**
 * A call to the voice menu (worker/phone-control/voice-menu.ts), from the moment it is answered:
 * whose call it is (the verified account its number belongs to), the pump it is about once
 * chosen, where the menu is (`step`, and `keys`, how many keys it has taken: a key is taken only
 * for the step it answers), and what the last key did, which Exotel's flow reads back in a
 * greeting. Kept 30 days, as telephony events are.
 */
export const phoneMenuCalls = sqliteTable(
  "phone_menu_calls",
  {
    provider: text("provider", { enum: ["twilio", "exotel"] }).notNull(),
    callId: text("call_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Null until chosen, for a caller with several pumps. No foreign key: a call outlives nothing it needs. */
    deviceId: text("device_id"),
    language: text("language", { enum: ["hi", "en"] }).notNull(),
    step: text("step", { enum: ["pump", "main", "minutes", "done"] }).notNull(),
    keys: integer("keys").notNull().default(0),
    /** What the call says next (the last key's outcome), as spoken text. */
    said: text("said"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.callId] }),
    index("phone_menu_calls_created_idx").on(table.createdAt),
  ],
);

export type PhoneMenuCallRow = typeof phoneMenuCalls.$inferSelect;
