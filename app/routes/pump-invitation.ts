// The invited person's answer to an owner's invitation (docs/decisions/018-shared-pumps.md),
// from the invitations every user page shows (the user shell): a plain form, so it works before
// (or without) JavaScript, and the same service as POST /api/pumps/{deviceId}/invitation.
// Accepting also chooses that pump, so the page the person returns to shows it.
import { redirect } from "react-router";
import { deviceIdSchema, invitationAnswerRequestSchema } from "../../common/pump-schemas.ts";
import { answerInvitation } from "../../worker/services/pump-members.ts";
import { field, isSameOriginRequest, readForm } from "../form.server.ts";
import { pumpCookie } from "../pump-choice.server.ts";
import { safeRedirectPath } from "../redirect-target.server.ts";
import { envOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/pump-invitation";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const target = safeRedirectPath(form.get("next"), "/motor-control");
  if (!isSameOriginRequest(request)) return redirect(target);
  const answer = invitationAnswerRequestSchema.safeParse({ answer: field(form, "answer") });
  const deviceId = deviceIdSchema.safeParse(field(form, "deviceId"));
  if (!answer.success || !deviceId.success) return redirect(target);
  const answered = await answerInvitation(envOf(context), context.get(userContext), deviceId.data, answer.data.answer);
  // Answered already (in another tab), or withdrawn: the page shows what is left.
  if (!answered.ok) return redirect(target);
  if (answer.data.answer === "decline") return redirect(target);
  return redirect(target, { headers: { "Set-Cookie": pumpCookie(request, deviceId.data) } });
}

export function loader() {
  return redirect("/motor-control");
}
