// Admin logout (SPEC §2): ends the session on the server, clears the cookie, back to the login.
import { redirect } from "react-router";
import { endPageSession } from "../../../worker/services/page-session.ts";
import { ADMIN_LOGOUT_PAGE_ACTION, recordAdminAudit } from "../../../worker/services/record-admin-action.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/logout";

export async function action({ request, context }: Route.ActionArgs) {
  const env = envOf(context);
  const { ended: admin, clearCookie } = await endPageSession(env, request, "admin");
  if (admin) {
    // The one admin write that does not go through the API (logins go through logIn, which
    // records them): on the trail with the status the API's logout would have answered.
    await recordAdminAudit(env, request, {
      admin: { id: admin.id, mobileNo: admin.mobileNo },
      action: ADMIN_LOGOUT_PAGE_ACTION,
      target: null,
      status: 200,
      details: {},
    });
  }
  return redirect("/admin/login?loggedOut=1", {
    headers: { "Set-Cookie": clearCookie },
  });
}

export function loader() {
  return redirect("/admin/login");
}
