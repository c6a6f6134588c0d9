import { Hono } from "hono";
import { adminPaymentListResponseSchema } from "../../../common/api-responses/payments.ts";
import { paymentLedger } from "../../services/payments.ts";
import type { ApiEnv } from "../context.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

/**
 * GET /api/admin/payments (docs/payments.md, "What an admin sees"): every gateway payment,
 * newest first, with the gateway's ids and why one needs a look, and what the daily
 * reconciliation flagged.
 */
export const adminPaymentRoutes = new Hono<ApiEnv>().get("/payments", requireAuth("admin"), async (c) => {
  return respond(c, adminPaymentListResponseSchema, { success: true, ...(await paymentLedger(c.env)) });
});
