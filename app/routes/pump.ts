// The pump switcher's post: a plain form, so a farmer's tap works before the page's script
// has arrived. The choice is kept only if the farmer may see that pump (the list the user
// shell resolved from D1 for this very request); the pages check it again on every request.
import { redirect } from "react-router";
import { field, isSameOriginRequest, readForm } from "../form.server.ts";
import { pumpContext, pumpCookie } from "../pump-choice.server.ts";
import { safeRedirectPath } from "../redirect-target.server.ts";
import type { Route } from "./+types/pump";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const target = safeRedirectPath(form.get("next"), "/motor-control");
  if (!isSameOriginRequest(request)) return redirect(target);
  const deviceId = field(form, "deviceId");
  const { pumps } = context.get(pumpContext);
  if (!pumps.some(({ device }) => device.id === deviceId)) return redirect(target);
  return redirect(target, { headers: { "Set-Cookie": pumpCookie(request, deviceId) } });
}

export function loader() {
  return redirect("/motor-control");
}
