// Admin logout (SPEC §2): ends the session on the server, clears the cookie, back to the login.
import { redirect } from "react-router";
import { clearedSessionCookie } from "../../../worker/auth/cookies.ts";
import { endSession } from "../../../worker/auth/sessions.ts";
import { optionalAdmin } from "../../admin-session.server.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/logout";

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await optionalAdmin(request, context);
  if (admin) await endSession(envOf(context), admin.sessionId);
  return redirect("/admin/login?loggedOut=1", {
    headers: { "Set-Cookie": clearedSessionCookie(request, "admin") },
  });
}

export function loader() {
  return redirect("/admin/login");
}
