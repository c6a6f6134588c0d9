import { Hono } from "hono";
import { adminPaymentListResponseSchema, adminPaymentResponseSchema } from "../../../common/api-responses/payments.ts";
import { apiError } from "../../http/http-error.ts";
import { paymentLedger, paymentWithTrail } from "../../services/payments.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput } from "../input.ts";
import { paymentIdSchema } from "../payments.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

/**
 * GET /api/admin/payments (docs/payments.md, "What an admin sees"): every gateway payment,
 * newest first, with the gateway's ids and why one needs a look, and what the daily
 * reconciliation flagged.
 */
export const adminPaymentRoutes = new Hono<ApiEnv>()
  .get("/payments", requireAuth("admin"), async (c) => {
    return respond(c, adminPaymentListResponseSchema, { success: true, ...(await paymentLedger(c.env)) });
  })
  // One payment and its audit trail: every verified webhook about it, what each did, in order.
  .get("/payments/:id", requireAuth("admin"), async (c) => {
    const found = await paymentWithTrail(c.env, parseInput(paymentIdSchema, c.req.param("id")));
    if (!found) throw apiError(404, "paymentNotFound");
    return respond(c, adminPaymentResponseSchema, { success: true, ...found });
  });
