// The relay's two states, the box's two kinds of link and its two kinds, a supply's phases, shared by the device
// protocol, the pump state, the browser's realtime messages and the admin pages. Built with
// zod's small build so that pages parse them without the classic API (common/zod-mini.ts).
import { z } from "./zod-mini.ts";

export const relayStateSchema = z.enum(["on", "off"], { error: 'must be "on" or "off"' });
export type RelayState = z.infer<typeof relayStateSchema>;

/** How the box reaches us: the two firmware builds (SPEC §2: Select Device Type). */
export const connectionTypeSchema = z.enum(["wifi", "sim"]);
export type ConnectionType = z.infer<typeof connectionTypeSchema>;

export const deviceKindSchema = z.enum(["1phase", "3phase"]);
export type DeviceKind = z.infer<typeof deviceKindSchema>;

/** A phase of a 3-phase supply, as electricians in India name them (red, yellow, blue). */
export const phaseSchema = z.enum(["R", "Y", "B"]);
export type Phase = z.infer<typeof phaseSchema>;
