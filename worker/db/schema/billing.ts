// What a box's connectivity costs: its plan periods and the recharges that pay for them.
import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
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
    /** The gateway payment that bought this period; unique, so a payment never extends twice. */
    paymentId: integer("payment_id").references((): AnySQLiteColumn => payments.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [
    index("plan_periods_device_idx").on(table.deviceId, table.endsAt),
    // The renewal reminders look for plans ending within a week (worker/payments/reminders.ts).
    index("plan_periods_ends_idx").on(table.endsAt),
    uniqueIndex("plan_periods_payment_id_unique").on(table.paymentId),
  ],
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

/**
 * A recharge paid through the payment gateway (docs/payments.md): one row per checkout, priced
 * by the server in paise with its GST split (common/gst.ts), and the gateway's ids as they
 * become known. `status`: created (the farmer was sent to pay), paid (captured at the plan's
 * price: the plan was extended), failed (an attempt failed; the link still takes a payment),
 * held (captured at another amount, or a second capture: for an admin, nothing applied),
 * refunded (money went back after the capture: the plan is not undone, the admin sees it).
 */
export const payments = sqliteTable(
  "payments",
  {
    id: autoIncrementId(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    deviceId: text("device_id").notNull(),
    mobileNo: text("mobile_no").notNull(),
    plan: text("plan", { enum: ["1month", "3month", "6month", "1year"] }).notNull(),
    language: text("language", { enum: ["hi", "en"] }).notNull(),
    amountPaise: integer("amount_paise").notNull(),
    taxablePaise: integer("taxable_paise").notNull(),
    cgstPaise: integer("cgst_paise").notNull(),
    sgstPaise: integer("sgst_paise").notNull(),
    provider: text("provider", { enum: ["razorpay"] }).notNull(),
    status: text("status", { enum: ["created", "paid", "failed", "held", "refunded"] }).notNull(),
    /** The gateway's payment link (Razorpay plink_...), its order and the captured payment. */
    gatewayLinkId: text("gateway_link_id").notNull().unique(),
    gatewayOrderId: text("gateway_order_id").unique(),
    gatewayPaymentId: text("gateway_payment_id").unique(),
    payUrl: text("pay_url").notNull(),
    capturedPaise: integer("captured_paise"),
    refundedPaise: integer("refunded_paise").notNull().default(0),
    /** Why an admin should look: amountMismatch, secondCapture, failedAfterCapture, refunded, recon:<kind>. */
    flag: text("flag"),
    createdAt: timestamp("created_at").notNull(),
    paidAt: timestamp("paid_at"),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (table) => [
    index("payments_user_idx").on(table.userId, table.createdAt),
    index("payments_status_idx").on(table.status, table.createdAt),
  ],
);

/**
 * Every verified gateway webhook, once: the unique (provider, event id) makes a replay or a
 * retry a no-op in the same batch that acts on the first delivery. The audit trail of a payment.
 */
export const paymentEvents = sqliteTable(
  "payment_events",
  {
    id: autoIncrementId(),
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    paymentRowId: integer("payment_row_id").references(() => payments.id, { onDelete: "set null" }),
    gatewayPaymentId: text("gateway_payment_id"),
    /** What the event did: applied, duplicate-of-state, unmatched, flagged, ignored. */
    outcome: text("outcome").notNull(),
    body: text("body").notNull(),
    receivedAt: timestamp("received_at").notNull(),
  },
  (table) => [
    uniqueIndex("payment_events_event_idx").on(table.provider, table.eventId),
    index("payment_events_payment_idx").on(table.paymentRowId),
  ],
);

/** What the daily reconciliation found that does not match (worker/payments/reconcile.ts), once per kind and reference. */
export const paymentReconFlags = sqliteTable(
  "payment_recon_flags",
  {
    id: autoIncrementId(),
    day: text("day").notNull(),
    kind: text("kind", { enum: ["unknownPayment", "amountMismatch", "notPaidHere", "unknownRefund"] }).notNull(),
    gatewayRef: text("gateway_ref").notNull(),
    paymentRowId: integer("payment_row_id").references(() => payments.id, { onDelete: "set null" }),
    detail: text("detail").notNull(),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [uniqueIndex("payment_recon_flags_ref_idx").on(table.kind, table.gatewayRef)],
);

/** The days whose settlement report was read: one run per day, whichever cron minute claims it. */
export const paymentReconRuns = sqliteTable("payment_recon_runs", {
  day: text("day").primaryKey(),
  startedAt: timestamp("started_at").notNull(),
  finishedAt: timestamp("finished_at"),
  items: integer("items"),
  flagged: integer("flagged"),
});

/** Renewal reminders sent: at most one of each kind for each end of a box's coverage. */
export const planReminders = sqliteTable(
  "plan_reminders",
  {
    id: autoIncrementId(),
    deviceId: ownedBy(text("device_id"), () => devices.id),
    endsAt: timestamp("ends_at").notNull(),
    kind: text("kind", { enum: ["7d", "1d"] }).notNull(),
    sentAt: timestamp("sent_at").notNull(),
  },
  (table) => [uniqueIndex("plan_reminders_once_idx").on(table.deviceId, table.endsAt, table.kind)],
);

export type PaymentRow = typeof payments.$inferSelect;
export type PlanPeriodRow = typeof planPeriods.$inferSelect;
export type RechargeRequestRow = typeof rechargeRequests.$inferSelect;

/**
 * Where the retention's sweep through the boxes' plan periods stands (the last box it finished,
 * in id order; worker/retention/payments-archive.ts): one row, moved on a tick at a time.
 */
export const retentionCursors = sqliteTable("retention_cursors", {
  name: text("name").primaryKey(),
  position: text("position").notNull(),
});
