// The owner's "OK" on the card that shows who installed their pump (docs/user-area.md, "The
// installer's visit"): a plain form from the user shell, so it works without JavaScript; the same
// service as POST /api/pumps/{deviceId}/installation/seen. It also hands the pump over, if the
// installer had not: from then on the installer can do nothing with it.
import { redirect } from "react-router";
import { pumpNameRequestSchema } from "../../common/pump-schemas.ts";
import { acknowledgeInstallation } from "../../worker/services/installer-visits.ts";
import { renamePump } from "../../worker/services/pump-names.ts";
import { field, isSameOriginRequest, readForm } from "../form.server.ts";
import { pumpInForm } from "../pump-choice.server.ts";
import { safeRedirectPath } from "../redirect-target.server.ts";
import { envOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/pump-installer";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const target = safeRedirectPath(form.get("next"), "/motor-control");
  if (!isSameOriginRequest(request)) return redirect(target);
  const env = envOf(context);
  const access = await pumpInForm(env, context.get(userContext), form, "see");
  // Only the owner takes the pump over; anyone else's post changes nothing.
  if (access.ok && access.pump.role === "owner") {
    // The name the card offered to give a pump without one; left empty, it keeps none.
    const named = pumpNameRequestSchema.safeParse({ name: field(form, "name") });
    if (access.pump.device.name === null && named.success && named.data.name !== null) {
      await renamePump(env, access.pump.device.id, named.data.name);
    }
    await acknowledgeInstallation(env, access.pump.device.id);
  }
  return redirect(target);
}

export function loader() {
  return redirect("/motor-control");
}
