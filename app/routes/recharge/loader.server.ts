// My Plan's data: the chosen pump's plan if the farmer owns it, their own requests, and what to
// do next about paying for the one just made.
import { ownRechargesOf, rechargeUpiLink } from "../../../worker/services/recharge-requests.ts";
import { pumpContext } from "../../pump-choice.server.ts";
import { envOf } from "../../session.server.ts";
import { userContext } from "../../user-context.ts";
import type { Route } from "./+types/route";

export async function loadPlanPage({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const env = envOf(context);
  // The plan is the owner's: a pump shared with this farmer shows whose it is, not its plan.
  const { chosen } = context.get(pumpContext);
  const device = chosen?.role === "owner" ? chosen.device : undefined;
  const { requests, views, plan } = await ownRechargesOf(env, user.id, device?.id ?? null);
  // The request just made (only ever one of this farmer's own): what to do next about paying.
  const submittedId = new URL(request.url).searchParams.get("submitted");
  const submitted = requests.find((row) => String(row.id) === submittedId);
  return {
    mobileNo: user.mobileNo,
    hasDevice: device !== undefined,
    deviceId: device?.id ?? "",
    ownerOnly: chosen !== null && chosen.role !== "owner",
    plan,
    requests: views,
    submitted: submitted ? { paymentMethod: submitted.paymentMethod, upiLink: rechargeUpiLink(env, submitted) } : null,
  };
}
