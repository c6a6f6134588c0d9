import type { Context } from "hono";
import { DEVICE_ID_PATTERN, verifyDeviceKey } from "../../common/credentials.ts";
import { getDb } from "../db/client.ts";
import { findDeviceById } from "../db/devices.ts";
import type { DeviceRow } from "../db/schema.ts";
import { apiError } from "../http/http-error.ts";
import type { ApiEnv } from "./context.ts";

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

/** The box making this request, checked against its key hash in D1; 401 otherwise. */
export async function authenticateDevice(c: Context<ApiEnv>): Promise<DeviceRow> {
  const credentials = readDeviceCredentials(c.req.header("Authorization"));
  if (!credentials) throw apiError(401, "deviceCredentialsRequired");
  if (!DEVICE_ID_PATTERN.test(credentials.deviceId) || credentials.key.length > 200) {
    throw apiError(401, "invalidDeviceCredentials");
  }
  const device = await findDeviceById(getDb(c.env.DB), credentials.deviceId);
  if (!device || !(await verifyDeviceKey(credentials.key, device.keyHash))) {
    throw apiError(401, "invalidDeviceCredentials");
  }
  return device;
}
