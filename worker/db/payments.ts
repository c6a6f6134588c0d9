// Gateway payments in D1 (docs/payments.md, "Money is never lost or doubled"). A verified
// webhook is acted on in one D1 batch (a transaction): its event recorded under the gateway's
// event id (unique: a replay or a retry writes nothing and does nothing), then the payment's
// change guarded by the state it expects, then the plan period guarded by that change and by the
// unique plan_periods.payment_id. So a capture extends once whatever order and however many
// times its events (payment.captured, order.paid, payment_link.paid) arrive, at once or not.
import { and, desc, eq, gt, ne, or, sql } from "drizzle-orm";
import { addMonths, PLANS, type Plan } from "../../common/plans.ts";
import type { PaymentEvent } from "../payments/provider.ts";
import type { Db } from "./client.ts";
import { type PaymentRow, paymentEvents, paymentReconFlags, payments, planPeriods } from "./schema.ts";

export type NewPayment = Omit<
  PaymentRow,
  "id" | "status" | "gatewayPaymentId" | "capturedPaise" | "refundedPaise" | "flag" | "paidAt" | "updatedAt"
>;

export async function insertPayment(db: Db, values: NewPayment): Promise<PaymentRow> {
  const [row] = await db
    .insert(payments)
    .values({ ...values, status: "created", refundedPaise: 0, updatedAt: values.createdAt })
    .returning();
  return row!;
}

/** The newest checkout of `plan` for the device still waiting for money, opened since `since`. */
export function findOpenCheckout(db: Db, deviceId: string, plan: Plan, since: number) {
  return db.query.payments.findFirst({
    where: and(
      eq(payments.deviceId, deviceId),
      eq(payments.plan, plan),
      eq(payments.status, "created"),
      gt(payments.createdAt, since),
      ne(payments.payUrl, ""),
    ),
    orderBy: desc(payments.createdAt),
  });
}

/** How many checkouts the account opened since `since`. */
export async function countCheckoutsSince(db: Db, userId: number, since: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)` })
    .from(payments)
    .where(and(eq(payments.userId, userId), gt(payments.createdAt, since)));
  return row?.count ?? 0;
}

export function findPayment(db: Db, id: number) {
  return db.query.payments.findFirst({ where: eq(payments.id, id) });
}

export function listPaymentsOfUser(db: Db, userId: number, limit = 20) {
  return db
    .select()
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
}

export function listPayments(db: Db, limit = 500) {
  return db.select().from(payments).orderBy(desc(payments.createdAt), desc(payments.id)).limit(limit);
}

export function listReconFlags(db: Db, limit = 200) {
  return db
    .select()
    .from(paymentReconFlags)
    .orderBy(desc(paymentReconFlags.createdAt), desc(paymentReconFlags.id))
    .limit(limit);
}

/** A payment's audit trail: every verified webhook about it, in the order they arrived. */
export function eventsOfPayment(db: Db, paymentRowId: number) {
  return db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.paymentRowId, paymentRowId))
    .orderBy(paymentEvents.receivedAt, paymentEvents.id);
}

/** Our payment an event is about: by our reference, the link, the order or the captured payment. */
export async function paymentOfEvent(db: Db, event: PaymentEvent): Promise<PaymentRow | undefined> {
  if (event.type === "ignored") return undefined;
  const reference = event.type === "captured" ? referenceId(event.reference) : null;
  const conditions = [
    reference !== null ? eq(payments.id, reference) : undefined,
    event.type !== "refunded" && event.linkId ? eq(payments.gatewayLinkId, event.linkId) : undefined,
    event.orderId ? eq(payments.gatewayOrderId, event.orderId) : undefined,
    eq(payments.gatewayPaymentId, event.paymentId),
  ].filter((condition) => condition !== undefined);
  const rows = await db
    .select()
    .from(payments)
    .where(or(...conditions))
    .limit(2);
  // A reference naming one row and an order naming another would be a forged or broken event:
  // none is chosen.
  return rows.length === 1 ? rows[0] : undefined;
}

/** Our reference as we give it to the gateway ("sinchai-<id>"), or null. */
export function paymentReference(id: number): string {
  return `sinchai-${id}`;
}

function referenceId(reference: string | null): number | null {
  const match = reference ? /^sinchai-([1-9][0-9]{0,12})$/.exec(reference) : null;
  return match ? Number(match[1]) : null;
}

export type EventOutcome = "applied" | "unchanged" | "unmatched" | "flagged" | "ignored" | "replay";

type Recorded = { provider: string; eventId: string; type: string; body: string; now: number };

/**
 * Acts on one verified event in one batch; "replay" when its event id was recorded before
 * (nothing else is written then).
 */
export async function applyPaymentEvent(
  db: Db,
  recorded: Recorded,
  event: PaymentEvent,
): Promise<{ outcome: EventOutcome; payment: PaymentRow | undefined }> {
  const payment = await paymentOfEvent(db, event);
  const d1 = db.$client;
  const now = recorded.now;
  const gatewayPaymentId = event.type === "ignored" ? null : event.paymentId;
  const record = (outcome: EventOutcome) =>
    d1
      .prepare(
        `INSERT INTO payment_events (provider, event_id, type, payment_row_id, gateway_payment_id, outcome, body, received_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (provider, event_id) DO NOTHING`,
      )
      .bind(
        recorded.provider,
        recorded.eventId,
        recorded.type,
        payment?.id ?? null,
        gatewayPaymentId,
        outcome,
        recorded.body,
        now,
      );

  // What the event would change, decided from the row as read; every write below is guarded
  // by the state it was decided on, so a concurrent delivery that changed it first makes it a no-op.
  const coveredUntil = payment ? await coverageEnd(db, payment.deviceId) : 0;
  const plan = planChange(payment, event, now, coveredUntil);
  const statements = [record(plan.outcome), ...plan.statements(d1, payment!)];
  const results = await d1.batch(statements);
  if ((results[0]?.meta.changes ?? 0) === 0) return { outcome: "replay", payment };
  // A delivery of another event of the same change that got there between the read and this
  // batch leaves the guarded write with nothing to do: this one changed nothing.
  if (statements.length > 1 && (results[1]?.meta.changes ?? 0) === 0) return { outcome: "unchanged", payment };
  return { outcome: plan.outcome, payment };
}

type Change = {
  outcome: EventOutcome;
  statements: (d1: D1Database, payment: PaymentRow) => D1PreparedStatement[];
};

const NOTHING: Change["statements"] = () => [];

function planChange(payment: PaymentRow | undefined, event: PaymentEvent, now: number, coveredUntil: number): Change {
  if (event.type === "ignored") return { outcome: "ignored", statements: NOTHING };
  if (!payment) return { outcome: "unmatched", statements: NOTHING };
  switch (event.type) {
    case "captured": {
      if (payment.gatewayPaymentId === event.paymentId) return { outcome: "unchanged", statements: NOTHING };
      if (payment.gatewayPaymentId !== null) {
        // A second payment for one checkout: kept for an admin, never a second extension.
        return { outcome: "flagged", statements: (d1) => [flag(d1, payment.id, "secondCapture", now)] };
      }
      if (event.amountPaise !== payment.amountPaise) {
        return {
          outcome: "flagged",
          statements: (d1) => [
            d1
              .prepare(
                `UPDATE payments SET status = 'held', flag = 'amountMismatch', gateway_payment_id = ?2, captured_paise = ?3,
                   gateway_order_id = COALESCE(gateway_order_id, ?4), updated_at = ?5
                 WHERE id = ?1 AND gateway_payment_id IS NULL AND changes() = 1`,
              )
              .bind(payment.id, event.paymentId, event.amountPaise, event.orderId, now),
          ],
        };
      }
      return { outcome: "applied", statements: (d1, row) => captureStatements(d1, row, event, now, coveredUntil) };
    }
    case "failed":
      if (payment.gatewayPaymentId === event.paymentId) {
        // Failed after it was captured: shown to the admin, the extension stays.
        return { outcome: "flagged", statements: (d1) => [flag(d1, payment.id, "failedAfterCapture", now)] };
      }
      if (payment.status !== "created") return { outcome: "unchanged", statements: NOTHING };
      return {
        outcome: "applied",
        statements: (d1) => [
          d1
            .prepare(
              `UPDATE payments SET status = 'failed', gateway_order_id = COALESCE(gateway_order_id, ?2), updated_at = ?3
               WHERE id = ?1 AND status = 'created' AND changes() = 1`,
            )
            .bind(payment.id, event.orderId, now),
        ],
      };
    case "refunded":
      if (payment.gatewayPaymentId !== event.paymentId)
        return { outcome: "flagged", statements: (d1) => [flag(d1, payment.id, "refunded", now)] };
      // The money went back: the admin sees it; the period bought stays until they decide.
      return {
        outcome: "flagged",
        statements: (d1) => [
          d1
            .prepare(
              `UPDATE payments SET status = 'refunded', flag = 'refunded', refunded_paise = refunded_paise + ?2, updated_at = ?3
               WHERE id = ?1 AND changes() = 1`,
            )
            .bind(payment.id, event.amountPaise, now),
        ],
      };
  }
}

function flag(d1: D1Database, id: number, reason: string, now: number): D1PreparedStatement {
  return d1
    .prepare("UPDATE payments SET flag = ?2, updated_at = ?3 WHERE id = ?1 AND changes() = 1")
    .bind(id, reason, now);
}

/**
 * Paid, and the period it buys: from when the box's coverage ends (or now, if it lapsed), for
 * the plan's months. Both only if the event was new and the payment still waited for money.
 */
function captureStatements(
  d1: D1Database,
  payment: PaymentRow,
  event: Extract<PaymentEvent, { type: "captured" }>,
  now: number,
  coveredUntil: number,
): D1PreparedStatement[] {
  return [
    d1
      .prepare(
        `UPDATE payments SET status = 'paid', gateway_payment_id = ?2, captured_paise = ?3,
           gateway_order_id = COALESCE(gateway_order_id, ?4), paid_at = ?5, updated_at = ?5
         WHERE id = ?1 AND status IN ('created', 'failed') AND gateway_payment_id IS NULL AND changes() = 1`,
      )
      .bind(payment.id, event.paymentId, event.amountPaise, event.orderId, now),
    periodAfterCoverage(d1, payment.deviceId, payment.plan, payment.amountPaise / 100, now, payment.id, coveredUntil),
  ];
}

/**
 * A period of `plan` for the device, starting when its coverage ends or now: written only when
 * the statement before it changed a row. Its end is calendar months in India time
 * (common/plans.ts), computed here for both starts the statement can find: now, or the coverage
 * end read just before the batch. Should another extension of the same box land in between, the
 * period keeps the plan's length from wherever coverage then ends (SQLite's own month arithmetic
 * overflows: 31 Jan + 1 month = 3 Mar).
 */
function periodAfterCoverage(
  d1: D1Database,
  deviceId: string,
  plan: Plan,
  amountRupees: number,
  now: number,
  paymentId: number,
  coveredUntil: number,
): D1PreparedStatement {
  const months = PLANS[plan].months;
  return d1
    .prepare(
      `INSERT INTO plan_periods (device_id, plan, amount, starts_at, ends_at, payment_id, created_at)
       SELECT ?1, ?2, ?3, start.at,
              CASE WHEN start.at = ?6 THEN ?4 WHEN start.at = ?7 THEN ?8 ELSE start.at + (?4 - ?6) END,
              ?5, ?6
       FROM (SELECT MAX(?6, COALESCE((SELECT MAX(ends_at) FROM plan_periods WHERE device_id = ?1), ?6)) AS at) AS start
       WHERE changes() = 1`,
    )
    .bind(
      deviceId,
      plan,
      amountRupees,
      addMonths(now, months),
      paymentId,
      now,
      coveredUntil,
      addMonths(coveredUntil, months),
    );
}

/** When the device's coverage ends as D1 has it now (0: no period at all). */
export async function coverageEnd(db: Db, deviceId: string): Promise<number> {
  const [row] = await db
    .select({ endsAt: sql<number | null>`MAX(${planPeriods.endsAt})` })
    .from(planPeriods)
    .where(eq(planPeriods.deviceId, deviceId));
  return row?.endsAt ?? 0;
}
