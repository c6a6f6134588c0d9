// What a box's connectivity costs: its plan periods and the recharges that pay for them.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./accounts.ts";
import { autoIncrementId, ownedBy, timestamp } from "./columns.ts";
import { devices } from "./devices.ts";

/**
 * A device's connectivity, period by period: the free first year from activation, then one
 * period per paid recharge, each starting when the previous one ends (or now, if it lapsed).
 */
export const planPeriods = sqliteTable(
  "plan_periods",
  {
    id: autoIncrementId(),
    deviceId: ownedBy(text("device_id"), () => devices.id),
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

export const rechargeRequests = sqliteTable(
  "recharge_requests",
  {
    id: autoIncrementId(),
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

export type PlanPeriodRow = typeof planPeriods.$inferSelect;
export type RechargeRequestRow = typeof rechargeRequests.$inferSelect;
