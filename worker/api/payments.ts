// Recharges paid online (docs/payments.md, "The API"):
//   POST /api/payments/checkout          {plan, pump?}  a payment for the caller's own box, and where to pay it (201)
//   GET  /api/payments                   the caller's payments, newest first
//   GET  /api/payments/{id}              one of them as the server knows it, and its box's plan now
//   POST /api/payments/razorpay/webhook  the gateway's webhooks (its signature, not a session)
// A payment is paid only when a verified webhook says the gateway captured it; what the
// browser brings back from the gateway's page changes nothing. The webhook is answered 200 once
// recorded (a replay too: the gateway stops retrying), 403 for a bad signature, 400 for a body
// it cannot read; a gateway that is not this environment's is 404.
import { Hono } from "hono";
import {
  paymentCheckoutResponseSchema,
  paymentListResponseSchema,
  paymentResponseSchema,
} from "../../common/api-responses/payments.ts";
import { paymentCheckoutRequestSchema } from "../../common/api-schemas.ts";
import { z } from "../../common/zod.ts";
import { apiError } from "../http/http-error.ts";
import { sendReceipt } from "../payments/messages.ts";
import { ownPayment, ownPayments, receivePaymentWebhook, startCheckout, toPaymentView } from "../services/payments.ts";
import { refusalError } from "../services/refusal.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

/** No gateway's webhook comes near this; a bigger body is refused unread. */
const MAX_WEBHOOK_BYTES = 64 * 1024;

export const paymentIdSchema = z.coerce
  .number({ error: "Not a payment id." })
  .int()
  .positive({ error: "Not a payment id." })
  .max(Number.MAX_SAFE_INTEGER, { error: "Not a payment id." });

export const paymentRoutes = new Hono<ApiEnv>()
  .post("/checkout", requireAuth("user"), async (c) => {
    const input = await readJsonBody(c, paymentCheckoutRequestSchema);
    const result = await startCheckout(
      c.env,
      c.var.user,
      { plan: input.plan, deviceId: input.pump },
      new URL(c.req.url).origin,
      apiLanguage(c.req.raw),
    );
    if (!result.ok) throw refusalError(result);
    return respond(
      c,
      paymentCheckoutResponseSchema,
      { success: true, payment: toPaymentView(result.payment), payUrl: result.payment.payUrl },
      201,
    );
  })
  .get("/", requireAuth("user"), async (c) => {
    const rows = await ownPayments(c.env, c.var.user.id);
    return respond(c, paymentListResponseSchema, { success: true, data: rows.map(toPaymentView) });
  })
  .post("/razorpay/webhook", async (c) => {
    if (c.env.PAYMENT_PROVIDER !== "razorpay") throw apiError(404, "notFound");
    if (Number(c.req.header("Content-Length") ?? 0) > MAX_WEBHOOK_BYTES) throw apiError(413, "bodyTooLarge");
    const bytes = await c.req.arrayBuffer();
    if (bytes.byteLength > MAX_WEBHOOK_BYTES) throw apiError(413, "bodyTooLarge");
    // The signature is over these exact bytes: nothing parses them before it is checked.
    const answer = await receivePaymentWebhook(c.env, new TextDecoder().decode(bytes), c.req.raw.headers);
    switch (answer.status) {
      case 200:
        // A capture that extended the plan just now: its receipt, after the answer.
        if (answer.outcome === "applied" && answer.payment && answer.captured) {
          c.executionCtx.waitUntil(sendReceipt(c.env, answer.captured));
        }
        return c.json({ ok: true, outcome: answer.outcome });
      case 403:
        throw apiError(403, "forbidden");
      case 404:
        throw apiError(404, "notFound");
      case 400:
        throw apiError(400, "invalidInput", { field: "", detail: `Webhook not understood: ${answer.problem}.` });
    }
  })
  .get("/:id", requireAuth("user"), async (c) => {
    const id = parseInput(paymentIdSchema, c.req.param("id"));
    const found = await ownPayment(c.env, c.var.user.id, id);
    // Someone else's payment is as absent as one that never was.
    if (!found) throw apiError(404, "paymentNotFound");
    return respond(c, paymentResponseSchema, {
      success: true,
      payment: toPaymentView(found.payment),
      plan: found.plan,
    });
  });
