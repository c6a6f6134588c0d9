// A recharge paid through the real code paths in the workerd tests: the farmer's checkout through
// the API (the gateway's REST half answers it: tests/payments-outbound.ts), then the three
// webhooks Razorpay sends for a capture, built and signed as the local gateway builds them
// (payments-sim/gateway-core.ts, which runs in Node), posted to the Worker's webhook route.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { paymentCheckoutResponseSchema } from "../../../common/api-responses/payments.ts";
import type { Plan } from "../../../common/plans.ts";
import { getDb } from "../../../worker/db/client.ts";
import { findPayment, paymentReference } from "../../../worker/db/payments.ts";
import type { PaymentRow } from "../../../worker/db/schema.ts";
import { api, postJson } from "./http.ts";

/** An id as Razorpay writes them: a prefix and 14 letters and digits. */
function gatewayId(prefix: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return `${prefix}_${[...crypto.getRandomValues(new Uint8Array(14))].map((byte) => alphabet[byte % alphabet.length]).join("")}`;
}

async function sign(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body));
  return [...new Uint8Array(signature)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function eventBody(event: string, payload: Record<string, unknown>, contains: string[]): string {
  return JSON.stringify({
    entity: "event",
    account_id: "acc_SinchaiLocal01",
    event,
    contains,
    payload,
    created_at: Math.floor(Date.now() / 1000),
  });
}

/** Posts a gateway webhook signed with the tests' webhook secret; answers its outcome. */
export async function postWebhook(body: string, eventId = gatewayId("evt")): Promise<string> {
  const response = await api("/api/payments/razorpay/webhook", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Razorpay-Signature": await sign(env.RAZORPAY_WEBHOOK_SECRET, body),
      "X-Razorpay-Event-Id": eventId,
    },
    body,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { outcome: string }).outcome;
}

/** The farmer pays `plan` for their box: a checkout, then the capture's three webhooks. */
export async function payRecharge(token: string, plan: Plan, deviceId?: string): Promise<PaymentRow> {
  const response = await postJson("/api/payments/checkout", { plan, ...(deviceId ? { pump: deviceId } : {}) }, token);
  expect(response.status).toBe(201);
  const { payment } = await readJson(response, paymentCheckoutResponseSchema);
  const row = (await findPayment(getDb(env.DB), payment.id))!;
  const paymentId = gatewayId("pay");
  const paid = {
    id: paymentId,
    entity: "payment",
    amount: row.amountPaise,
    currency: "INR",
    status: "captured",
    order_id: row.gatewayOrderId,
    invoice_id: null,
    international: false,
    method: "upi",
    amount_refunded: 0,
    refund_status: null,
    captured: true,
    description: null,
    vpa: "farmer@upi",
    error_code: null,
    error_description: null,
    fee: Math.round(row.amountPaise * 0.02),
    tax: Math.round(row.amountPaise * 0.02 * 0.18),
    created_at: Math.floor(Date.now() / 1000),
  };
  const link = {
    id: row.gatewayLinkId,
    entity: "payment_link",
    amount: row.amountPaise,
    amount_paid: row.amountPaise,
    currency: "INR",
    accept_partial: false,
    description: `Sinchai ${plan} plan, box ${row.deviceId}`,
    reference_id: paymentReference(row.id),
    order_id: row.gatewayOrderId,
    short_url: "",
    status: "paid",
    upi_link: true,
    notes: { paymentId: String(row.id), deviceId: row.deviceId, plan },
    customer: { contact: `+91${row.mobileNo}` },
    created_at: Math.floor(row.createdAt / 1000),
  };
  const entity = { payment: { entity: paid } };
  const order = {
    entity: {
      id: row.gatewayOrderId,
      entity: "order",
      amount: row.amountPaise,
      amount_paid: row.amountPaise,
      amount_due: 0,
      currency: "INR",
      receipt: paymentReference(row.id),
      status: "paid",
      attempts: 1,
    },
  };
  await postWebhook(eventBody("payment.captured", entity, ["payment"]));
  await postWebhook(eventBody("order.paid", { ...entity, order }, ["payment", "order"]));
  await postWebhook(
    eventBody("payment_link.paid", { payment_link: { entity: link }, ...entity, order }, [
      "payment_link",
      "order",
      "payment",
    ]),
  );
  const after = (await findPayment(getDb(env.DB), row.id))!;
  expect(after.status).toBe("paid");
  return after;
}
