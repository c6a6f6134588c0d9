import { createMiddleware } from "hono/factory";
import { isSameOriginRequest } from "../auth/same-origin.ts";
import { authenticateToken, readCredentials } from "../auth/sessions.ts";
import type { Audience } from "../auth/tokens.ts";
import { HttpError, INVALID_TOKEN_MESSAGE } from "../http-error.ts";
import type { ApiEnv } from "./context.ts";

export const MISSING_TOKEN_MESSAGE = "Missing token. Please log in again.";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Authenticates the caller for an area (bearer token or that area's cookie) and puts the
 * user in `c.var.user`. Roles are decided here, on the server, for every call.
 */
export function requireAuth(audience: Audience) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const credentials = readCredentials(c.req.raw, audience);
    if (!credentials) throw new HttpError(401, MISSING_TOKEN_MESSAGE);
    if (
      credentials.source === "cookie" &&
      !SAFE_METHODS.has(c.req.method) &&
      !isSameOriginRequest(c.req.raw)
    ) {
      throw new HttpError(403, "Cross-site request refused.");
    }
    const user = await authenticateToken(c.env, credentials.token, audience);
    if (!user) throw new HttpError(401, INVALID_TOKEN_MESSAGE);
    c.set("user", user);
    await next();
  });
}
