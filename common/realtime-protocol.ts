// Messages the DeviceHub sends to browsers on the realtime socket (SPEC §4).
// The hub builds them with `satisfies RealtimeMessage`; the browser parses them with the schema.

import { connectionTypeSchema, relayStateSchema } from "./device-enums.ts";
import type { MotorLogParam } from "./motor-log-event.ts";
import { motorStatusSchema, pumpStateSchema } from "./pump-state.ts";
import { z } from "./zod-mini.ts";

/** A message's schema: `type`, which the union of them all is discriminated on, and its `fields`. */
function message<const Type extends string, Fields extends z.core.$ZodLooseShape = Record<never, never>>(
  type: Type,
  fields: Fields = {} as Fields,
) {
  return z.object({ type: z.literal(type), ...fields });
}

export const deviceStatusSchema = z.enum(["online", "offline"]);
export type DeviceStatus = z.infer<typeof deviceStatusSchema>;

export const powerDataSchema = z.object({
  current: z.number(),
  wattage: z.number(),
  /** Beyond SPEC: the supply's volts per phase (R, Y, B; one on a 1-phase box), when the box measures them. */
  voltages: z.optional(z.array(z.number())),
});
export type PowerData = z.infer<typeof powerDataSchema>;

export const motorLogActionSchema = z.enum(["on", "off", "other"]);

export const motorLogEntrySchema = z.object({
  id: z.int(),
  action: motorLogActionSchema,
  /** In the reader's language where the API knows it, else English; pages word `kind` themselves. */
  logMessage: z.string(),
  timestamp: z.string(),
  /**
   * What happened, as a code with its parameters (common/motor-log-event.ts), as the server
   * parsed them before sending. Read loosely here: pages word them with `motorLogEntryText`,
   * and a kind this page does not know yet still shows, as its `logMessage`.
   */
  kind: z.string(),
  params: z.catchall(z.object({}), z.custom<MotorLogParam>()),
});
export type MotorLogEntry = z.infer<typeof motorLogEntrySchema>;

/** SPEC §3 health data, as the dashboard shows it (missing values render as N/A). */
export const healthDataSchema = z.object({
  uptime: z.nullable(z.number()),
  signal: z.nullable(z.number()),
  relay: relayStateSchema,
  chipId: z.nullable(z.string()),
  imei: z.nullable(z.string()),
  mqtt: z.enum(["connected", "disconnected"]),
  sim: z.nullable(z.string()),
  version: z.nullable(z.string()),
  connection: z.nullable(connectionTypeSchema),
  reportedAt: z.nullable(z.string()),
});
export type HealthData = z.infer<typeof healthDataSchema>;

export const initialDataMessageSchema = message("initialData", {
  /** on, off, or unknown (docs/pump-state.md); the same as `pump.status`. */
  motorStatus: motorStatusSchema,
  deviceStatus: deviceStatusSchema,
  powerData: powerDataSchema,
  lastLogs: z.array(motorLogEntrySchema),
  /** Beyond SPEC §4: the page must know at once whether motor operation is locked. */
  phaseFault: z.boolean(),
  health: z.nullable(healthDataSchema),
  /** Whether the box streams debug lines (admin device settings). */
  debug: z.boolean(),
  /** Everything the hub vouches for about the pump: status with its source, presence, faults. */
  pump: pumpStateSchema,
});

export const motorStatusUpdateMessageSchema = message("motorStatusUpdate", { status: motorStatusSchema });

/** Beyond SPEC §4: sent whenever anything in the pump's state changes (never for readings alone). */
export const pumpStateMessageSchema = message("pumpState", { pump: pumpStateSchema });

/** Beyond SPEC §4: current flows although no command was confirmed (an alert: toast and sound). */
export const runningWithoutCommandMessageSchema = message("runningWithoutCommand", { current: z.number() });

/** Beyond SPEC §4: the relay is ON but the motor draws next to nothing (an alert). */
export const noCurrentMessageSchema = message("noCurrent");

export const deviceStatusUpdateMessageSchema = message("deviceStatusUpdate", { deviceStatus: deviceStatusSchema });

export const powerDataUpdateMessageSchema = message("powerDataUpdate", { powerData: powerDataSchema });

export const motorLogUpdateMessageSchema = message("motorLogUpdate", { log: motorLogEntrySchema });

export const dryRunDetectedMessageSchema = message("dryRunDetected");
export const overCurrentDetectedMessageSchema = message("overCurrentDetected");
/** Beyond SPEC §4: a voltage trip (the motor was stopped); the fault in the pump state has the volts. */
export const voltageTripDetectedMessageSchema = message("voltageTripDetected", {
  breach: z.enum(["underVoltage", "overVoltage", "voltageUnbalance"]),
});
export const phaseFaultDetectedMessageSchema = message("phaseFaultDetected");
export const phaseOkMessageSchema = message("phaseOk");
/** Beyond SPEC §4: mains failed at the pump, and came back (the motor stays OFF). */
export const powerLostMessageSchema = message("powerLost");
export const powerRestoredMessageSchema = message("powerRestored");

export const healthDataMessageSchema = message("healthData", {
  mobileNo: z.nullable(z.string()),
  payload: healthDataSchema,
});

/** A line of the box's debug log: sent only to admin sockets. */
export const debugLogMessageSchema = message("debugLog", {
  log: z.string(),
  timestamp: z.string(),
  mobileNo: z.nullable(z.string()),
});

/** Debug mode was switched on or off (by an admin, or by itself after 30 minutes). Admins only. */
export const debugModeUpdateMessageSchema = message("debugModeUpdate", { debug: z.boolean() });

/** Beyond SPEC §4: how a firmware update is going. */
export const otaStatusMessageSchema = message("otaStatus", {
  version: z.string(),
  stage: z.enum(["sent", "downloading", "verifying", "installing", "done", "failed"]),
  progress: z.nullable(z.number()),
  /** `failed`: the box's own words, if it gave any. */
  error: z.nullable(z.string()),
  /** `failed`: why, as the motor log entry `otaFailed` says (the page words it). */
  reason: z._default(z.nullable(z.enum(["box", "otherVersion", "timeout"])), null),
  /** `otherVersion`: the firmware the box came back with. */
  firmware: z._default(z.nullable(z.string()), null),
});

/**
 * Beyond SPEC §4: the answer to a page's request on its socket (`browserRequestSchema`), to that
 * socket alone. `result` is the hub's, as the HTTP API's would be: ok only once the box has
 * confirmed; a refusal is a code the page words (`invalidRequest`: the frame was not a request).
 */
export const commandResultMessageSchema = message("commandResult", {
  requestId: z.string(),
  result: z.union([
    z.object({ ok: z.literal(true), status: relayStateSchema }),
    z.object({
      ok: z.literal(false),
      code: z.string(),
      error: z.optional(z.string()),
      retryAfterMs: z.optional(z.number()),
    }),
  ]),
});

export const realtimeMessageSchema = z.discriminatedUnion("type", [
  initialDataMessageSchema,
  motorStatusUpdateMessageSchema,
  pumpStateMessageSchema,
  runningWithoutCommandMessageSchema,
  noCurrentMessageSchema,
  deviceStatusUpdateMessageSchema,
  powerDataUpdateMessageSchema,
  motorLogUpdateMessageSchema,
  dryRunDetectedMessageSchema,
  overCurrentDetectedMessageSchema,
  voltageTripDetectedMessageSchema,
  phaseFaultDetectedMessageSchema,
  phaseOkMessageSchema,
  powerLostMessageSchema,
  powerRestoredMessageSchema,
  healthDataMessageSchema,
  debugLogMessageSchema,
  debugModeUpdateMessageSchema,
  otaStatusMessageSchema,
  commandResultMessageSchema,
]);
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;

// ---- what a page sends on its socket ---------------------------------------------------------

/** Chosen by the page, unique among its socket's requests in flight; echoed in the answer. */
export const REQUEST_ID_MAX_LENGTH = 64;

/**
 * Beyond SPEC §4: a page that has its socket open sends its commands on it, sparing the
 * farmer's phone a new HTTP request for each tap (docs/decisions/023-commands-over-the-socket.md).
 * Who asks is the socket's viewer; the hub answers with a `commandResult` of the same
 * `requestId`. A frame that is not a request (anything without a `requestId`) is ignored.
 */
export const browserRequestSchema = z.discriminatedUnion("type", [
  message("switchMotor", {
    requestId: z.string().check(z.minLength(1), z.maxLength(REQUEST_ID_MAX_LENGTH)),
    action: relayStateSchema,
  }),
]);
export type BrowserRequest = z.infer<typeof browserRequestSchema>;

// Caps on the browser's realtime socket (docs/security.md, "Caps").
/** A page opens one socket per pump screen; more than this from one account on one pump are tabs left open. */
export const BROWSER_SOCKETS_PER_VIEWER = 10;
/** All viewers of one pump together (the farmer's family and admins): a new one beyond this is refused. */
export const BROWSER_SOCKETS_PER_DEVICE = 100;
/** A page's frames are heartbeats and requests of a few dozen bytes: anything bigger is refused. */
export const MAX_BROWSER_FRAME_BYTES = 4096;
/**
 * A page's requests on one socket: a few taps at once, then one a second. Each wakes the hub,
 * and a real farmer's page sends one per tap (its switch is disabled while one is answered);
 * a socket over it is closed (1008) and the page reconnects.
 */
export const BROWSER_REQUEST_BURST = 5;
export const BROWSER_REQUESTS_PER_SECOND = 1;
