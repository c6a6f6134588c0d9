// The installer's visit (docs/decisions/033-installers.md): who installs boxes, the boxes an
// admin gave each to install, the one-time claim code printed on each box, and each box's
// installation (who linked it to which farmer, and when it was handed over).
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./accounts.ts";
import { timestamp } from "./columns.ts";
import { devices } from "./devices.ts";

/** Accounts an admin made installers. Only a verified number becomes one. */
export const installers = sqliteTable("installers", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** The installer's name as the farmer sees it after the hand-over ("Ramesh Electricals"). */
  name: text("name").notNull(),
  /**
   * The region whose unlinked boxes (`devices.region`) the installer may claim besides their
   * stock (docs/decisions/035-installer-regions.md); null: their stock only.
   */
  region: text("region"),
  createdByUserId: integer("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at").notNull(),
});

/** The boxes an admin gave an installer to fit: only these may they claim. One installer a box. */
export const installerStock = sqliteTable(
  "installer_stock",
  {
    deviceId: text("device_id")
      .primaryKey()
      .references(() => devices.id, { onDelete: "cascade" }),
    installerUserId: integer("installer_user_id")
      .notNull()
      .references(() => installers.userId, { onDelete: "cascade" }),
    assignedAt: timestamp("assigned_at").notNull(),
  },
  (table) => [index("installer_stock_installer_idx").on(table.installerUserId)],
);

/**
 * The claim code printed on a box's sticker (`npm run device -- label`), kept as a SHA-256 of
 * the box id and the code: a code has 50 random bits, too many to try. A new label replaces the
 * code. `usedAt`: the one claim that linked the box; the code works no more. `pending*`: the
 * claim waiting for the farmer's SMS code (which farmer, which installer).
 */
export const boxClaims = sqliteTable("box_claims", {
  deviceId: text("device_id")
    .primaryKey()
    .references(() => devices.id, { onDelete: "cascade" }),
  codeHash: text("code_hash").notNull(),
  createdAt: timestamp("created_at").notNull(),
  pendingMobileNo: text("pending_mobile_no"),
  pendingByUserId: integer("pending_by_user_id"),
  usedAt: timestamp("used_at"),
});

/**
 * A box's installation: the installer who linked it to the farmer, until the hand-over
 * (`handedOverAt`), after which the installer may do nothing more with it. `farmerSeenAt`: the
 * farmer saw who installed it (their first visit after the link).
 */
export const installations = sqliteTable(
  "installations",
  {
    deviceId: text("device_id")
      .primaryKey()
      .references(() => devices.id, { onDelete: "cascade" }),
    installerUserId: integer("installer_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Kept as written at the time: the farmer still knows whom to call if the account goes. */
    installerName: text("installer_name").notNull(),
    installerMobileNo: text("installer_mobile_no").notNull(),
    farmerUserId: integer("farmer_user_id").references(() => users.id, { onDelete: "set null" }),
    installedAt: timestamp("installed_at").notNull(),
    handedOverAt: timestamp("handed_over_at"),
    farmerSeenAt: timestamp("farmer_seen_at"),
    /**
     * The last test run the box measured, as JSON (common/commissioning.ts, `measuredSchema`):
     * kept by the server, so the report says what the box measured, not what a page claimed.
     */
    testRun: text("test_run"),
    /** The commissioning report, as JSON (`commissioningReportSchema`): measured, suggested, set, who, when. */
    report: text("report"),
    /** The feeder or village tag the installer gave at commissioning: boxes with the same tag are neighbours. */
    feeder: text("feeder"),
    commissionedAt: timestamp("commissioned_at"),
  },
  (table) => [
    index("installations_installer_idx").on(table.installerUserId),
    // A cut supply's neighbours (durable-objects/device-hub/theft.ts): the boxes of its feeder.
    index("installations_feeder_idx").on(table.feeder),
  ],
);

export type InstallationRow = typeof installations.$inferSelect;
