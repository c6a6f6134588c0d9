// The browser's realtime socket (SPEC §4): `GET /api/realtime?mobileNo=...` with the session
// cookie (or a bearer token from API clients). A user may watch only their own device; an
// admin any device.
import { Hono } from "hono";
import { mobileNoSchema } from "../../common/api-schemas.ts";
import { recordWatch } from "../auth/session-sockets.ts";
import { authenticateToken } from "../auth/sessions.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwnerMobileNo } from "../db/devices.ts";
import { apiError } from "../http/http-error.ts";
import { deviceHub, hubSocketAnswer, hubSocketRequest } from "../hubs/device-hubs.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput } from "./input.ts";
import { authenticateRequest } from "./require-auth.ts";

export const realtimeRoutes = new Hono<ApiEnv>().get("/", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    throw apiError(426, "expectedWebSocket");
  }
  const mobileNo = parseInput(mobileNoSchema, c.req.query("mobileNo"));
  // The farmer who owns the number, or an admin. Browsers send cookies with cross-site
  // WebSocket upgrades too (no CORS here): such an upgrade is refused before it gets here
  // (worker/http/cross-site.ts).
  const { user: viewer, token } = await authenticateRequest(
    c.req.raw,
    c.env,
    ["user", "admin"],
    (user) => user.audience === "admin" || user.mobileNo === mobileNo,
    "notYourWatch",
  );
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
  return hubSocketAnswer(response);
});
