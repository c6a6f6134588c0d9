// A renewal on the server, always for the signed-in farmer, priced by the server. UPI, where this
// environment takes payments online, goes to the payment gateway's page (a redirect the browser
// follows with or without script; docs/payments.md); anything else (bank, cash at a dealer, and
// UPI where online payment is off) is the same request as POST /api/recharge/request.
import { data, redirect } from "react-router";
import { paymentMethodSchema, planSchema } from "../../../common/plans.ts";
import { languageOf } from "../../../worker/services/page-request.ts";
import type { AuthenticatedUser } from "../../../worker/services/page-session.ts";
import { onlinePayments, startCheckout } from "../../../worker/services/payments.ts";
import { requestOwnRecharge } from "../../../worker/services/recharge-requests.ts";
import { field } from "../../form-field.ts";
import type { MessageKey } from "../../i18n/i18n.ts";

type Refusal = { error: { key: MessageKey; detail: MessageKey | null } };

export const refused = (key: MessageKey, detail: MessageKey | null, status: number) =>
  data<Refusal>({ error: { key, detail } }, { status });

export async function requestRecharge(env: Env, user: AuthenticatedUser, form: FormData, request: Request) {
  const plan = planSchema.safeParse(field(form, "plan"));
  const paymentMethod = paymentMethodSchema.safeParse(field(form, "paymentMethod"));
  if (!plan.success || !paymentMethod.success) return refused("plan.submitFailed", "plan.choose", 400);
  if (paymentMethod.data === "upi" && onlinePayments(env)) {
    const checkout = await startCheckout(
      env,
      user,
      { plan: plan.data, deviceId: field(form, "pump") },
      new URL(request.url).origin,
      languageOf(request),
    );
    if (checkout.ok) return redirect(checkout.payment.payUrl);
    const reason =
      checkout.code === "noDevice"
        ? "motor.noDevice"
        : checkout.code === "paymentGatewayFailed"
          ? "plan.gatewayDown"
          : null;
    return refused("plan.submitFailed", reason, checkout.status);
  }
  const submitted = await requestOwnRecharge(env, user, {
    plan: plan.data,
    paymentMethod: paymentMethod.data,
    deviceId: field(form, "pump"),
  });
  if (submitted.ok) return redirect(`/recharge?submitted=${submitted.request.id}`);
  // The API's refusal, worded by the page from its code.
  const reason =
    submitted.code === "noDevice"
      ? "motor.noDevice"
      : submitted.code === "pendingRecharge"
        ? "plan.alreadyPending"
        : null;
  return refused("plan.submitFailed", reason, submitted.status);
}
