import type { Plan } from "../../common/plans.ts";

/**
 * A standard UPI deep link (NPCI "upi://pay") for the amount, to the payee configured in
 * wrangler.toml; null when no payee is configured.
 */
export function upiPaymentLink(
  env: Pick<Env, "UPI_PAYEE_VPA" | "UPI_PAYEE_NAME">,
  payment: { amount: number; plan: Plan; requestId: number; deviceId: string },
): string | null {
  if (!env.UPI_PAYEE_VPA) return null;
  const params = new URLSearchParams({
    pa: env.UPI_PAYEE_VPA,
    pn: env.UPI_PAYEE_NAME || "Sinchai",
    am: payment.amount.toFixed(2),
    cu: "INR",
    tn: `Sinchai ${payment.plan} plan ${payment.deviceId}`,
    tr: `SINCHAI-${payment.requestId}`,
  });
  return `upi://pay?${params.toString().replace(/\+/g, "%20")}`;
}
