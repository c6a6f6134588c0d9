// The controller box's WebSocket (docs/device-protocol.md). Credentials are checked here,
// against D1, before the upgrade reaches any Durable Object.
import { Hono } from "hono";
import { DEVICE_ID_PATTERN, verifyDeviceKey } from "../../common/credentials.ts";
import { getDb } from "../db/client.ts";
import { findDeviceWithOwner } from "../db/devices.ts";
import { deviceHub, hubSocketRequest } from "../device-hubs.ts";
import { HttpError } from "../http-error.ts";
import type { ApiEnv } from "./context.ts";

const INVALID_DEVICE_CREDENTIALS = "Invalid device credentials.";

/** `Authorization: Basic base64(deviceId:key)`: the one header every ESP32/SIM7600 stack can send. */
function readDeviceCredentials(header: string | undefined): { deviceId: string; key: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match) return null;
  let decoded: string;
  try {
    decoded = atob(match[1]!);
  } catch {
    return null;
  }
  const separator = decoded.indexOf(":");
  if (separator === -1) return null;
  return { deviceId: decoded.slice(0, separator), key: decoded.slice(separator + 1) };
}

export const deviceSocketRoutes = new Hono<ApiEnv>().get("/connect", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    throw new HttpError(426, "Expected a WebSocket upgrade.");
  }
  const credentials = readDeviceCredentials(c.req.header("Authorization"));
  if (!credentials) throw new HttpError(401, "Device credentials required.");
  if (!DEVICE_ID_PATTERN.test(credentials.deviceId) || credentials.key.length > 200) {
    throw new HttpError(401, INVALID_DEVICE_CREDENTIALS);
  }
  const found = await findDeviceWithOwner(getDb(c.env.DB), credentials.deviceId);
  if (!found || !(await verifyDeviceKey(credentials.key, found.device.keyHash))) {
    throw new HttpError(401, INVALID_DEVICE_CREDENTIALS);
  }
  const owner = found.owner ? { userId: found.owner.id, mobileNo: found.owner.mobileNo } : null;
  return deviceHub(c.env, found.device.id).fetch(hubSocketRequest({ role: "device", owner }));
});
