// Session helpers for loaders and actions of the user area.
import { type RouterContextProvider, redirect } from "react-router";
import {
  type Audience,
  type AuthenticatedUser,
  envOf,
  pageSessionOf,
  signedInUser,
} from "../worker/services/page-session.ts";

export { envOf, waitUntilOf } from "../worker/services/page-session.ts";

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
  const session = await pageSessionOf(envOf(context), request, audience);
  if (session.ok) return session.user;
  if (session.code === "invalidToken") {
    // Signed out by a new password set on another phone: the login page, saying so, since the
    // old password this phone may try there no longer works.
    const to =
      session.endedBy === "passwordChanged" && audience === "user"
        ? "/login?session=passwordChanged"
        : `${signInPath}?session=expired`;
    throw redirect(to, { headers: { "Set-Cookie": session.clearCookie } });
  }
  throw redirect(signInPath);
}

/** The signed-in farmer, or the landing page. */
export function requireUser(request: Request, context: Readonly<RouterContextProvider>): Promise<AuthenticatedUser> {
  return requireSession(request, context, "user", "/");
}

export function optionalUser(request: Request, context: Readonly<RouterContextProvider>) {
  return signedInUser(envOf(context), request, "user");
}

/**
 * The loader of the pages before sign-in (login, registration, a code): a signed-in farmer goes
 * straight to the dashboard (SPEC §2).
 */
export async function toDashboardIfSignedIn({
  request,
  context,
}: {
  request: Request;
  context: Readonly<RouterContextProvider>;
}): Promise<null> {
  if (await optionalUser(request, context)) throw redirect("/motor-control");
  return null;
}
