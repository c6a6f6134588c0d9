import { Hono } from "hono";
import { motorCommandRequestSchema } from "../../common/api-schemas.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwner } from "../db/devices.ts";
import { deviceHub } from "../device-hubs.ts";
import { HttpError } from "../http-error.ts";
import type { ApiEnv } from "./context.ts";
import { readJsonBody } from "./input.ts";
import { requireAuth } from "./require-auth.ts";

export const NO_DEVICE_MESSAGE = "No device is linked to this account yet.";

const FAILURE_STATUS = {
  offline: 503,
  cooldown: 429,
  busy: 409,
  timeout: 504,
  rejected: 409,
} as const;

export const deviceRoutes = new Hono<ApiEnv>().post("/motor", requireAuth("user"), async (c) => {
  const { action } = await readJsonBody(c, motorCommandRequestSchema);
  const user = c.var.user;
  const device = await findDeviceByOwner(getDb(c.env.DB), user.id);
  if (!device) throw new HttpError(404, NO_DEVICE_MESSAGE);
  const result = await deviceHub(c.env, device.id).switchMotor({
    action,
    requestedBy: { userId: user.id, mobileNo: user.mobileNo },
  });
  if (!result.ok) {
    const headers: Record<string, string> = result.retryAfterMs
      ? { "Retry-After": String(Math.ceil(result.retryAfterMs / 1000)) }
      : {};
    throw new HttpError(FAILURE_STATUS[result.code], result.message, headers);
  }
  return c.json({
    success: true,
    message: result.status === "on" ? "Motor turned ON." : "Motor turned OFF.",
    status: result.status,
  });
});
