// The motor calls of SPEC §7 that a DeviceHub serves: switch, status, settings, readings.
import { type Context, Hono } from "hono";
import {
  healthReadingResponseSchema,
  motorCommandResponseSchema,
  motorConfigResponseSchema,
  motorStatusResponseSchema,
  powerReadingResponseSchema,
} from "../../common/api-responses/devices.ts";
import { mobileNoSchema, motorCommandRequestSchema, motorConfigRequestSchema } from "../../common/api-schemas.ts";
import { translateApi } from "../../common/i18n/api.ts";
import type { z } from "../../common/zod-mini.ts";
import { getDb } from "../db/client.ts";
import { motorConfigOf } from "../db/devices.ts";
import type { DeviceRow } from "../db/schema.ts";
import { apiError } from "../http/http-error.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { hubFailureError, noDeviceError } from "../hubs/hub-failures.ts";
import { switchPump } from "../services/motor-commands.ts";
import {
  changeMotorConfig,
  OWNER_CHANGE_NOTE,
  type OwnedDevice,
  type SettingsInForce,
} from "../services/motor-config.ts";
import { auditTarget } from "./admin-audit-middleware.ts";
import type { ApiEnv } from "./context.ts";
import { deviceForMobileNo, firstBoxOfNumber } from "./device-access.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { authenticatePumpRequest, requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

/** SPEC §7's status of a box, with what its hub vouches for about the pump (docs/pump-state.md). */
export async function motorStatusOf(env: Env, device: DeviceRow): Promise<z.input<typeof motorStatusResponseSchema>> {
  const snapshot = await deviceHub(env, device.id).getSnapshot();
  const { pump } = snapshot;
  return {
    success: true,
    // SPEC §7's on/off, and `unknown` when the hub cannot vouch for either.
    status: pump.status,
    statusSince: pump.statusSince,
    statusSource: pump.statusSource,
    deviceStatus: pump.deviceStatus,
    lastSeenAt: pump.lastSeenAt,
    pendingCommand: pump.pendingCommand,
    cooldownUntil: pump.cooldownUntil,
    faults: pump.faults,
    phaseFault: snapshot.phaseFault,
    powerData: snapshot.powerData,
    powerDataAt: pump.powerDataAt,
    stopsAt: pump.stopsAt,
    healthLogs: snapshot.health,
    motorConfig: motorConfigOf(device),
  };
}

/** Saves and sends a box's settings as the caller (an admin's change says so), and answers as SPEC §7 does. */
export async function motorConfigAnswer(
  c: Context<ApiEnv>,
  device: OwnedDevice,
  request: z.output<typeof motorConfigRequestSchema>,
) {
  const { token: _token, confirmWeakerProtection, ...config } = request;
  const user = c.var.user;
  const saved = await changeMotorConfig(c.env, {
    device,
    config,
    changedByUserId: user.id,
    changeNote: user.audience === "admin" ? "Changed by an admin" : OWNER_CHANGE_NOTE,
    confirmedWeaker: confirmWeakerProtection === true,
  });
  return configSavedAnswer(c, "Motor configuration updated successfully!", saved);
}

/** A saved motor config's answer: the route's words (SPEC §7), the settings in force, and whether the box has them. */
export function configSavedAnswer(
  c: Context<ApiEnv>,
  message: string,
  saved: { deliveredToDevice: boolean; config: SettingsInForce },
) {
  return respond(c, motorConfigResponseSchema, {
    success: true,
    message,
    motorConfig: saved.config,
    deliveredToDevice: saved.deliveredToDevice,
  });
}

/**
 * A fresh power reading (or health report): the hub's latest when it is fresh, else the box's
 * answer to a request, at most one a minute per box (docs/device-protocol.md §5); says where it
 * came from and how old it is.
 */
export async function freshReadingAnswer(c: Context<ApiEnv>, deviceId: string, what: "power" | "health") {
  const hub = deviceHub(c.env, deviceId);
  if (what === "power") {
    const result = await hub.requestPower();
    if (!result.ok) throw hubFailureError(result);
    const { reading: powerData, source, ageSeconds } = result;
    return respond(c, powerReadingResponseSchema, { success: true, powerData, source, ageSeconds });
  }
  const result = await hub.requestHealth();
  if (!result.ok) throw hubFailureError(result);
  const { reading: healthData, source, ageSeconds } = result;
  return respond(c, healthReadingResponseSchema, { success: true, healthData, source, ageSeconds });
}

export const deviceRoutes = new Hono<ApiEnv>()
  .post("/motor", async (c) => {
    // SPEC §7 keys this by the caller: their first box, read with their session in one D1 query.
    const { user, access } = await authenticatePumpRequest(c.req.raw, c.env, ["user"], "firstBox");
    c.set("user", user);
    const { action } = await readJsonBody(c, motorCommandRequestSchema);
    if (!access) throw noDeviceError();
    const result = await switchPump(c.env, c.var.user, access, action);
    const language = apiLanguage(c.req.raw);
    if (!result.ok) throw hubFailureError(result);
    return respond(c, motorCommandResponseSchema, {
      success: true,
      message: translateApi(language, "api.motorSwitched", { relay: result.status }),
      status: result.status,
    });
  })
  .get("/motor/status/:mobileNo", requireAuth("user", "admin"), async (c) => {
    const { device } = await deviceForMobileNo(c, c.req.param("mobileNo"));
    return respond(c, motorStatusResponseSchema, await motorStatusOf(c.env, device));
  })
  .post("/motor/config/:mobileNo", requireAuth("user", "admin"), async (c) => {
    const mobileNo = parseInput(mobileNoSchema, c.req.param("mobileNo"));
    auditTarget(c, mobileNo);
    const user = c.var.user;
    if (user.audience !== "admin" && user.mobileNo !== mobileNo) {
      throw apiError(403, "notYourMotorConfig");
    }
    const request = await readJsonBody(c, motorConfigRequestSchema);
    return motorConfigAnswer(c, await firstBoxOfNumber(getDb(c.env.DB), mobileNo), request);
  })
  .post("/motor/power/:mobileNo", requireAuth("user", "admin"), async (c) => {
    const { device } = await deviceForMobileNo(c, c.req.param("mobileNo"));
    return freshReadingAnswer(c, device.id, "power");
  })
  .post("/motor/health/:mobileNo", requireAuth("user", "admin"), async (c) => {
    const { device } = await deviceForMobileNo(c, c.req.param("mobileNo"));
    return freshReadingAnswer(c, device.id, "health");
  });
