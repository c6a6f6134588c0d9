// The environment's payment gateway, from `wrangler.toml` vars and its two secrets
// (docs/payments.md, "Configuration"). The gateway's API host is the one it publishes, never
// anything else, except in local mode: there PAYMENT_LOCAL_URL points the adapter at the local
// gateway (payments-sim/), and only a loopback address is accepted (as TELEPHONY_LOCAL_URL).
// An empty PAYMENT_PROVIDER turns online payment off: UPI recharges go back to being requests
// an admin marks paid.
import { isLocalProviderUrl } from "../telephony/config.ts";
import type { PaymentProvider } from "./provider.ts";
import { RAZORPAY_API_BASE, razorpayProvider } from "./razorpay.ts";

export type PaymentEnv = Pick<
  Env,
  "PAYMENT_PROVIDER" | "RAZORPAY_KEY_ID" | "RAZORPAY_KEY_SECRET" | "RAZORPAY_WEBHOOK_SECRET" | "PAYMENT_LOCAL_URL"
>;

/** Whether this environment takes payments online at all. */
export function paymentsEnabled(env: Pick<Env, "PAYMENT_PROVIDER">): boolean {
  return (env.PAYMENT_PROVIDER as string) !== "";
}

/** The gateway this environment is configured for, or why none can be made. */
export function paymentProvider(
  env: PaymentEnv,
  fetcher: typeof fetch = (input, init) => fetch(input, init),
): { ok: true; provider: PaymentProvider } | { ok: false; problem: string } {
  if (env.PAYMENT_PROVIDER !== "razorpay") return { ok: false, problem: "PAYMENT_PROVIDER is not razorpay" };
  const local = env.PAYMENT_LOCAL_URL ?? "";
  if (local !== "" && !isLocalProviderUrl(local)) {
    return { ok: false, problem: "PAYMENT_LOCAL_URL must be empty or a loopback http:// address with a port" };
  }
  if (!/^rzp_(test|live)_[A-Za-z0-9]{1,32}$/.test(env.RAZORPAY_KEY_ID)) {
    return { ok: false, problem: "RAZORPAY_KEY_ID is not a Razorpay key id (rzp_test_... or rzp_live_...)" };
  }
  if (!env.RAZORPAY_KEY_SECRET) return { ok: false, problem: "the secret RAZORPAY_KEY_SECRET is not set" };
  if (!env.RAZORPAY_WEBHOOK_SECRET || env.RAZORPAY_WEBHOOK_SECRET.length < 32) {
    return { ok: false, problem: "the secret RAZORPAY_WEBHOOK_SECRET must be at least 32 characters" };
  }
  return {
    ok: true,
    provider: razorpayProvider(
      {
        keyId: env.RAZORPAY_KEY_ID,
        keySecret: env.RAZORPAY_KEY_SECRET,
        webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
        apiBase: local !== "" ? new URL(local).origin : RAZORPAY_API_BASE,
      },
      fetcher,
    ),
  };
}
