// The admin audit trail's one middleware (docs/decisions/007-admin-audit-trail.md). It runs
// around every API call and records every write that an admin session authenticated, whatever
// its path (admin writes also live under /api/recharge, /api/devices and /api/mqtt) and
// whatever its outcome: successes, refusals (4xx) and failures (5xx) alike. Admin logins have
// no session yet; logIn records them, for this API and the login page alike.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { AuthenticatedUser } from "../auth/sessions.ts";
import { HttpError } from "../http/http-error.ts";
import { recordAdminAudit } from "../services/record-admin-action.ts";
import type { ApiEnv } from "./context.ts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Names what an admin write affects: a mobile number or device id as is, else `kind:id`. */
export function auditTarget(c: Context<ApiEnv>, target: string): void {
  c.set("auditTarget", target);
}

/** Keeps a write's validated input for the trail (JSON bodies do this in readJsonBody). */
export function auditInput(c: Context<ApiEnv>, input: unknown): void {
  c.set("auditInput", input);
}

export const auditAdminWrites = createMiddleware<ApiEnv>(async (c, next) => {
  if (READS.has(c.req.method)) return next();
  await next();
  // Unset when no session was accepted: strangers and farmers knocking are not admin actions
  // (and recording them would let anyone fill the table).
  const user = c.get("user") as AuthenticatedUser | undefined;
  if (user?.audience !== "admin") return;
  try {
    const status = c.res.status;
    const error = c.error;
    const input = c.get("auditInput");
    const details: Record<string, unknown> =
      input && typeof input === "object" && !Array.isArray(input) ? { ...input } : input === undefined ? {} : { input };
    // Why it was refused, as the refusal's code (worded in the reader's language when the trail
    // is shown); never an unexpected error's own text.
    if (status >= 400) {
      details.error = error instanceof HttpError ? error.code : "internal";
      if (error instanceof HttpError && Object.keys(error.params).length > 0) details.errorParams = error.params;
    }
    await recordAdminAudit(c.env, c.req.raw, {
      admin: { id: user.id, mobileNo: user.mobileNo },
      // The route and the route middleware share the pattern: the last matched is the route.
      action: `${c.req.method} ${routePath(c, -1)}`,
      target: c.get("auditTarget") ?? null,
      status,
      details,
    });
  } catch (error) {
    // The trail must never change the answer the admin's action already has.
    console.error(`admin audit: middleware failed for ${c.req.method} ${c.req.path}`, error);
  }
});
