// Recharges paid through the payment gateway (docs/payments.md), shared by the JSON API
// (/api/payments/*) and the My Plan page: a checkout for the farmer's own box at the plan's
// price, the payment as the server knows it (only a verified webhook makes it paid, never the
// browser's return), and the gateway's webhooks. Refusals are values with the API's codes
// (./refusal.ts): noDevice, paymentsOff, paymentGatewayFailed, paymentNotFound.
import { eq } from "drizzle-orm";
import { gstSplit, rupeesToPaise } from "../../common/gst.ts";
import type { Language } from "../../common/i18n/language.ts";
import { PLANS, type Plan } from "../../common/plans.ts";
import { getDb } from "../db/client.ts";
import { findDeviceById, findDeviceByOwner } from "../db/devices.ts";
import {
  applyPaymentEvent,
  countCheckoutsSince,
  type EventOutcome,
  eventsOfPayment,
  findOpenCheckout,
  findPayment,
  insertPayment,
  listPayments,
  listPaymentsOfUser,
  listReconFlags,
  paymentReference,
} from "../db/payments.ts";
import { listPlanPeriods, planCard } from "../db/plans.ts";
import type { PaymentRow } from "../db/schema.ts";
import { payments } from "../db/schema.ts";
import { paymentProvider, paymentsEnabled } from "../payments/config.ts";
import { PaymentGatewayError } from "../payments/provider.ts";
import { type Refusal, refuse } from "./refusal.ts";

/** A payment as the farmer's API and page show it: amounts in paise, GST as the invoice splits it. */
export function toPaymentView(row: PaymentRow) {
  return {
    id: row.id,
    plan: row.plan,
    status: row.status,
    amountPaise: row.amountPaise,
    gst: { taxablePaise: row.taxablePaise, cgstPaise: row.cgstPaise, sgstPaise: row.sgstPaise },
    provider: row.provider,
    /** Where it is paid, while it can still be. */
    payUrl: row.status === "created" || row.status === "failed" ? row.payUrl : null,
    createdAt: new Date(row.createdAt).toISOString(),
    paidAt: row.paidAt ? new Date(row.paidAt).toISOString() : null,
  };
}

/** A checkout of the same plan for the same box opened this recently is given again instead of a new one. */
const REUSE_CHECKOUT_MS = 15 * 60 * 1000;
/** At most this many new checkouts an account opens in the window: each is a call to the gateway. */
const CHECKOUTS_PER_WINDOW = 10;
const CHECKOUT_WINDOW_MS = 10 * 60 * 1000;

/** Whether this environment takes UPI recharges online (else they are requests an admin marks). */
export function onlinePayments(env: Env): boolean {
  return paymentsEnabled(env);
}

/**
 * A checkout for a plan on the farmer's own box (`deviceId`, or their first): a payment row at
 * the plan's price, then the gateway's payment link for it, with the app's `/recharge` as where
 * the browser comes back to.
 */
export async function startCheckout(
  env: Env,
  user: { id: number; mobileNo: string },
  input: { plan: Plan; deviceId?: string | undefined },
  origin: string,
  language: Language,
): Promise<{ ok: true; payment: PaymentRow } | Refusal> {
  if (!paymentsEnabled(env)) return refuse(503, "paymentsOff");
  const configured = paymentProvider(env);
  if (!configured.ok) {
    console.error(`Online payment is off: ${configured.problem}`);
    return refuse(503, "paymentsOff");
  }
  const db = getDb(env.DB);
  const device =
    input.deviceId === undefined ? await findDeviceByOwner(db, user.id) : await findDeviceById(db, input.deviceId);
  if (!device || device.ownerUserId !== user.id) return refuse(404, "noDevice");
  const now = Date.now();
  // The same plan asked again while its page is still open (a second tap, the back button): the
  // same checkout, so one recharge cannot become two links paid twice.
  const open = await findOpenCheckout(db, device.id, input.plan, now - REUSE_CHECKOUT_MS);
  if (open) return { ok: true, payment: open };
  if ((await countCheckoutsSince(db, user.id, now - CHECKOUT_WINDOW_MS)) >= CHECKOUTS_PER_WINDOW) {
    return refuse(429, "throttled");
  }
  const amountPaise = rupeesToPaise(PLANS[input.plan].amount); // never the client's
  const split = gstSplit(amountPaise);
  // The row first, so the gateway keeps our id as its reference; its link replaces the placeholder.
  const row = await insertPayment(db, {
    userId: user.id,
    deviceId: device.id,
    mobileNo: user.mobileNo,
    plan: input.plan,
    language,
    amountPaise,
    taxablePaise: split.taxablePaise,
    cgstPaise: split.cgstPaise,
    sgstPaise: split.sgstPaise,
    provider: configured.provider.name,
    gatewayLinkId: `pending-${crypto.randomUUID()}`,
    gatewayOrderId: null,
    payUrl: "",
    createdAt: now,
  });
  try {
    const checkout = await configured.provider.createCheckout({
      reference: paymentReference(row.id),
      amountPaise,
      description: `Sinchai ${input.plan} plan, box ${device.id}`,
      mobileNo: user.mobileNo,
      callbackUrl: new URL(`/recharge?payment=${row.id}`, origin).toString(),
      notes: { paymentId: String(row.id), deviceId: device.id, plan: input.plan },
    });
    const [updated] = await db
      .update(payments)
      .set({ gatewayLinkId: checkout.linkId, gatewayOrderId: checkout.orderId, payUrl: checkout.payUrl })
      .where(eq(payments.id, row.id))
      .returning();
    return { ok: true, payment: updated! };
  } catch (error) {
    await db.delete(payments).where(eq(payments.id, row.id));
    if (error instanceof PaymentGatewayError) {
      console.error("The payment gateway refused a checkout", error);
      return refuse(502, "paymentGatewayFailed");
    }
    console.error("The payment gateway could not be reached", error);
    return refuse(502, "paymentGatewayFailed");
  }
}

/** One of the farmer's own payments, and the plan of its box as it is now. */
export async function ownPayment(env: Env, userId: number, id: number) {
  const db = getDb(env.DB);
  const row = await findPayment(db, id);
  if (!row || row.userId !== userId) return null;
  return { payment: row, plan: planCard(await listPlanPeriods(db, row.deviceId), Date.now()) };
}

export async function ownPayments(env: Env, userId: number) {
  return listPaymentsOfUser(getDb(env.DB), userId);
}

export type WebhookAnswer =
  | {
      status: 200;
      outcome: EventOutcome;
      payment: PaymentRow | undefined;
      /** The payment as it is after a capture that this event applied (paid, the plan extended). */
      captured: PaymentRow | undefined;
    }
  | { status: 400 | 403 | 404; problem: string };

/**
 * A webhook of the configured gateway: its signature checked on the raw body before anything
 * is read (403 and nothing changes when it is wrong), then acted on once under its event id.
 */
export async function receivePaymentWebhook(env: Env, rawBody: string, headers: Headers): Promise<WebhookAnswer> {
  const configured = paymentProvider(env);
  if (!configured.ok) {
    console.error(`Payment webhooks are off: ${configured.problem}`);
    return { status: 404, problem: "no gateway" };
  }
  const { provider } = configured;
  if (!(await provider.verifyWebhook(rawBody, headers))) return { status: 403, problem: "bad signature" };
  const reading = await provider.readWebhook(rawBody, headers);
  if (!reading.ok) return { status: 400, problem: reading.problem };
  const { outcome, payment } = await applyPaymentEvent(
    getDb(env.DB),
    { provider: provider.name, eventId: reading.eventId, type: reading.type, body: rawBody, now: Date.now() },
    reading.event,
  );
  if (outcome === "unmatched") console.warn(`A ${reading.type} webhook (${reading.eventId}) names no payment of ours`);
  const captured =
    outcome === "applied" && reading.event.type === "captured" && payment
      ? await findPayment(getDb(env.DB), payment.id)
      : undefined;
  return { status: 200, outcome, payment, captured: captured?.status === "paid" ? captured : undefined };
}

/** A payment as the admin sees it: the farmer's view, the gateway's ids and any flag. */
export function toAdminPaymentView(row: PaymentRow) {
  return {
    ...toPaymentView(row),
    mobileNo: row.mobileNo,
    deviceId: row.deviceId,
    gatewayLinkId: row.gatewayLinkId,
    gatewayOrderId: row.gatewayOrderId,
    gatewayPaymentId: row.gatewayPaymentId,
    capturedPaise: row.capturedPaise,
    refundedPaise: row.refundedPaise,
    flag: row.flag,
  };
}

export type AdminPaymentView = ReturnType<typeof toAdminPaymentView>;

export type PaymentLedger = Awaited<ReturnType<typeof paymentLedger>>;

/** Every payment, newest first, and what reconciliation flagged, newest first. */
export async function paymentLedger(env: Env) {
  const db = getDb(env.DB);
  const [rows, flags] = await Promise.all([listPayments(db), listReconFlags(db)]);
  return {
    data: rows.map(toAdminPaymentView),
    reconFlags: flags.map((flag) => ({
      day: flag.day,
      kind: flag.kind,
      gatewayRef: flag.gatewayRef,
      paymentId: flag.paymentRowId,
      detail: flag.detail,
      createdAt: new Date(flag.createdAt).toISOString(),
    })),
  };
}

/** One payment as the admin sees it, with its audit trail (every verified webhook about it), or null. */
export async function paymentWithTrail(env: Env, id: number) {
  const db = getDb(env.DB);
  const row = await findPayment(db, id);
  if (!row) return null;
  const events = await eventsOfPayment(db, id);
  return {
    payment: toAdminPaymentView(row),
    events: events.map((event) => ({
      eventId: event.eventId,
      type: event.type,
      outcome: event.outcome,
      gatewayPaymentId: event.gatewayPaymentId,
      receivedAt: new Date(event.receivedAt).toISOString(),
    })),
  };
}
