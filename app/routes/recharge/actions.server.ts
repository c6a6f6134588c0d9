// A renewal request on the server: the same request as POST /api/recharge/request, always for
// the signed-in farmer, priced by the server.
import { data, redirect } from "react-router";
import { paymentMethodSchema, planSchema } from "../../../common/plans.ts";
import type { AuthenticatedUser } from "../../../worker/services/page-session.ts";
import { requestOwnRecharge } from "../../../worker/services/recharge-requests.ts";
import { field } from "../../form-field.ts";
import type { MessageKey } from "../../i18n/i18n.ts";

type Refusal = { error: { key: MessageKey; detail: MessageKey | null } };

export const refused = (key: MessageKey, detail: MessageKey | null, status: number) =>
  data<Refusal>({ error: { key, detail } }, { status });

export async function requestRecharge(env: Env, user: AuthenticatedUser, form: FormData) {
  const plan = planSchema.safeParse(field(form, "plan"));
  const paymentMethod = paymentMethodSchema.safeParse(field(form, "paymentMethod"));
  if (!plan.success || !paymentMethod.success) return refused("plan.submitFailed", "plan.choose", 400);
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
