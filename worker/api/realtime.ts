// The browser's realtime socket (SPEC §4): `GET /api/realtime?mobileNo=...` (the owner's first
// box) or `?deviceId=...` (any box the caller may see: their own, one shared with them), with
// the session cookie (or a bearer token from API clients). An admin may watch any box.
import { Hono } from "hono";
import { mobileNoSchema } from "../../common/api-schemas.ts";
import { deviceIdSchema } from "../../common/pump-schemas.ts";
import { recordWatch } from "../auth/session-sockets.ts";
import { authenticateToken } from "../auth/sessions.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwnerMobileNo } from "../db/devices.ts";
import { apiError } from "../http/http-error.ts";
import { deviceHub, hubSocketAnswer, hubSocketRequest } from "../hubs/device-hubs.ts";
import { pumpAccessOf } from "../services/pump-access.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput } from "./input.ts";
import { authenticateRequest } from "./require-auth.ts";

export const realtimeRoutes = new Hono<ApiEnv>().get("/", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    throw apiError(426, "expectedWebSocket");
  }
  const deviceIdParam = c.req.query("deviceId");
  const target =
    deviceIdParam === undefined
      ? { mobileNo: parseInput(mobileNoSchema, c.req.query("mobileNo")), deviceId: undefined }
      : { deviceId: parseInput(deviceIdSchema, deviceIdParam), mobileNo: undefined };
  // The farmer who owns the number or may see the box, or an admin. Browsers send cookies
  // with cross-site WebSocket upgrades too (no CORS here): such an upgrade is refused before
  // it gets here (worker/http/cross-site.ts).
  const { user: viewer, token } = await authenticateRequest(
    c.req.raw,
    c.env,
    ["user", "admin"],
    (user) => user.audience === "admin" || target.mobileNo === undefined || user.mobileNo === target.mobileNo,
    "notYourWatch",
  );
  const isAdminViewer = viewer.audience === "admin";
  const db = getDb(c.env.DB);
  // A box by its id (any the caller may see), or SPEC §4's owner's number (their first box).
  const deviceId =
    target.deviceId === undefined
      ? (await findDeviceByOwnerMobileNo(db, target.mobileNo))?.device.id
      : (await pumpAccessOf(db, viewer, target.deviceId))?.device.id;
  if (!deviceId) throw apiError(404, target.deviceId === undefined ? "noDeviceForNumber" : "pumpNotFound");
  const hub = deviceHub(c.env, deviceId);
  // Recorded before the hub accepts the socket: an end of this session from now on finds it.
  await recordWatch(c.env, {
    sessionId: viewer.sessionId,
    userId: viewer.id,
    audience: viewer.audience,
    deviceId,
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
