// Answers of /api/push/* (common/api-responses/refusals.ts says how these are used).

import { ALERT_KINDS } from "../alerts.ts";
import { z } from "../zod-mini.ts";

/** A browser's subscription as the settings screen sees it: never its keys. */
const subscriptionViewSchema = z.object({
  endpoint: z.string(),
  kinds: z.array(z.enum(ALERT_KINDS)),
  language: z.enum(["hi", "en"]),
  lastSentAt: z.nullable(z.number()),
});

/** GET /api/push/subscriptions?endpoint=: null when this browser gets no alerts. */
export const subscriptionResponseSchema = z.object({
  success: z.literal(true),
  subscription: z.nullable(subscriptionViewSchema),
});

/** PUT /api/push/subscriptions (DELETE and POST /api/push/test answer messageResponseSchema). */
export const subscriptionSavedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: subscriptionViewSchema,
});

/** POST /api/push/subscriptions/renew. */
export const subscriptionRenewedResponseSchema = z.object({
  success: z.literal(true),
  subscription: subscriptionViewSchema,
});
