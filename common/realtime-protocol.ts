// Messages the DeviceHub sends to browsers on the realtime socket (SPEC §4).
// The hub builds them with `satisfies RealtimeMessage`; the browser parses them with the schema.
import { z } from "zod";
import { relayStateSchema } from "./device-protocol.ts";

export const deviceStatusSchema = z.enum(["online", "offline"]);
export type DeviceStatus = z.infer<typeof deviceStatusSchema>;

export const powerDataSchema = z.object({
  current: z.number(),
  wattage: z.number(),
});
export type PowerData = z.infer<typeof powerDataSchema>;

export const motorLogActionSchema = z.enum(["on", "off", "other"]);

export const motorLogEntrySchema = z.object({
  id: z.number().int(),
  action: motorLogActionSchema,
  logMessage: z.string(),
  timestamp: z.string(),
});
export type MotorLogEntry = z.infer<typeof motorLogEntrySchema>;

export const initialDataMessageSchema = z.object({
  type: z.literal("initialData"),
  motorStatus: relayStateSchema,
  deviceStatus: deviceStatusSchema,
  powerData: powerDataSchema,
  lastLogs: z.array(motorLogEntrySchema),
});

export const motorStatusUpdateMessageSchema = z.object({
  type: z.literal("motorStatusUpdate"),
  status: relayStateSchema,
});

export const deviceStatusUpdateMessageSchema = z.object({
  type: z.literal("deviceStatusUpdate"),
  deviceStatus: deviceStatusSchema,
});

export const powerDataUpdateMessageSchema = z.object({
  type: z.literal("powerDataUpdate"),
  powerData: powerDataSchema,
});

export const motorLogUpdateMessageSchema = z.object({
  type: z.literal("motorLogUpdate"),
  log: motorLogEntrySchema,
});

export const realtimeMessageSchema = z.discriminatedUnion("type", [
  initialDataMessageSchema,
  motorStatusUpdateMessageSchema,
  deviceStatusUpdateMessageSchema,
  powerDataUpdateMessageSchema,
  motorLogUpdateMessageSchema,
]);
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;
