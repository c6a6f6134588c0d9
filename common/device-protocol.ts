// The wire protocol between a controller box and its DeviceHub (docs/device-protocol.md).
// Frames are JSON text, one message per frame, except the heartbeat: the bare text "ping",
// answered "pong" by the runtime without waking the hub. Server and simulator both parse
// every frame with these schemas; nothing is trusted because it arrived on the socket.
import { z } from "zod";

export const DEVICE_PROTOCOL_VERSION = 1;
export const HEARTBEAT_REQUEST = "ping";
export const HEARTBEAT_RESPONSE = "pong";

export const relayStateSchema = z.enum(["on", "off"], { error: "must be \"on\" or \"off\"" });
export type RelayState = z.infer<typeof relayStateSchema>;

export const deviceKindSchema = z.enum(["1phase", "3phase"]);
export type DeviceKind = z.infer<typeof deviceKindSchema>;

/** Why the relay is in its state: who or what last switched it. */
export const relayCauseSchema = z.enum(["command", "startup", "manual"]);
export type RelayCause = z.infer<typeof relayCauseSchema>;

const shortText = z.string().trim().min(1).max(64);

// ---- device → server ------------------------------------------------------------------

/** First frame after connecting: who the box is and what its relay is doing right now. */
export const helloMessageSchema = z.object({
  type: z.literal("hello"),
  protocol: z.number().int().positive(),
  firmware: shortText,
  kind: deviceKindSchema,
  relay: relayStateSchema,
  imei: shortText.optional(),
  sim: shortText.optional(),
  chipId: shortText.optional(),
  signal: z.number().int().min(-150).max(0).optional(),
});

/** The device's answer to a `switch` command: whether it switched, and the relay now. */
export const ackMessageSchema = z.object({
  type: z.literal("ack"),
  id: z.string().min(1).max(64),
  ok: z.boolean(),
  relay: relayStateSchema,
  error: z.string().max(200).optional(),
});

/** A power reading. current in amperes, wattage in watts. */
export const powerMessageSchema = z.object({
  type: z.literal("power"),
  current: z.number().min(0).max(1000),
  wattage: z.number().min(0).max(1_000_000),
});

/** The relay changed without a command from the hub (manual switch, box restart). */
export const relayChangedMessageSchema = z.object({
  type: z.literal("relay"),
  relay: relayStateSchema,
  cause: relayCauseSchema,
});

export const deviceMessageSchema = z.discriminatedUnion("type", [
  helloMessageSchema,
  ackMessageSchema,
  powerMessageSchema,
  relayChangedMessageSchema,
]);
export type DeviceMessage = z.infer<typeof deviceMessageSchema>;

// ---- server → device ------------------------------------------------------------------

/** Sent once the hub has accepted the hello: timing the device must follow. */
export const welcomeMessageSchema = z.object({
  type: z.literal("welcome"),
  protocol: z.number().int().positive(),
  heartbeatSeconds: z.number().int().positive(),
  watched: z.boolean(),
});

/** Switch the relay. The device must answer with an `ack` carrying the same id. */
export const switchMessageSchema = z.object({
  type: z.literal("switch"),
  id: z.string().min(1).max(64),
  relay: relayStateSchema,
});

/** Someone started or stopped watching: report power every few seconds, or only slowly. */
export const watchMessageSchema = z.object({
  type: z.literal("watch"),
  watched: z.boolean(),
  intervalSeconds: z.number().int().positive(),
});

/** The hub could not accept a frame; nothing changed because of it. */
export const errorMessageSchema = z.object({
  type: z.literal("error"),
  message: z.string(),
});

export const serverToDeviceMessageSchema = z.discriminatedUnion("type", [
  welcomeMessageSchema,
  switchMessageSchema,
  watchMessageSchema,
  errorMessageSchema,
]);
export type ServerToDeviceMessage = z.infer<typeof serverToDeviceMessageSchema>;

/** Parses one text frame as JSON and then as `schema`; never throws. */
export function parseFrame<T>(
  schema: z.ZodType<T>,
  frame: string | ArrayBuffer,
): { ok: true; message: T } | { ok: false; error: string } {
  if (typeof frame !== "string") return { ok: false, error: "Frames must be JSON text." };
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
