// The local gateway's Razorpay half: the REST calls our adapter makes (worker/payments/razorpay.ts),
// answered as Razorpay documents them, with Basic authorization by the key id and key secret,
// and what a payer does on the checkout page (pay, fail) or an operator at the dashboard
// (refund), each followed by the webhooks Razorpay sends for it.
//   POST /v1/payment_links                           create a payment link (amount in paise, reference_id, callback_url)
//   GET  /v1/payment_links/{id}                      one link
//   GET  /v1/payments/{id}                           one payment
//   GET  /v1/settlements/recon/combined?year&month&day[&count&skip]   what was settled that day
import { z } from "../common/zod.ts";
import {
  emit,
  eventBody,
  type GatewayCore,
  gatewayId,
  indiaDay,
  linkEntity,
  paymentEntity,
  type SimEvent,
  type SimLink,
  type SimPayment,
} from "./gateway-core.ts";

export type RestAnswer = { status: number; body: unknown };

const createLinkSchema = z.object({
  amount: z.number().int().min(100),
  currency: z.literal("INR"),
  reference_id: z.string().min(1).max(40),
  description: z.string().max(2048).optional(),
  customer: z.object({ contact: z.string().optional() }).optional(),
  notes: z.record(z.string(), z.string()).optional(),
  callback_url: z.string().url().optional(),
  callback_method: z.literal("get").optional(),
  upi_link: z.union([z.boolean(), z.literal("true")]).optional(),
  accept_partial: z.boolean().optional(),
  notify: z.unknown().optional(),
  reminder_enable: z.boolean().optional(),
});

function refusal(status: number, description: string, field?: string): RestAnswer {
  return {
    status,
    body: {
      error: {
        code: status === 401 ? "BAD_REQUEST_ERROR" : "BAD_REQUEST_ERROR",
        description,
        source: "business",
        step: "payment_initiation",
        reason: "input_validation_failed",
        metadata: {},
        ...(field ? { field } : {}),
      },
    },
  };
}

export function razorpayRest(
  core: GatewayCore,
  request: { method: string; authorization: string | undefined },
  pathWithQuery: string,
  body: string,
): RestAnswer | null {
  const url = new URL(pathWithQuery, "http://gateway.local");
  const path = url.pathname.replace(/\/$/, "");
  if (!path.startsWith("/v1/")) return null;
  const expected = `Basic ${Buffer.from(`${core.credentials.keyId}:${core.credentials.keySecret}`).toString("base64")}`;
  if (request.authorization !== expected) return refusal(401, "The api key provided is invalid");

  if (request.method === "POST" && path === "/v1/payment_links") {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return refusal(400, "The request body is not JSON");
    }
    const parsed = createLinkSchema.safeParse(json);
    if (!parsed.success)
      return refusal(400, parsed.error.issues[0]?.message ?? "invalid", String(parsed.error.issues[0]?.path[0] ?? ""));
    const input = parsed.data;
    if ([...core.links.values()].some((link) => link.referenceId === input.reference_id)) {
      return refusal(400, "payment link with given reference_id already exists", "reference_id");
    }
    const link: SimLink = {
      id: gatewayId("plink"),
      orderId: gatewayId("order"),
      amount: input.amount,
      referenceId: input.reference_id,
      description: input.description ?? "",
      contact: input.customer?.contact ?? null,
      notes: input.notes ?? {},
      callbackUrl: input.callback_url ?? null,
      status: "created",
      createdAt: Date.now(),
      lastAction: "none",
    };
    core.links.set(link.id, link);
    core.log(`payment link ${link.id} for ₹${(link.amount / 100).toFixed(2)} (${link.referenceId})`);
    return { status: 200, body: linkBody(core, link) };
  }
  const linkMatch = /^\/v1\/payment_links\/([A-Za-z0-9_]+)$/.exec(path);
  if (request.method === "GET" && linkMatch) {
    const link = core.links.get(linkMatch[1]!);
    return link ? { status: 200, body: linkBody(core, link) } : refusal(400, "The id provided does not exist");
  }
  const paymentMatch = /^\/v1\/payments\/([A-Za-z0-9_]+)$/.exec(path);
  if (request.method === "GET" && paymentMatch) {
    const payment = core.payments.get(paymentMatch[1]!);
    return payment ? { status: 200, body: paymentEntity(payment) } : refusal(400, "The id provided does not exist");
  }
  if (request.method === "GET" && path === "/v1/settlements/recon/combined") {
    const year = url.searchParams.get("year");
    const month = url.searchParams.get("month");
    const day = url.searchParams.get("day");
    if (!year || !month || !day) return refusal(400, "year, month and day are required");
    const date = `${year.padStart(4, "0")}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
    const count = Math.min(Number(url.searchParams.get("count") ?? 10) || 10, 1000);
    const skip = Number(url.searchParams.get("skip") ?? 0) || 0;
    const items = settlementItems(core, date);
    const page = items.slice(skip, skip + count);
    return { status: 200, body: { entity: "collection", count: page.length, items: page } };
  }
  return refusal(400, `The local gateway has no ${request.method} ${path}`);
}

function linkBody(core: GatewayCore, link: SimLink) {
  return {
    ...linkEntity(link),
    short_url: `${core.payPageBase}/pay/${link.id}`,
    payments: [...core.payments.values()]
      .filter((payment) => payment.linkId === link.id)
      .map((payment) => ({
        payment_id: payment.id,
        amount: payment.amount,
        status: payment.status,
        method: payment.method,
        created_at: Math.floor(payment.createdAt / 1000),
      })),
  };
}

/** Every payment captured and refund made on `day` (India time): the local gateway settles the same day. */
function settlementItems(core: GatewayCore, day: string) {
  const payments = [...core.payments.values()]
    .filter((payment) => payment.status === "captured" && indiaDay(payment.createdAt) === day)
    .map((payment) => ({
      entity_id: payment.id,
      type: "payment",
      debit: 0,
      credit: payment.amount - Math.round(payment.amount * 0.02),
      amount: payment.amount,
      currency: "INR",
      fee: Math.round(payment.amount * 0.02),
      tax: Math.round(payment.amount * 0.02 * 0.18),
      on_hold: false,
      settled: true,
      created_at: Math.floor(payment.createdAt / 1000),
      settled_at: Math.floor(payment.createdAt / 1000),
      settlement_id: `setl_${day.replaceAll("-", "")}Local`,
      description: null,
      notes: [],
      payment_id: null,
      order_id: payment.orderId,
      method: "upi",
    }));
  const refunds = [...core.refunds.values()]
    .filter((refund) => indiaDay(refund.createdAt) === day)
    .map((refund) => ({
      entity_id: refund.id,
      type: "refund",
      debit: refund.amount,
      credit: 0,
      amount: refund.amount,
      currency: "INR",
      fee: 0,
      tax: 0,
      on_hold: false,
      settled: true,
      created_at: Math.floor(refund.createdAt / 1000),
      settled_at: Math.floor(refund.createdAt / 1000),
      settlement_id: `setl_${day.replaceAll("-", "")}Local`,
      description: null,
      notes: [],
      payment_id: refund.paymentId,
      order_id: core.payments.get(refund.paymentId)?.orderId ?? null,
      method: "upi",
    }));
  const extra = core.extraSettlements
    .filter((item) => item.day === day)
    .map((item) => ({
      entity_id: item.entityId,
      type: item.type,
      debit: item.type === "refund" ? item.amount : 0,
      credit: item.type === "payment" ? item.amount : 0,
      amount: item.amount,
      currency: "INR",
      fee: 0,
      tax: 0,
      on_hold: false,
      settled: true,
      created_at: 0,
      settled_at: 0,
      settlement_id: `setl_${day.replaceAll("-", "")}Local`,
      description: null,
      notes: [],
      payment_id: item.paymentId,
      order_id: item.orderId,
      method: "upi",
    }));
  return [...payments, ...refunds, ...extra];
}

function linkFor(core: GatewayCore, linkId: string): SimLink {
  const link = core.links.get(linkId);
  if (!link) throw new Error(`No payment link ${linkId}.`);
  return link;
}

/**
 * The payer pays the link by UPI (`amount`: what the payer's bank actually took, the link's by
 * default): captured at once, then payment.captured, order.paid and payment_link.paid.
 */
export function payLink(
  core: GatewayCore,
  linkId: string,
  amount?: number,
): { payment: SimPayment; events: SimEvent[] } {
  const link = linkFor(core, linkId);
  if (link.status !== "created") throw new Error(`Payment link ${linkId} is ${link.status}.`);
  const payment: SimPayment = {
    id: gatewayId("pay"),
    linkId,
    orderId: link.orderId,
    amount: amount ?? link.amount,
    status: "captured",
    method: "upi",
    vpa: "farmer@upi",
    errorDescription: null,
    amountRefunded: 0,
    createdAt: Date.now(),
  };
  core.payments.set(payment.id, payment);
  link.status = "paid";
  link.lastAction = "paid";
  core.log(`paid ${link.id} by UPI: ${payment.id} ₹${(payment.amount / 100).toFixed(2)}`);
  const entity = { payment: { entity: paymentEntity(payment) } };
  const order = {
    entity: {
      id: link.orderId,
      entity: "order",
      amount: link.amount,
      amount_paid: payment.amount,
      amount_due: 0,
      currency: "INR",
      receipt: link.referenceId,
      status: "paid",
      attempts: 1,
    },
  };
  const events = emit(core, [
    { event: "payment.captured", body: eventBody("payment.captured", entity, ["payment"]) },
    { event: "order.paid", body: eventBody("order.paid", { ...entity, order }, ["payment", "order"]) },
    {
      event: "payment_link.paid",
      body: eventBody("payment_link.paid", { payment_link: { entity: linkEntity(link) }, ...entity, order }, [
        "payment_link",
        "order",
        "payment",
      ]),
    },
  ]);
  return { payment, events };
}

/** The payer's UPI app declines (a wrong PIN, no balance): payment.failed; the link can still be paid. */
export function failLink(core: GatewayCore, linkId: string): { payment: SimPayment; events: SimEvent[] } {
  const link = linkFor(core, linkId);
  if (link.status !== "created") throw new Error(`Payment link ${linkId} is ${link.status}.`);
  const payment: SimPayment = {
    id: gatewayId("pay"),
    linkId,
    orderId: link.orderId,
    amount: link.amount,
    status: "failed",
    method: "upi",
    vpa: "farmer@upi",
    errorDescription: "Payment was unsuccessful as the UPI PIN entered was incorrect.",
    amountRefunded: 0,
    createdAt: Date.now(),
  };
  core.payments.set(payment.id, payment);
  link.lastAction = "failed";
  core.log(`failed ${link.id}: ${payment.id}`);
  const events = emit(core, [
    {
      event: "payment.failed",
      body: eventBody("payment.failed", { payment: { entity: paymentEntity(payment) } }, ["payment"]),
    },
  ]);
  return { payment, events };
}

/** The payer closes the page without paying: nothing is sent, as with Razorpay. */
export function abandonLink(core: GatewayCore, linkId: string): SimLink {
  const link = linkFor(core, linkId);
  link.lastAction = "abandoned";
  core.log(`abandoned ${link.id}`);
  return link;
}

/** A refund of a captured payment (all of it by default), processed at once: refund.processed. */
export function refundPayment(
  core: GatewayCore,
  paymentId: string,
  amount?: number,
): { refundId: string; events: SimEvent[] } {
  const payment = core.payments.get(paymentId);
  if (payment?.status !== "captured") throw new Error(`No captured payment ${paymentId}.`);
  const value = amount ?? payment.amount - payment.amountRefunded;
  if (value <= 0 || value > payment.amount - payment.amountRefunded)
    throw new Error("That is more than is left to refund.");
  const refundId = gatewayId("rfnd");
  core.refunds.set(refundId, { id: refundId, paymentId, amount: value, createdAt: Date.now() });
  payment.amountRefunded += value;
  core.log(`refunded ${paymentId}: ${refundId} ₹${(value / 100).toFixed(2)}`);
  const refund = {
    entity: {
      id: refundId,
      entity: "refund",
      amount: value,
      currency: "INR",
      payment_id: paymentId,
      notes: {},
      receipt: null,
      created_at: Math.floor(Date.now() / 1000),
      status: "processed",
      speed_processed: "normal",
      speed_requested: "optimum",
    },
  };
  const events = emit(core, [
    {
      event: "refund.processed",
      body: eventBody("refund.processed", { refund, payment: { entity: paymentEntity(payment) } }, [
        "refund",
        "payment",
      ]),
    },
  ]);
  return { refundId, events };
}
