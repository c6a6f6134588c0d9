import { createMiddleware } from "hono/factory";
import { isSameOriginRequest } from "../auth/same-origin.ts";
import { authenticateToken, readCredentials } from "../auth/sessions.ts";
import type { Audience } from "../auth/tokens.ts";
import { apiError } from "../http-error.ts";
import type { ApiEnv } from "./context.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Authenticates the caller for one area, or the first of several that accepts it (bearer
 * token or that area's cookie), and puts the user in `c.var.user`. Roles are decided here,
 * on the server, for every call.
 */
export function requireAuth(...audiences: [Audience, ...Audience[]]) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    let sawCredentials = false;
    for (const audience of audiences) {
      const credentials = readCredentials(c.req.raw, audience);
      if (!credentials) continue;
      sawCredentials = true;
      if (
        credentials.source === "cookie" &&
        !SAFE_METHODS.has(c.req.method) &&
        !isSameOriginRequest(c.req.raw)
      ) {
        throw apiError(403, "crossSite");
      }
      const user = await authenticateToken(c.env, credentials.token, audience);
      if (user) {
        c.set("user", user);
        await next();
        return;
      }
    }
    // A valid session of the other area (a farmer calling an admin API, by token or by
    // cookie): signed in, not allowed.
    for (const other of (["user", "admin"] satisfies Audience[]).filter((audience) => !audiences.includes(audience))) {
      const credentials = readCredentials(c.req.raw, other);
      if (credentials && (await authenticateToken(c.env, credentials.token, other))) {
        throw apiError(403, "forbidden");
      }
    }
    throw apiError(401, sawCredentials ? "invalidToken" : "missingToken");
  });
}
