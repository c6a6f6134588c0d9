// The words for plans, payment methods and a request's status, by their codes.
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

export function planName(plan: string, t: ReturnType<typeof useT>): string {
  return plan in PLAN_KEYS ? t(PLAN_KEYS[plan as Plan | "free"]) : plan;
}
