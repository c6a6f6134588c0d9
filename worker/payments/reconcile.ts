// The daily reconciliation against the gateway's settlement report (docs/payments.md,
// "Reconciliation"), run by the cron: once a day (whichever minute first claims the day), the
// previous day's report in India time is read through the provider and every line compared with
// D1. What does not match is flagged for the admin, once per kind and reference; nothing is
// changed: a payment the gateway settled that D1 never saw paid is a webhook that went missing,
// and an admin looks at it. A run that failed is tried again an hour later.
import { inArray, or } from "drizzle-orm";
import { getDb } from "../db/client.ts";
import { type PaymentRow, payments } from "../db/schema.ts";
import { paymentProvider } from "./config.ts";
import type { SettlementItem } from "./provider.ts";

/** A claimed run that never finished is taken over after this long. */
const STALE_RUN_MS = 60 * 60 * 1000;
const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;

/** India's day (YYYY-MM-DD) before the one `time` falls on. */
export function reconDayBefore(time: number): string {
  return new Date(time + IST_OFFSET_MS - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

export type ReconFlag = {
  kind: "unknownPayment" | "amountMismatch" | "notPaidHere" | "unknownRefund";
  gatewayRef: string;
  paymentRowId: number | null;
  detail: string;
};

/** What in `items` does not match the payments D1 has (`byPaymentId`, `byOrderId`). */
export function reconFlags(
  items: SettlementItem[],
  byPaymentId: Map<string, PaymentRow>,
  byOrderId: Map<string, PaymentRow>,
): ReconFlag[] {
  const flags: ReconFlag[] = [];
  for (const item of items) {
    if (item.type === "payment") {
      const payment = byPaymentId.get(item.entityId) ?? (item.orderId ? byOrderId.get(item.orderId) : undefined);
      if (!payment) {
        flags.push({
          kind: "unknownPayment",
          gatewayRef: item.entityId,
          paymentRowId: null,
          detail: `${item.amountPaise} paise, order ${item.orderId ?? "none"}`,
        });
      } else if (payment.gatewayPaymentId !== item.entityId) {
        flags.push({
          kind: "notPaidHere",
          gatewayRef: item.entityId,
          paymentRowId: payment.id,
          detail: `${item.amountPaise} paise settled; here ${payment.status}${payment.gatewayPaymentId ? ` with ${payment.gatewayPaymentId}` : ""}`,
        });
      } else if (payment.capturedPaise !== item.amountPaise) {
        flags.push({
          kind: "amountMismatch",
          gatewayRef: item.entityId,
          paymentRowId: payment.id,
          detail: `${item.amountPaise} paise settled; ${payment.capturedPaise ?? 0} captured here`,
        });
      }
    } else if (item.type === "refund") {
      const payment = item.paymentId ? byPaymentId.get(item.paymentId) : undefined;
      if (!payment || payment.refundedPaise === 0) {
        flags.push({
          kind: "unknownRefund",
          gatewayRef: item.entityId,
          paymentRowId: payment?.id ?? null,
          detail: `${item.amountPaise} paise refunded of ${item.paymentId ?? "an unknown payment"}`,
        });
      }
    }
  }
  return flags;
}

/** Runs the day's reconciliation if no run has claimed it; null when there was nothing to do. */
export async function reconcilePayments(
  env: Env,
  scheduledTime: number,
  now = Date.now(),
): Promise<{ day: string; items: number; flagged: number } | null> {
  const configured = paymentProvider(env);
  if (!configured.ok) return null;
  const day = reconDayBefore(scheduledTime);
  const d1 = env.DB;
  const claimed = await d1
    .prepare(
      `INSERT INTO payment_recon_runs (day, started_at) VALUES (?1, ?2)
       ON CONFLICT (day) DO UPDATE SET started_at = excluded.started_at
         WHERE payment_recon_runs.finished_at IS NULL AND payment_recon_runs.started_at < ?3
       RETURNING day`,
    )
    .bind(day, now, now - STALE_RUN_MS)
    .first<{ day: string }>();
  if (!claimed) return null;
  const items = await configured.provider.settlementsOn(day);
  const paymentIds = items.flatMap((item) => [item.entityId, item.paymentId ?? ""]).filter(Boolean);
  const orderIds = items.flatMap((item) => (item.orderId ? [item.orderId] : []));
  const rows = await paymentsNamed(env, paymentIds, orderIds);
  const byPaymentId = new Map(rows.flatMap((row) => (row.gatewayPaymentId ? [[row.gatewayPaymentId, row]] : [])));
  const byOrderId = new Map(rows.flatMap((row) => (row.gatewayOrderId ? [[row.gatewayOrderId, row]] : [])));
  const flags = reconFlags(items, byPaymentId, byOrderId);
  await d1.batch([
    ...flags.map((flag) =>
      d1
        .prepare(
          `INSERT INTO payment_recon_flags (day, kind, gateway_ref, payment_row_id, detail, created_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (kind, gateway_ref) DO NOTHING`,
        )
        .bind(day, flag.kind, flag.gatewayRef, flag.paymentRowId, flag.detail, now),
    ),
    d1
      .prepare("UPDATE payment_recon_runs SET finished_at = ?2, items = ?3, flagged = ?4 WHERE day = ?1")
      .bind(day, now, items.length, flags.length),
  ]);
  if (flags.length > 0) console.warn(`Reconciliation of ${day}: ${flags.length} of ${items.length} lines do not match`);
  return { day, items: items.length, flagged: flags.length };
}

/** Our payments with any of these gateway payment or order ids, in chunks D1 takes. */
async function paymentsNamed(env: Env, paymentIds: string[], orderIds: string[]): Promise<PaymentRow[]> {
  const db = getDb(env.DB);
  const rows: PaymentRow[] = [];
  const CHUNK = 40;
  for (let start = 0; start < Math.max(paymentIds.length, orderIds.length); start += CHUNK) {
    const someIds = paymentIds.slice(start, start + CHUNK);
    const someOrders = orderIds.slice(start, start + CHUNK);
    const conditions = [
      someIds.length > 0 ? inArray(payments.gatewayPaymentId, someIds) : undefined,
      someOrders.length > 0 ? inArray(payments.gatewayOrderId, someOrders) : undefined,
    ].filter((condition) => condition !== undefined);
    if (conditions.length > 0)
      rows.push(
        ...(await db
          .select()
          .from(payments)
          .where(or(...conditions))),
      );
  }
  return rows;
}
