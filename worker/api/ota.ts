// POST /api/mqtt/ota (the path is kept for the spec's clients; there is no MQTT): offer the
// newest firmware image of a device type to the caller's box.
import { type Context, Hono } from "hono";
import { otaResponseSchema } from "../../common/api-responses/devices.ts";
import { type OtaRequest, otaRequestSchema } from "../../common/api-schemas.ts";
import { translateApi } from "../../common/i18n/api.ts";
import { getDb } from "../db/client.ts";
import { latestFirmware } from "../db/firmware.ts";
import type { DeviceRow } from "../db/schema.ts";
import { apiError } from "../http/http-error.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { hubFailureError } from "../hubs/hub-failures.ts";
import type { ApiEnv } from "./context.ts";
import { deviceForMobileNo } from "./device-access.ts";
import { readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

/** Offers the newest image for `deviceType` to `device`; succeeds when the box accepted the job. */
export async function offerNewestFirmware(c: Context<ApiEnv>, device: DeviceRow, deviceType: OtaRequest["deviceType"]) {
  const image = await latestFirmware(getDb(c.env.DB), deviceType);
  if (!image) throw apiError(404, "noFirmwareForType", { deviceType });
  const url = new URL(`/api/device/firmware/${image.id}`, c.req.url).toString();
  const result = await deviceHub(c.env, device.id).startOta({
    version: image.version,
    url,
    sha256: image.sha256,
    size: image.size,
  });
  if (!result.ok) throw hubFailureError(result);
  return respond(c, otaResponseSchema, {
    success: true,
    message: translateApi(apiLanguage(c.req.raw), "ota.triggered"),
    version: image.version,
  });
}

export const otaRoutes = new Hono<ApiEnv>().post("/ota", requireAuth("user", "admin"), async (c) => {
  const { mobileNo, deviceType } = await readJsonBody(c, otaRequestSchema);
  const { device } = await deviceForMobileNo(c, mobileNo);
  return offerNewestFirmware(c, device, deviceType);
});
