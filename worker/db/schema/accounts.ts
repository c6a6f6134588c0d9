// Accounts and what signs them in: sessions, the realtime sockets they opened, one-time codes.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { autoIncrementId, ownedBy, timestamp } from "./columns.ts";

export const users = sqliteTable("users", {
  id: autoIncrementId(),
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
  /**
   * Grows whenever what proves the account changes: a new password (changed or set by a code),
   * a take-back, the number verified. A known-device cookie names the version it was given
   * under, and counts for nothing once it is another (worker/auth/throttle.ts).
   */
  credentialsVersion: integer("credentials_version").notNull().default(0),
});

/** One row per login; a token is only valid while its session row is neither revoked nor expired. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: ownedBy(integer("user_id"), () => users.id),
    audience: text("audience", { enum: ["user", "admin"] }).notNull(),
    createdAt: timestamp("created_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    revokedAt: timestamp("revoked_at"),
    /**
     * Why a revoked session ended, when the phone holding it should be told more than "session
     * expired": `passwordChanged` (another phone set a new password, or a code took the account
     * back). Null for a logout and the rest.
     */
    endedBy: text("ended_by", { enum: ["passwordChanged"] }),
  },
  // By expiry too: the cron trigger's purge finds ended sessions without reading the table.
  (table) => [index("sessions_user_idx").on(table.userId), index("sessions_expires_idx").on(table.expiresAt)],
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
    index("realtime_watches_expires_idx").on(table.expiresAt),
  ],
);

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
    purpose: text("purpose", { enum: ["signIn", "resetPassword", "verifyNumber", "claimBox"] }).notNull(),
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

export type UserRow = typeof users.$inferSelect;
