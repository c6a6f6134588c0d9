// Answers of /api/recharge/* and GET /api/admin/recharge-requests (common/api-responses/refusals.ts
// says how these are used).

import { paymentMethodSchema, planSchema, rechargeStatusSchema } from "../plans.ts";
import { z } from "../zod-mini.ts";
import { successSchema } from "./refusals.ts";

/** SPEC §3's recharge request, and when an admin decided it. */
export const rechargeViewSchema = z.object({
  id: z.int(),
  mobileNo: z.string(),
  plan: planSchema,
  amount: z.number(),
  paymentMethod: paymentMethodSchema,
  status: rechargeStatusSchema,
  requestedAt: z.string(),
  decidedAt: z.nullable(z.string()),
});

/** POST /api/recharge/request (201): the request as stored, and where to pay a UPI one. */
export const rechargeRequestResponseSchema = successSchema({
  message: z.string(),
  request: rechargeViewSchema,
  upiLink: z.nullable(z.string()),
});

/** GET /api/recharge/requests (the caller's) and GET /api/admin/recharge-requests (all). */
export const rechargeListResponseSchema = successSchema({ data: z.array(rechargeViewSchema) });

const periodPlanSchema = z.enum(["free", "1month", "3month", "6month", "1year"]);

/** GET /api/recharge/plan: the device's plan card (worker/db/plans.ts); null before its first hello. */
export const planResponseSchema = successSchema({
  plan: z.nullable(
    z.object({
      plan: periodPlanSchema,
      amount: z.number(),
      activatedAt: z.string(),
      expiresAt: z.string(),
      status: z.enum(["active", "expired"]),
      currentEndsAt: z.string(),
      upcoming: z.array(
        z.object({ plan: periodPlanSchema, amount: z.number(), startsAt: z.string(), endsAt: z.string() }),
      ),
    }),
  ),
});
