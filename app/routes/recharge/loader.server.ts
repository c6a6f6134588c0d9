// My Plan's data: the chosen pump's plan if the farmer owns it, their own requests and online
// payments, what to do next about paying for the request just made, and the payment the
// farmer came back from the gateway's page with (?payment=<id>): as the server knows it, never
// as the gateway's return parameters say.
import { onlinePayments, ownPayment, ownPayments, toPaymentView } from "../../../worker/services/payments.ts";
import { ownRechargesOf, rechargeUpiLink } from "../../../worker/services/recharge-requests.ts";
import { pumpContext } from "../../pump-choice.server.ts";
import { envOf } from "../../session.server.ts";
import { userContext } from "../../user-context.ts";
import type { Route } from "./+types/route";

/** How many times a page waiting for a payment's confirmation checks again by itself (every 3 s). */
export const PAYMENT_CHECKS = 40;

export async function loadPlanPage({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const env = envOf(context);
  // The plan is the owner's: a pump shared with this farmer shows whose it is, not its plan.
  const { chosen } = context.get(pumpContext);
  const device = chosen?.role === "owner" ? chosen.device : undefined;
  const url = new URL(request.url);
  const paymentId = Number(url.searchParams.get("payment"));
  const [{ requests, views, plan }, payments, returned] = await Promise.all([
    ownRechargesOf(env, user.id, device?.id ?? null),
    ownPayments(env, user.id),
    Number.isSafeInteger(paymentId) && paymentId > 0 ? ownPayment(env, user.id, paymentId) : Promise.resolve(null),
  ]);
  // The request just made (only ever one of this farmer's own): what to do next about paying.
  const submittedId = url.searchParams.get("submitted");
  const submitted = requests.find((row) => String(row.id) === submittedId);
  const checks = Math.max(0, Math.min(PAYMENT_CHECKS, Number(url.searchParams.get("check")) || 0));
  return {
    mobileNo: user.mobileNo,
    hasDevice: device !== undefined,
    deviceId: device?.id ?? "",
    ownerOnly: chosen !== null && chosen.role !== "owner",
    online: onlinePayments(env),
    plan,
    requests: views,
    payments: payments.map(toPaymentView),
    submitted: submitted ? { paymentMethod: submitted.paymentMethod, upiLink: rechargeUpiLink(env, submitted) } : null,
    returned: returned
      ? {
          payment: toPaymentView(returned.payment),
          expiresAt: returned.plan?.expiresAt ?? null,
          /** Where the page goes to check again while it waits, or null once it stops. */
          checkAgain:
            (returned.payment.status === "created" || returned.payment.status === "failed") && checks < PAYMENT_CHECKS
              ? `/recharge?payment=${returned.payment.id}&check=${checks + 1}`
              : null,
        }
      : null,
  };
}
