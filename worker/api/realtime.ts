// The browser's realtime socket (SPEC §4): `GET /api/realtime?mobileNo=...` with the session
// cookie (or a bearer token from API clients). A user may watch only their own device; an
// admin any device.
import { Hono } from "hono";
import { mobileNoSchema } from "../../common/api-schemas.ts";
import { isSameOriginRequest } from "../auth/same-origin.ts";
import { recordWatch } from "../auth/session-sockets.ts";
import { authenticateToken, readCredentials, type AuthenticatedUser } from "../auth/sessions.ts";
import type { Audience } from "../auth/tokens.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwnerMobileNo } from "../db/devices.ts";
import { deviceHub, hubSocketRequest } from "../device-hubs.ts";
import { apiError } from "../http-error.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput } from "./input.ts";

/**
 * The caller allowed to watch `mobileNo`: the farmer who owns it, or an admin. A browser can
 * hold both sessions (an admin who also farms): the farmer session is tried first and, when
 * the number is not theirs, the admin session after it.
 */
async function authenticateViewer(
  request: Request,
  env: Env,
  mobileNo: string,
): Promise<{ viewer: AuthenticatedUser; token: string }> {
  let sawCredentials = false;
  let refused = false;
  for (const audience of ["user", "admin"] satisfies Audience[]) {
    const credentials = readCredentials(request, audience);
    if (!credentials) continue;
    sawCredentials = true;
    // Browsers send cookies with cross-site WebSocket upgrades too (no CORS here).
    if (credentials.source === "cookie" && !isSameOriginRequest(request)) {
      throw apiError(403, "crossSite");
    }
    const user = await authenticateToken(env, credentials.token, audience);
    if (!user) continue;
    if (audience === "admin" || user.mobileNo === mobileNo) return { viewer: user, token: credentials.token };
    refused = true;
  }
  if (refused) throw apiError(403, "notYourWatch");
  throw apiError(401, sawCredentials ? "invalidToken" : "missingToken");
}

export const realtimeRoutes = new Hono<ApiEnv>().get("/", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    throw apiError(426, "expectedWebSocket");
  }
  const mobileNo = parseInput(mobileNoSchema, c.req.query("mobileNo"));
  const { viewer, token } = await authenticateViewer(c.req.raw, c.env, mobileNo);
  const isAdminViewer = viewer.audience === "admin";
  const found = await findDeviceByOwnerMobileNo(getDb(c.env.DB), mobileNo);
  if (!found) throw apiError(404, "noDeviceForNumber");
  const hub = deviceHub(c.env, found.device.id);
  // Recorded before the hub accepts the socket: an end of this session from now on finds it.
  await recordWatch(c.env, {
    sessionId: viewer.sessionId,
    userId: viewer.id,
    audience: viewer.audience,
    deviceId: found.device.id,
    expiresAt: viewer.sessionExpiresAt,
  });
  const response = await hub.fetch(
    hubSocketRequest({
      role: "browser",
      viewerId: viewer.id,
      viewerRole: isAdminViewer ? "admin" : "user",
      sessionId: viewer.sessionId,
      sessionExpiresAt: viewer.sessionExpiresAt,
    }),
  );
  // An end that came between the check above and the hub's accept could not reach the socket
  // yet: one more look closes it. (Any later end finds the watch recorded above.)
  if (response.status === 101 && !(await authenticateToken(c.env, token, viewer.audience))) {
    await hub.closeViewerSockets({ sessionIds: [viewer.sessionId] }, isAdminViewer ? "accessRemoved" : "signedOut");
  }
  return response;
});
