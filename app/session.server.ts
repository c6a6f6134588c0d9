// Session helpers for loaders and actions of the user area.
import { redirect, type RouterContextProvider } from "react-router";
import { clearedSessionCookie, readCookie, SESSION_COOKIE } from "../worker/auth/cookies.ts";
import { getSessionUser, type AuthenticatedUser } from "../worker/auth/sessions.ts";
import { cloudflareContext } from "../worker/http/router-context.ts";

export function envOf(context: Readonly<RouterContextProvider>): Env {
  return context.get(cloudflareContext).env;
}

/**
 * The signed-in user, or a redirect to the landing page (SPEC §2). A cookie that no longer
 * opens a session (expired, revoked) is cleared and the landing page says the session expired.
 */
export async function requireUser(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<AuthenticatedUser> {
  const user = await getSessionUser(envOf(context), request, "user");
  if (user) return user;
  if (readCookie(request, SESSION_COOKIE.user)) {
    throw redirect("/?session=expired", {
      headers: { "Set-Cookie": clearedSessionCookie(request, "user") },
    });
  }
  throw redirect("/");
}

export function optionalUser(request: Request, context: Readonly<RouterContextProvider>) {
  return getSessionUser(envOf(context), request, "user");
}
