// The sessions of the pages (app/session.server.ts, app/admin-session.server.ts and the routes
// that sign out or keep a choice): who is signed in, from the area's cookie; the cookies that
// keep it, end it or remember a choice; and the Worker's bindings a loader or action runs with.
// The pages' one door to worker/auth for sessions (docs/architecture.md, "Pages and the server").
import type { RouterContextProvider } from "react-router";
import { clearedSessionCookie, httpOnlyCookie, readCookie, SESSION_COOKIE } from "../auth/cookies.ts";
import {
  type AuthenticatedUser,
  endReasonOf,
  endSession,
  getSessionUser,
  renewSession,
  type SessionEndReason,
} from "../auth/sessions.ts";
import type { Audience } from "../auth/tokens.ts";
import { cloudflareContext } from "../http/router-context.ts";

export type { Audience, AuthenticatedUser, SessionEndReason };

/** The Worker's bindings, as the worker entry handed them to this loader or action. */
export function envOf(context: Readonly<RouterContextProvider>): Env {
  return context.get(cloudflareContext).env;
}

/** For work that goes on after the answer (an SMS): the request's `waitUntil`. */
export function waitUntilOf(context: Readonly<RouterContextProvider>): (promise: Promise<unknown>) => void {
  const { ctx } = context.get(cloudflareContext);
  return (promise) => ctx.waitUntil(promise);
}

/** The signed-in person of an area, or null. */
export function signedInUser(env: Env, request: Request, audience: Audience): Promise<AuthenticatedUser | null> {
  return getSessionUser(env, request, audience);
}

/**
 * The signed-in person of an area; else why not: no cookie of that area (`missingToken`), or one
 * that no longer opens a session of it (`invalidToken`: expired, logged out, role removed,
 * account deleted), with the header that clears it and, when the session's row says, why it
 * ended (`endedBy`: a new password set elsewhere).
 */
export async function pageSessionOf(
  env: Env,
  request: Request,
  audience: Audience,
): Promise<
  | { ok: true; user: AuthenticatedUser }
  | { ok: false; code: "missingToken" }
  | { ok: false; code: "invalidToken"; clearCookie: string; endedBy: SessionEndReason | null }
> {
  const user = await getSessionUser(env, request, audience);
  if (user) return { ok: true, user };
  if (readCookie(request, SESSION_COOKIE[audience])) {
    return {
      ok: false,
      code: "invalidToken",
      clearCookie: clearedSessionCookie(request, audience),
      endedBy: await endReasonOf(env, request, audience),
    };
  }
  return { ok: false, code: "missingToken" };
}

/** The renewed session cookie when a farmer's page slides the session on; null when not due. */
export function renewedSessionCookie(env: Env, request: Request, user: AuthenticatedUser): Promise<string | null> {
  return renewSession(env, request, user);
}

/**
 * Logout: ends the area's session of this request on the server, if there is one (its token and
 * its sockets stop at once), and gives the header that clears its cookie either way.
 */
export async function endPageSession(
  env: Env,
  request: Request,
  audience: Audience,
): Promise<{ ended: AuthenticatedUser | null; clearCookie: string }> {
  const user = await getSessionUser(env, request, audience);
  if (user) await endSession(env, user.sessionId);
  return { ended: user, clearCookie: clearedSessionCookie(request, audience) };
}

/** A cookie of a page's own (the language, the chosen pump): only the server reads it. */
export function pageCookie(
  request: Request,
  name: string,
  value: string,
  options: { sameSite: "Strict" | "Lax"; maxAgeSeconds: number },
): string {
  return httpOnlyCookie(request, name, value, options);
}

/** A cookie's value by its bare name (the `__Host-` prefix is the cookies' business). */
export function pageCookieValue(request: Request, name: string): string | undefined {
  return readCookie(request, name);
}
