// Ends the session on the server as well as in the browser (SPEC §2: Logout).
import { redirect } from "react-router";
import { clearedSessionCookie } from "../../worker/auth/cookies.ts";
import { endSession, getSessionUser } from "../../worker/auth/sessions.ts";
import { readForm } from "../form.server.ts";
import { envOf } from "../session.server.ts";
import type { Route } from "./+types/logout";

export async function action({ request, context }: Route.ActionArgs) {
  const env = envOf(context);
  const user = await getSessionUser(env, request, "user");
  if (user) await endSession(env, user.sessionId);
  // Logout on /logs goes to /login (SPEC §2); everywhere else home, saying it worked.
  const next = (await readForm(request)).get("next") === "/login" ? "/login" : "/?loggedOut=1";
  return redirect(next, {
    headers: { "Set-Cookie": clearedSessionCookie(request, "user") },
  });
}

export function loader() {
  return redirect("/");
}
