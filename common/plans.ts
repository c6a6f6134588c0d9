// Connectivity plans (SPEC §9): what a farmer can buy after the free first year.
// zod's small build: the recharge page parses with these (common/zod-mini.ts).
import { z } from "./zod-mini.ts";

export const planSchema = z.enum(["1month", "3month", "6month", "1year"], {
  error: "must be one of 1month, 3month, 6month, 1year",
});
export type Plan = z.infer<typeof planSchema>;

export const paymentMethodSchema = z.enum(["upi", "bank", "cash"], {
  error: "must be one of upi, bank, cash",
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const rechargeStatusSchema = z.enum(["pending", "paid", "failed"]);
export type RechargeStatus = z.infer<typeof rechargeStatusSchema>;

/** Amounts in rupees and lengths in months. The server always sets the amount from here. */
export const PLANS: Record<Plan, { amount: number; months: number }> = {
  "1month": { amount: 399, months: 1 },
  "3month": { amount: 777, months: 3 },
  "6month": { amount: 999, months: 6 },
  "1year": { amount: 1111, months: 12 },
};

/** The best value, chosen by default in the request form. */
export const DEFAULT_PLAN: Plan = "1year";
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = "upi";

/** Every device comes with its first year of connectivity free, from activation. */
export const FREE_PLAN_MONTHS = 12;

/** `months` calendar months after `from` (ms), in India time: 1 May → 1 June, 31 Jan → 28/29 Feb. */
export function addMonths(from: number, months: number): number {
  const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;
  const local = new Date(from + IST_OFFSET_MS);
  const day = local.getUTCDate();
  const target = new Date(local.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.getTime() - IST_OFFSET_MS;
}
