// Session helpers for the admin area's loaders and actions: the admin equivalent of
// ./session.server.ts. The admin session is its own cookie (sinchai_admin_session, Strict).
import { createContext, type RouterContextProvider } from "react-router";
import type { AdminMessageKey } from "../common/i18n/admin-en.ts";
import { type AuthenticatedUser, signedInUser } from "../worker/services/page-session.ts";
import { isRefusalError } from "../worker/services/refusal.ts";
import { envOf, requireSession } from "./session.server.ts";

/** Set by the admin shell's middleware: every admin page authenticates once, on the server. */
export const adminContext = createContext<AuthenticatedUser>();

/** The signed-in admin, or /admin/login. */
export function requireAdmin(request: Request, context: Readonly<RouterContextProvider>): Promise<AuthenticatedUser> {
  return requireSession(request, context, "admin", "/admin/login");
}

export function optionalAdmin(request: Request, context: Readonly<RouterContextProvider>) {
  return signedInUser(envOf(context), request, "admin");
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
    if (!isRefusalError(error)) console.error("admin page: loading failed", error);
    return { data: null, error: failed };
  }
}
