import { createMiddleware } from "hono/factory";
import { type PumpAction, roleMay } from "../../common/pump-roles.ts";
import { deviceIdSchema } from "../../common/pump-schemas.ts";
import { type AuthenticatedUser, authenticateToken, readCredentials } from "../auth/sessions.ts";
import { type Audience, verifySessionToken } from "../auth/tokens.ts";
import { getDb } from "../db/client.ts";
import { type ApiErrorCode, apiError } from "../http/http-error.ts";
import { allowedAccess, type PumpAccess, type PumpTarget, sessionWithPump } from "../services/pump-access.ts";
import { auditTarget } from "./admin-audit-middleware.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput } from "./input.ts";

export type Audiences = readonly [Audience, ...Audience[]];

/**
 * The one way a request is authenticated, for HTTP calls and realtime upgrades alike: the
 * first area of `audiences` whose session (bearer token or that area's cookie) is valid and
 * `accepts` the user. A browser can hold a farmer and an admin session at once (an admin who
 * also farms), so a session that is valid but not accepted lets the next area try before
 * `refusal` is thrown. Roles are decided here, on the server, for every call.
 */
export function authenticateRequest(
  request: Request,
  env: Env,
  audiences: Audiences,
  accepts: (user: AuthenticatedUser) => boolean = () => true,
  refusal: ApiErrorCode = "forbidden",
): Promise<{ user: AuthenticatedUser; token: string }> {
  const find = async (token: string, audience: Audience) => {
    const user = await authenticateToken(env, token, audience);
    return user && { user };
  };
  return firstAccepted(request, env, audiences, find, { accepts, refusal });
}

/**
 * Authenticates a call about one box as `authenticateRequest` does, and reads the caller's
 * access to the box in the same D1 query as their session (the hot path of a tap over HTTP).
 * `access` is null when the box does not exist or is nothing to them. With sessions of two
 * areas (an admin who also farms, on an admin page about someone else's box), the first whose
 * access allows `action` is the caller; when none does, the first valid one is, and is refused.
 */
export function authenticatePumpRequest(
  request: Request,
  env: Env,
  audiences: Audiences,
  target: PumpTarget,
  action?: PumpAction,
): Promise<{ user: AuthenticatedUser; access: PumpAccess | null; token: string }> {
  const find = async (token: string, audience: Audience) => {
    const claims = await verifySessionToken(env.JWT_SECRET, token, audience);
    return claims && sessionWithPump(getDb(env.DB), claims, target);
  };
  return firstAccepted(request, env, audiences, find, {
    serves: (found) => action === undefined || (found.access !== null && roleMay(found.access.role, action)),
  });
}

async function firstAccepted<Found extends { user: AuthenticatedUser }>(
  request: Request,
  env: Env,
  audiences: Audiences,
  find: (token: string, audience: Audience) => Promise<Found | null>,
  {
    accepts = () => true,
    refusal = "forbidden",
    serves = () => true,
  }: {
    /** Whether the session's user may make the call at all; if none may, `refusal` (403). */
    accepts?: (user: AuthenticatedUser) => boolean;
    refusal?: ApiErrorCode;
    /** Whether this session serves the call; if not, the next area's is tried, and this one stands if none does. */
    serves?: (found: Found) => boolean;
  } = {},
): Promise<Found & { token: string }> {
  let sawCredentials = false;
  let refused = false;
  let fallback: (Found & { token: string }) | null = null;
  for (const audience of audiences) {
    const credentials = readCredentials(request, audience);
    if (!credentials) continue;
    sawCredentials = true;
    const found = await find(credentials.token, audience);
    if (!found) continue;
    if (!accepts(found.user)) {
      refused = true;
      continue;
    }
    if (serves(found)) return { ...found, token: credentials.token };
    fallback ??= { ...found, token: credentials.token };
  }
  if (fallback) return fallback;
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

/**
 * For a route about the box in its path (`:deviceId`): authenticates the call and reads the
 * caller's access to the box in one D1 query, into `c.var.user` and `c.var.pump`, if they may do
 * `action` with it (404 `pumpNotFound` if they may not see it, 403 if not this). Like every
 * route, it answers 401 or 403 for the session before 400 for a malformed id.
 */
export function requirePump(action: PumpAction, ...audiences: Audiences) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const deviceId = deviceIdSchema.safeParse(c.req.param("deviceId"));
    if (!deviceId.success) {
      // The caller is set before the 400 so that an admin's malformed write is on the audit trail too.
      const { user } = await authenticateRequest(c.req.raw, c.env, audiences);
      c.set("user", user);
      parseInput(deviceIdSchema, c.req.param("deviceId"));
      return;
    }
    const { user, access } = await authenticatePumpRequest(
      c.req.raw,
      c.env,
      audiences,
      { deviceId: deviceId.data },
      action,
    );
    c.set("user", user);
    auditTarget(c, deviceId.data); // an admin's look at or change of a box is on the trail
    c.set("pump", allowedAccess(access, action));
    await next();
  });
}
