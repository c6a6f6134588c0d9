// Session helpers for the admin area's loaders and actions: the admin equivalent of
// ./session.server.ts. The admin session is its own cookie (sinchai_admin_session, Strict).
import { createContext, redirect, type RouterContextProvider } from "react-router";
import { clearedSessionCookie, readCookie, SESSION_COOKIE } from "../worker/auth/cookies.ts";
import { getSessionUser, type AuthenticatedUser } from "../worker/auth/sessions.ts";
import { HttpError } from "../worker/http/http-error.ts";
import type { AdminMessageKey } from "./i18n/admin-en.ts";
import { envOf } from "./session.server.ts";

/** Set by the admin shell's middleware: every admin page authenticates once, on the server. */
export const adminContext = createContext<AuthenticatedUser>();

/**
 * The signed-in admin, or a redirect to /admin/login. A cookie that no longer opens an admin
 * session (expired, logged out, role removed, account deleted) is cleared and the login page
 * says the session expired (SPEC §8).
 */
export async function requireAdmin(request: Request, context: Readonly<RouterContextProvider>): Promise<AuthenticatedUser> {
  const admin = await getSessionUser(envOf(context), request, "admin");
  if (admin) return admin;
  if (readCookie(request, SESSION_COOKIE.admin)) {
    throw redirect("/admin/login?session=expired", {
      headers: { "Set-Cookie": clearedSessionCookie(request, "admin") },
    });
  }
  throw redirect("/admin/login");
}

export function optionalAdmin(request: Request, context: Readonly<RouterContextProvider>) {
  return getSessionUser(envOf(context), request, "admin");
}

export type LoadResult<T> = { data: T; error: null } | { data: null; error: AdminMessageKey };

/**
 * Runs a page loader's reads. A failure becomes the page's own message (SPEC §8) inside the
 * admin shell instead of an error page; unexpected ones are logged here, on the server.
 */
export async function loadOrMessage<T>(load: () => Promise<T>, failed: AdminMessageKey): Promise<LoadResult<T>> {
  try {
    return { data: await load(), error: null };
  } catch (error) {
    if (!(error instanceof HttpError)) console.error("admin page: loading failed", error);
    return { data: null, error: failed };
  }
}
