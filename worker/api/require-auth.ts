import { createMiddleware } from "hono/factory";
import { type AuthenticatedUser, authenticateToken, readCredentials } from "../auth/sessions.ts";
import type { Audience } from "../auth/tokens.ts";
import { type ApiErrorCode, apiError } from "../http/http-error.ts";
import type { ApiEnv } from "./context.ts";

type Audiences = readonly [Audience, ...Audience[]];

/**
 * The one way a request is authenticated, for HTTP calls and realtime upgrades alike: the
 * first area of `audiences` whose session (bearer token or that area's cookie) is valid and
 * `accepts` the user. A browser can hold a farmer and an admin session at once (an admin who
 * also farms), so a session that is valid but not accepted lets the next area try before
 * `refusal` is thrown. Roles are decided here, on the server, for every call.
 */
export async function authenticateRequest(
  request: Request,
  env: Env,
  audiences: Audiences,
  accepts: (user: AuthenticatedUser) => boolean = () => true,
  refusal: ApiErrorCode = "forbidden",
): Promise<{ user: AuthenticatedUser; token: string }> {
  let sawCredentials = false;
  let refused = false;
  for (const audience of audiences) {
    const credentials = readCredentials(request, audience);
    if (!credentials) continue;
    sawCredentials = true;
    const user = await authenticateToken(env, credentials.token, audience);
    if (!user) continue;
    if (accepts(user)) return { user, token: credentials.token };
    refused = true;
  }
  if (refused) throw apiError(403, refusal);
  // A valid session of the other area (a farmer calling an admin API, by token or by cookie):
  // signed in, not allowed.
  for (const other of (["user", "admin"] satisfies Audience[]).filter((audience) => !audiences.includes(audience))) {
    const credentials = readCredentials(request, other);
    if (credentials && (await authenticateToken(env, credentials.token, other))) {
      throw apiError(403, "forbidden");
    }
  }
  throw apiError(401, sawCredentials ? "invalidToken" : "missingToken");
}

/** Authenticates every call of a router for one area, or the first of several, into `c.var.user`. */
export function requireAuth(...audiences: Audiences) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const { user } = await authenticateRequest(c.req.raw, c.env, audiences);
    c.set("user", user);
    await next();
  });
}
