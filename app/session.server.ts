// Session helpers for loaders and actions of the user area.
import { type RouterContextProvider, redirect } from "react-router";
import { clearedSessionCookie, readCookie, SESSION_COOKIE } from "../worker/auth/cookies.ts";
import { type AuthenticatedUser, getSessionUser } from "../worker/auth/sessions.ts";
import type { Audience } from "../worker/auth/tokens.ts";
import { cloudflareContext } from "../worker/http/router-context.ts";

export function envOf(context: Readonly<RouterContextProvider>): Env {
  return context.get(cloudflareContext).env;
}

/** For work that goes on after the answer (an SMS): the request's `waitUntil`. */
export function waitUntilOf(context: Readonly<RouterContextProvider>): (promise: Promise<unknown>) => void {
  const { ctx } = context.get(cloudflareContext);
  return (promise) => ctx.waitUntil(promise);
}

/**
 * The signed-in person of one area, or a redirect to where that area signs in. A cookie that
 * no longer opens a session of it (expired, logged out, role removed, account deleted) is
 * cleared and that page says the session expired (SPEC §2, §8).
 */
export async function requireSession(
  request: Request,
  context: Readonly<RouterContextProvider>,
  audience: Audience,
  signInPath: string,
): Promise<AuthenticatedUser> {
  const user = await getSessionUser(envOf(context), request, audience);
  if (user) return user;
  if (readCookie(request, SESSION_COOKIE[audience])) {
    throw redirect(`${signInPath}?session=expired`, {
      headers: { "Set-Cookie": clearedSessionCookie(request, audience) },
    });
  }
  throw redirect(signInPath);
}

/** The signed-in farmer, or the landing page. */
export function requireUser(request: Request, context: Readonly<RouterContextProvider>): Promise<AuthenticatedUser> {
  return requireSession(request, context, "user", "/");
}

export function optionalUser(request: Request, context: Readonly<RouterContextProvider>) {
  return getSessionUser(envOf(context), request, "user");
}
