// The wire protocol between a controller box and its DeviceHub (docs/device-protocol.md).
// Frames are JSON text, one message per frame, except the heartbeat: the bare text "ping",
// answered "pong" by the runtime without waking the hub. Server and simulator both parse
// every frame with these schemas; nothing is trusted because it arrived on the socket.
import { connectionTypeSchema, deviceKindSchema, phaseSchema, relayStateSchema } from "./device-enums.ts";
import { z } from "./zod.ts";

export {
  type ConnectionType,
  type DeviceKind,
  deviceKindSchema,
  type Phase,
  phaseSchema,
  type RelayState,
  relayStateSchema,
} from "./device-enums.ts";

export const DEVICE_PROTOCOL_VERSION = 1;
export const HEARTBEAT_REQUEST = "ping";
export const HEARTBEAT_RESPONSE = "pong";

/** A frame's schema: `type`, which the union of them all is discriminated on, and its `fields`. */
function message<const Type extends string, Fields extends z.core.$ZodLooseShape = Record<never, never>>(
  type: Type,
  fields: Fields = {} as Fields,
) {
  return z.object({ type: z.literal(type), ...fields });
}

/** Why the relay changed when the hub did not command it. */
export const relayCauseSchema = z.enum(["manual", "startup", "schedule"]);

/** Things that happen at the pump. Every trip event leaves the relay OFF. */
export const deviceEventSchema = z.enum([
  "dryRun",
  "overCurrent",
  "phaseFault",
  "phaseOk",
  "powerLost",
  "powerRestored",
  "underVoltage",
  "overVoltage",
  "voltageUnbalance",
  "tamper",
  "tamperOk",
]);
export type DeviceEvent = z.infer<typeof deviceEventSchema>;

export const otaStageSchema = z.enum(["downloading", "verifying", "installing", "failed"]);

const shortText = z.string().trim().min(1).max(64);
const commandId = z.string().min(1).max(64);
const amperes = z.number().min(0).max(1000);
const watts = z.number().min(0).max(1_000_000);
const volts = z.number().min(0).max(1000);
const dbm = z.number().int().min(-150).max(0);

// ---- device → server ------------------------------------------------------------------

/** First frame after connecting: who the box is and what it is doing right now. */
export const helloMessageSchema = message("hello", {
  protocol: z.number().int().positive(),
  firmware: shortText,
  kind: deviceKindSchema,
  relay: relayStateSchema,
  connection: z.optional(connectionTypeSchema),
  imei: shortText.optional(),
  sim: shortText.optional(),
  chipId: shortText.optional(),
  signal: dbm.optional(),
  /** Mains present at the starter. */
  supply: z.boolean().optional(),
  /** A 3-phase box that is holding the motor off because a phase is missing or unbalanced. */
  phaseFault: z.boolean().optional(),
});

/** The answer to every command that carries an `id`: done or not, and the relay now. */
export const ackMessageSchema = message("ack", {
  id: commandId,
  ok: z.boolean(),
  relay: relayStateSchema,
  error: z.string().max(200).optional(),
  /** A refused `switch on` because the supply is out of the voltage limits: which one, as a code. */
  reason: z.enum(["underVoltage", "overVoltage", "voltageUnbalance"]).optional(),
});

/** A power reading: current in A, wattage in W, per-phase voltage in V, mains present or not. */
export const powerMessageSchema = message("power", {
  current: amperes,
  wattage: watts,
  voltages: z.array(volts).min(1).max(3).optional(),
  supply: z.boolean().optional(),
});

/** The relay changed without a command from the hub (switch on the box, box restart). */
export const relayChangedMessageSchema = message("relay", { relay: relayStateSchema, cause: relayCauseSchema });

/** Health (SPEC §3): uptime in s, signal in dBm, relay, identity, link state, firmware. */
export const healthMessageSchema = message("health", {
  uptime: z.number().int().min(0),
  signal: dbm.optional(),
  relay: relayStateSchema,
  chipId: shortText.optional(),
  imei: shortText.optional(),
  connection: z.enum(["connected", "disconnected"]),
  sim: shortText.optional(),
  version: shortText,
});

/** Something happened at the pump; `relay` is the state after it (OFF after every trip). */
export const eventMessageSchema = message("event", {
  event: deviceEventSchema,
  relay: relayStateSchema,
  /** The current that caused a dry-run or overcurrent trip, in A. */
  current: amperes.optional(),
  /** The per-phase voltages that caused a voltage trip, in V. */
  voltages: z.array(volts).min(1).max(3).optional(),
  /** Which phase is missing or how unbalanced, in words from the firmware. */
  detail: z.string().max(120).optional(),
  /** A phase fault's phase, when the box can tell: pages word it in their reader's language. */
  phase: z.optional(phaseSchema),
  /**
   * Sent on the box's backup battery (a `powerLost` as the supply goes): likely its last frame
   * until mains returns. The hub then asks whether it was a cut cable (docs/device-protocol.md §7).
   */
  battery: z.boolean().optional(),
});

/** One line of the box's own log, sent only while debug mode is on. */
export const logLineMessageSchema = message("log", { line: z.string().max(500) });

/** How a firmware update is going; success shows as a `hello` with the new version. */
export const otaProgressMessageSchema = message("ota", {
  id: commandId,
  stage: otaStageSchema,
  progress: z.number().int().min(0).max(100).optional(),
  error: z.string().max(200).optional(),
});

/**
 * The end of a commissioning test run (`testRun`, below), relay OFF again: the per-phase voltages
 * before the start, the highest current of the start-up surge and the running current after it
 * (the mean of the readings past the surge), in A. Not `ok`: the box did not start the motor, or
 * stopped it early (an OFF, a trip, the supply gone), and says why in `error`.
 */
export const testRunResultMessageSchema = message("testRunResult", {
  id: commandId,
  ok: z.boolean(),
  relay: relayStateSchema,
  voltages: z.array(volts).min(1).max(3),
  surgeCurrent: amperes.optional(),
  runningCurrent: amperes.optional(),
  /** How long the motor ran, in s. */
  ranSeconds: z.number().min(0).max(60).optional(),
  error: z.string().max(200).optional(),
});

export type TestRunResultMessage = z.infer<typeof testRunResultMessageSchema>;

/**
 * The end of a commissioning dry-run check (`dryRunCheck`, below), relay OFF again. `tripped`:
 * the box's own dry-run protection stopped the motor (the current stayed below `tripBelow` for
 * its sustain time past the start-up grace); not tripped: the seconds ran out with the current
 * above it. `current`: the mean of the readings that decided it (the breach's, or the last
 * sustain time's), in A; `tripBelow`: the dry-run limit the box applied, from the settings it
 * holds (rated current × (1 − dry-run threshold)), so the hub sees which settings were checked.
 * Not `ok`: the box did not start, or stopped for another reason (an OFF, another trip, the
 * supply gone), in `error`.
 */
export const dryRunCheckResultMessageSchema = z.object({
  type: z.literal("dryRunCheckResult"),
  id: commandId,
  ok: z.boolean(),
  relay: relayStateSchema,
  voltages: z.array(volts).min(1).max(3),
  tripped: z.boolean().optional(),
  current: amperes.optional(),
  tripBelow: amperes.optional(),
  /** How long the motor ran, in s. */
  ranSeconds: z.number().min(0).max(120).optional(),
  error: z.string().max(200).optional(),
});

export type DryRunCheckResultMessage = z.infer<typeof dryRunCheckResultMessageSchema>;

export const deviceMessageSchema = z.discriminatedUnion("type", [
  helloMessageSchema,
  ackMessageSchema,
  powerMessageSchema,
  relayChangedMessageSchema,
  healthMessageSchema,
  eventMessageSchema,
  logLineMessageSchema,
  otaProgressMessageSchema,
  testRunResultMessageSchema,
  dryRunCheckResultMessageSchema,
]);
export type DeviceMessage = z.infer<typeof deviceMessageSchema>;

// ---- server → device ------------------------------------------------------------------

/** The protection settings the box enforces (SPEC §3 motorConfig), and debug mode. */
export const deviceConfigSchema = z.object({
  defaultCurrent: z.number().positive().max(100),
  dryRunThreshold: z.number().min(0).max(100),
  overCurrentThreshold: z.number().min(0).max(500),
  debug: z.boolean(),
  /** The owner's number, kept on the box for its SMS fallback and display. */
  mobileNo: z.string().max(10).nullable(),
  /** Voltage limits in V and % (docs/decisions/019); a box without them uses its kind's defaults. */
  underVoltage: volts.optional(),
  overVoltage: volts.optional(),
  voltageUnbalance: z.number().min(0).max(100).optional(),
});
export type DeviceConfig = z.infer<typeof deviceConfigSchema>;

/** Sent once the hub has accepted the hello: timing and settings the box must follow. */
export const welcomeMessageSchema = message("welcome", {
  protocol: z.number().int().positive(),
  heartbeatSeconds: z.number().int().positive(),
  watched: z.boolean(),
  config: deviceConfigSchema,
});

/** Switch the relay. Answer with an `ack` carrying the same id. */
export const switchMessageSchema = message("switch", { id: commandId, relay: relayStateSchema });

/** New settings. Answer with an `ack`; apply them from the next reading on. */
export const configMessageSchema = message("config", { id: commandId, config: deviceConfigSchema });

/** Send a `health` or `power` frame now (after the `ack`). */
export const requestMessageSchema = message("request", { id: commandId, what: z.enum(["health", "power"]) });

/** Restart the box (relay OFF, as after a power cut). Answer with an `ack` first. */
export const restartMessageSchema = message("restart", { id: commandId });

/**
 * Install firmware: download `url` with the box's own credentials, check that its SHA-256 is
 * `sha256` (hex), install, restart and say hello with `version`.
 */
export const otaMessageSchema = message("ota", {
  id: commandId,
  version: shortText,
  url: z.string().url(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().positive(),
});

/** Someone started or stopped watching: report power every few seconds, or only slowly. */
export const watchMessageSchema = message("watch", {
  watched: z.boolean(),
  intervalSeconds: z.number().int().positive(),
});

/**
 * Commissioning's test run (docs/decisions/033-installers.md): check that every phase is present,
 * start the motor, let the start-up surge pass, measure the running current, and stop after
 * `seconds`, whatever happens. During it the box's own absolute limits hold but not the
 * configured thresholds (they are what the run is for), and it sends no `power` frames: the
 * answer is one `testRunResult` with the same id. A `switch` OFF ends it at once.
 */
export const testRunMessageSchema = message("testRun", { id: commandId, seconds: z.number().int().min(3).max(30) });

/**
 * Commissioning's dry-run check, which the installer may choose after the settings are set:
 * the same checks as a test run before the start, then the motor runs with the box's own
 * protection as always (the dry-run threshold included, with its start-up grace and sustain
 * time) while the installer closes the delivery valve, until the dry-run protection trips or
 * `seconds` are up; the relay is OFF at the end either way. No `power` or `event` frames
 * meanwhile: the answer is one `dryRunCheckResult` with the same id. A `switch` OFF ends it at once.
 */
export const dryRunCheckMessageSchema = z.object({
  type: z.literal("dryRunCheck"),
  id: commandId,
  seconds: z.number().int().min(15).max(60),
});

/** The hub could not accept a frame; nothing changed because of it. */
export const errorMessageSchema = message("error", { message: z.string() });

export const serverToDeviceMessageSchema = z.discriminatedUnion("type", [
  welcomeMessageSchema,
  switchMessageSchema,
  configMessageSchema,
  requestMessageSchema,
  restartMessageSchema,
  otaMessageSchema,
  watchMessageSchema,
  errorMessageSchema,
  testRunMessageSchema,
  dryRunCheckMessageSchema,
]);
export type ServerToDeviceMessage = z.infer<typeof serverToDeviceMessageSchema>;
/** Commands the box must acknowledge (a test run and a dry-run check are answered by their result instead). */
export type DeviceCommand = Exclude<
  Extract<ServerToDeviceMessage, { id: string }>,
  { type: "testRun" } | { type: "dryRunCheck" }
>;

/** docs/device-protocol.md §2: a frame is at most this many bytes of UTF-8. */
export const MAX_FRAME_BYTES = 4096;

/**
 * docs/device-protocol.md §2: a box may send this many frames at once (a hello with its first
 * readings, a phase flickering ten times in a moment, a burst of debug lines)...
 */
export const DEVICE_FRAME_BURST = 20;
/** ...and then this many a second on average; beyond that it gets an `error` frame and close 1008. */
export const DEVICE_FRAMES_PER_SECOND = 5;

/** Parses one text frame as JSON and then as `schema`; never throws. */
export function parseFrame<T>(
  schema: z.ZodType<T>,
  frame: string | ArrayBuffer,
): { ok: true; message: T } | { ok: false; error: string } {
  if (typeof frame !== "string") return { ok: false, error: "Frames must be JSON text." };
  // The limit is in bytes (a box's receive buffer, SIM data): `length` counts UTF-16 units, so
  // 1,400 Devanagari letters (4.2 KB) used to pass. The cheap check first, then the real one.
  if (frame.length > MAX_FRAME_BYTES || new TextEncoder().encode(frame).byteLength > MAX_FRAME_BYTES) {
    return { ok: false, error: "Frame is too large." };
  }
  let json: unknown;
  try {
    json = JSON.parse(frame);
  } catch {
    return { ok: false, error: "Frame is not valid JSON." };
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
    return { ok: false, error: `Invalid message${where}: ${issue?.message ?? "unknown"}` };
  }
  return { ok: true, message: result.data };
}
