// The words for plans, payment methods, a request's status and an online payment's, by their codes.
import type { PaymentStatus } from "../../../common/api-responses/payments.ts";
import type { PaymentMethod, Plan } from "../../../common/plans.ts";
import type { MessageKey, useT } from "../../i18n/i18n.ts";

const PLAN_KEYS: Record<Plan | "free", MessageKey> = {
  free: "plan.name.free",
  "1month": "plan.name.1month",
  "3month": "plan.name.3month",
  "6month": "plan.name.6month",
  "1year": "plan.name.1year",
};

export const METHOD_KEYS: Record<PaymentMethod, MessageKey> = {
  upi: "plan.method.upi",
  bank: "plan.method.bank",
  cash: "plan.method.cash",
};

export const STATUS_KEYS: Record<string, MessageKey> = {
  pending: "plan.request.pending",
  paid: "plan.request.paid",
  failed: "plan.request.failed",
};

export const PAYMENT_STATUS_KEYS: Record<PaymentStatus, MessageKey> = {
  created: "plan.paymentStatus.created",
  paid: "plan.paymentStatus.paid",
  failed: "plan.paymentStatus.failed",
  held: "plan.paymentStatus.held",
  refunded: "plan.paymentStatus.refunded",
};

export const PAYMENT_BADGES: Record<PaymentStatus, string> = {
  created: "wait",
  paid: "ok",
  failed: "bad",
  held: "wait",
  refunded: "bad",
};

export function planName(plan: string, t: ReturnType<typeof useT>): string {
  return plan in PLAN_KEYS ? t(PLAN_KEYS[plan as Plan | "free"]) : plan;
}
