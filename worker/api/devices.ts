// The motor calls of SPEC §7 that a DeviceHub serves: switch, status, settings, readings.
import { Hono } from "hono";
import { translateApi } from "../../app/i18n/api.ts";
import {
  healthReadingResponseSchema,
  motorCommandResponseSchema,
  motorConfigResponseSchema,
  motorStatusResponseSchema,
  powerReadingResponseSchema,
} from "../../common/api-responses/devices.ts";
import { mobileNoSchema, motorCommandRequestSchema, motorConfigRequestSchema } from "../../common/api-schemas.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwner, motorConfigOf } from "../db/devices.ts";
import { findUserByMobileNo } from "../db/users.ts";
import { apiError } from "../http/http-error.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { hubFailureError, noDeviceError } from "../hubs/hub-failures.ts";
import { switchOwnMotor } from "../services/motor-commands.ts";
import { changeMotorConfig, OWNER_CHANGE_NOTE } from "../services/motor-config.ts";
import { auditTarget } from "./admin-audit-middleware.ts";
import type { ApiEnv } from "./context.ts";
import { deviceForMobileNo } from "./device-access.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

export const deviceRoutes = new Hono<ApiEnv>()
  .post("/motor", requireAuth("user"), async (c) => {
    const { action } = await readJsonBody(c, motorCommandRequestSchema);
    const result = await switchOwnMotor(c.env, c.var.user.id, action);
    const language = apiLanguage(c.req.raw);
    if (!result.ok) throw result.code === "noDevice" ? noDeviceError() : hubFailureError(result);
    return respond(c, motorCommandResponseSchema, {
      success: true,
      message: translateApi(language, "api.motorSwitched", { relay: result.status }),
      status: result.status,
    });
  })
  .get("/motor/status/:mobileNo", requireAuth("user", "admin"), async (c) => {
    const { device } = await deviceForMobileNo(c, c.req.param("mobileNo"));
    const snapshot = await deviceHub(c.env, device.id).getSnapshot();
    const { pump } = snapshot;
    return respond(c, motorStatusResponseSchema, {
      success: true,
      // SPEC §7's on/off, and `unknown` when the hub cannot vouch for either (docs/pump-state.md).
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
      healthLogs: snapshot.health,
      motorConfig: motorConfigOf(device),
    });
  })
  .post("/motor/config/:mobileNo", requireAuth("user", "admin"), async (c) => {
    const mobileNo = parseInput(mobileNoSchema, c.req.param("mobileNo"));
    auditTarget(c, mobileNo);
    const user = c.var.user;
    if (user.audience !== "admin" && user.mobileNo !== mobileNo) {
      throw apiError(403, "notYourMotorConfig");
    }
    const { token: _token, ...config } = await readJsonBody(c, motorConfigRequestSchema);
    const db = getDb(c.env.DB);
    const owner = await findUserByMobileNo(db, mobileNo);
    if (!owner) throw apiError(404, "userNotFound");
    const device = await findDeviceByOwner(db, owner.id);
    if (!device) throw apiError(404, "noDeviceForNumber");
    const { deliveredToDevice } = await changeMotorConfig(c.env, {
      deviceId: device.id,
      ownerUserId: owner.id,
      config,
      changedByUserId: user.id,
      changeNote: user.audience === "admin" ? "Changed by an admin" : OWNER_CHANGE_NOTE,
    });
    return respond(c, motorConfigResponseSchema, {
      success: true,
      message: "Motor configuration updated successfully!",
      motorConfig: config,
      deliveredToDevice,
    });
  })
  .post("/motor/power/:mobileNo", requireAuth("user", "admin"), async (c) => {
    const { device } = await deviceForMobileNo(c, c.req.param("mobileNo"));
    const result = await deviceHub(c.env, device.id).requestPower();
    if (!result.ok) throw hubFailureError(result);
    return respond(c, powerReadingResponseSchema, { success: true, powerData: result.powerData });
  })
  .post("/motor/health/:mobileNo", requireAuth("user", "admin"), async (c) => {
    const { device } = await deviceForMobileNo(c, c.req.param("mobileNo"));
    const result = await deviceHub(c.env, device.id).requestHealth();
    if (!result.ok) throw hubFailureError(result);
    return respond(c, healthReadingResponseSchema, { success: true, healthData: result.health });
  });
