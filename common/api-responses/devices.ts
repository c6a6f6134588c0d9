// Answers of the calls a DeviceHub serves: /api/devices/motor/* (switch, status, settings,
// readings), the admin's PUT /api/admin/update-motor-config, and POST /api/mqtt/ota
// (common/api-responses/refusals.ts says how these are used).

import { relayStateSchema } from "../device-enums.ts";
import { faultSchema, motorStatusSchema, pendingCommandSchema, statusSourceSchema } from "../pump-state.ts";
import { deviceStatusSchema, healthDataSchema, powerDataSchema } from "../realtime-protocol.ts";
import { z } from "../zod-mini.ts";
import { successSchema } from "./refusals.ts";

export const motorConfigSchema = z.object({
  defaultCurrent: z.number(),
  dryRunThreshold: z.number(),
  overCurrentThreshold: z.number(),
  /** Beyond SPEC §3: the voltage limits in force (the kind's defaults where none was set). */
  underVoltage: z.optional(z.number()),
  overVoltage: z.optional(z.number()),
  voltageUnbalance: z.optional(z.number()),
});

/** POST /api/devices/motor: answered only once the box confirmed. */
export const motorCommandResponseSchema = successSchema({
  message: z.string(),
  status: relayStateSchema,
});

/**
 * GET /api/devices/motor/status/{mobileNo}: SPEC §7's status, healthLogs and motorConfig, with
 * what the hub vouches for about the pump (common/pump-state.ts), all but its clock.
 */
export const motorStatusResponseSchema = successSchema({
  status: motorStatusSchema,
  statusSince: z.number(),
  statusSource: statusSourceSchema,
  deviceStatus: deviceStatusSchema,
  lastSeenAt: z.nullable(z.number()),
  pendingCommand: z.nullable(pendingCommandSchema),
  cooldownUntil: z.number(),
  faults: z.array(faultSchema),
  phaseFault: z.boolean(),
  powerData: powerDataSchema,
  powerDataAt: z.nullable(z.number()),
  stopsAt: z.nullable(z.number()),
  healthLogs: z.nullable(healthDataSchema),
  motorConfig: motorConfigSchema,
});

/** POST /api/devices/motor/config/{mobileNo} and PUT /api/admin/update-motor-config. */
export const motorConfigResponseSchema = successSchema({
  message: z.string(),
  motorConfig: motorConfigSchema,
  /** False when the box is offline: it gets the settings at its next hello. */
  deliveredToDevice: z.boolean(),
});

/**
 * Beyond SPEC, on a fresh reading: `source` `box` when the box answered a request for it (made
 * for this call, or shared with one under way), `hub` when it is the hub's latest (at most 5 s
 * old, or the box was asked less than a minute ago: docs/device-protocol.md §5); `ageSeconds`,
 * how old the reading is (null: the hub has none from this box).
 */
const readingOrigin = {
  source: z.enum(["box", "hub"]),
  ageSeconds: z.nullable(z.number()),
};

/** POST /api/devices/motor/power/{mobileNo} and /api/pumps/{deviceId}/power: a fresh reading. */
export const powerReadingResponseSchema = successSchema({
  powerData: powerDataSchema,
  ...readingOrigin,
});

/** POST /api/devices/motor/health/{mobileNo} and /api/pumps/{deviceId}/health: a fresh health report. */
export const healthReadingResponseSchema = successSchema({
  healthData: healthDataSchema,
  ...readingOrigin,
});

/** POST /api/mqtt/ota: the version offered to the box. */
export const otaResponseSchema = successSchema({ message: z.string(), version: z.string() });
