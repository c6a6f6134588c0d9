// The boxes, who may use them, their motor settings, their log and their firmware.
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./accounts.ts";
import { autoIncrementId, ownedBy, timestamp } from "./columns.ts";

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
    /**
     * The owner's SMS PIN, as an HMAC under the Worker's secret (worker/phone-control/sms-pin.ts):
     * an ON by SMS must begin with it. Null: none set, caller ID alone (the default).
     */
    smsPin: text("sms_pin"),
    /**
     * The region a box waiting for its farmer belongs to (a district or block, as an admin tags
     * it, in `regionSchema`'s form): an installer given that region may claim it
     * (docs/decisions/035-installer-regions.md). Null: in no region.
     */
    region: text("region"),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [
    index("devices_owner_idx").on(table.ownerUserId, table.createdAt),
    // An installer's region's boxes: the unlinked boxes with that tag.
    index("devices_region_idx").on(table.region),
  ],
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
    deviceId: ownedBy(text("device_id"), () => devices.id),
    mobileNo: text("mobile_no").notNull(),
    role: text("role", { enum: ["operator", "viewer"] }).notNull(),
    label: text("label").notNull(),
    invitedByUserId: integer("invited_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at").notNull(),
    /** When the invited number's account said yes; null: still an invitation, which lets it do nothing. */
    acceptedAt: timestamp("accepted_at"),
    /**
     * The owner who added this person had not proven their number with a code. Whoever proves
     * it takes the account back (worker/auth/take-back.ts), and what the unproven holder did
     * with it goes: these rows with it. Cleared when the account verifies in its own session.
     */
    addedUnverified: integer("added_unverified", { mode: "boolean" }).notNull().default(false),
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
 * Every motor action and protection event. `mobileNo` is the owner's number when it happened,
 * kept so the admin log still reads right after a number change or account deletion.
 */
export const motorLogs = sqliteTable(
  "motor_logs",
  {
    id: autoIncrementId(),
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
 * What the admin's dashboard counts of each box, kept current by its hub (one row per box, so
 * the table grows with boxes, never with their motors' days): the fleet-wide figures are sums
 * and counts over it, never over a box's history, which lives in its hub
 * (docs/decisions/045-history-lives-with-its-box.md).
 */
export const boxActivity = sqliteTable("box_activity", {
  deviceId: text("device_id")
    .primaryKey()
    .references(() => devices.id, { onDelete: "cascade" }),
  /** Entries in the box's motor log (its hub's, moved rows included), as of `updatedAt`. */
  logEntries: integer("log_entries").notNull().default(0),
  /** The last motor ON or OFF, by anyone or any protection. */
  lastSwitchAt: timestamp("last_switch_at"),
  /** The last protection trip (dry run, overcurrent, a voltage limit). */
  lastTripAt: timestamp("last_trip_at"),
  /** Whether the box's last phase report was a fault. */
  phaseFault: integer("phase_fault", { mode: "boolean" }).notNull().default(false),
  /** When its theft alerts of the last 7 days were raised (at most 20), as a JSON array of instants. */
  theftAlerts: text("theft_alerts").notNull().default("[]"),
  updatedAt: timestamp("updated_at").notNull(),
});

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
    id: autoIncrementId(),
    userId: ownedBy(integer("user_id"), () => users.id),
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

/**
 * Firmware builds, one file per device type and version. The file itself is in R2 under
 * `r2Key`; devices download it from /api/device/firmware/{id} and check `sha256`.
 */
export const firmwareImages = sqliteTable(
  "firmware_images",
  {
    id: autoIncrementId(),
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

export type DeviceRow = typeof devices.$inferSelect;
export type DeviceMemberRow = typeof deviceMembers.$inferSelect;
export type MotorLogRow = typeof motorLogs.$inferSelect;
export type BoxActivityRow = typeof boxActivity.$inferSelect;
export type FirmwareImageRow = typeof firmwareImages.$inferSelect;
