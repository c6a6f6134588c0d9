// Answers of /api/payments/* and GET /api/admin/payments (docs/payments.md, "The API").
import { planSchema } from "../plans.ts";
import { z } from "../zod-mini.ts";
import { planResponseSchema } from "./recharges.ts";
import { successSchema } from "./refusals.ts";

export const paymentStatusSchema = z.enum(["created", "paid", "failed", "held", "refunded"]);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/** A gateway payment as its farmer sees it: integer paise, GST as the invoice splits it. */
export const paymentViewSchema = z.object({
  id: z.int(),
  plan: planSchema,
  status: paymentStatusSchema,
  amountPaise: z.int(),
  gst: z.object({ taxablePaise: z.int(), cgstPaise: z.int(), sgstPaise: z.int() }),
  provider: z.string(),
  payUrl: z.nullable(z.string()),
  createdAt: z.string(),
  paidAt: z.nullable(z.string()),
});

/** POST /api/payments/checkout (201): the payment and the gateway's page where it is paid. */
export const paymentCheckoutResponseSchema = successSchema({ payment: paymentViewSchema, payUrl: z.string() });

/** GET /api/payments/{id}: the payment as the server knows it, and its box's plan now. */
export const paymentResponseSchema = successSchema({
  payment: paymentViewSchema,
  plan: planResponseSchema.shape.plan,
});

/** GET /api/payments: the caller's payments, newest first. */
export const paymentListResponseSchema = successSchema({ data: z.array(paymentViewSchema) });

/** GET /api/admin/payments: every payment with the gateway's ids, and what reconciliation flagged. */
export const adminPaymentSchema = z.object({
  ...paymentViewSchema.shape,
  mobileNo: z.string(),
  deviceId: z.string(),
  gatewayLinkId: z.string(),
  gatewayOrderId: z.nullable(z.string()),
  gatewayPaymentId: z.nullable(z.string()),
  capturedPaise: z.nullable(z.int()),
  refundedPaise: z.int(),
  flag: z.nullable(z.string()),
});

export const reconFlagSchema = z.object({
  day: z.string(),
  kind: z.string(),
  gatewayRef: z.string(),
  paymentId: z.nullable(z.int()),
  detail: z.string(),
  createdAt: z.string(),
});

export const adminPaymentListResponseSchema = successSchema({
  data: z.array(adminPaymentSchema),
  reconFlags: z.array(reconFlagSchema),
});

/** GET /api/admin/payments/{id}: one payment and its audit trail, every verified webhook about it in order. */
export const adminPaymentResponseSchema = successSchema({
  payment: adminPaymentSchema,
  events: z.array(
    z.object({
      eventId: z.string(),
      type: z.string(),
      outcome: z.string(),
      gatewayPaymentId: z.nullable(z.string()),
      receivedAt: z.string(),
    }),
  ),
});
