// What the DeviceHub can vouch for about a pump, as the API, the realtime socket and every
// screen carry it (docs/pump-state.md). Codes and numbers only: each screen words them in its
// reader's language.

import { phaseSchema, relayStateSchema } from "./device-enums.ts";
import { z } from "./zod-mini.ts";

/**
 * `unknown`: a command went out and neither an answer nor anything else the box said has
 * settled what the relay did, so the motor may be running. Additive to SPEC §7's on/off.
 */
export const motorStatusSchema = z.enum(["on", "off", "unknown"]);
export type MotorStatus = z.infer<typeof motorStatusSchema>;

/** Sources by which the box itself told the hub what its relay does. */
export const boxStatusSources = [
  /** The box confirmed a command within 5 s. */
  "ack",
  /** The box confirmed a command after the hub had stopped waiting. */
  "lateAck",
  /** The box reported a change it made without a command (its own switch, a restart, its schedule). */
  "relayFrame",
  /** The box stated its relay when it connected. */
  "hello",
  /** The box stated its relay in a health report. */
  "health",
  /** A trip, a phase fault or a power cut the box reported. */
  "event",
  /** Current flowed while the hub believed the motor OFF or did not know. */
  "readings",
  /**
   * Current flowed (or the box stated its relay ON) soon after an ON whose answer was lost
   * (within UNANSWERED_ON_CREDIT_MS of its tap): the run is that ON's, counted from the tap.
   */
  "currentAfterCommand",
] as const;

/** What set the current status. */
export const statusSourceSchema = z.enum([
  /** Nothing yet: the box has never said hello to this hub. */
  "none",
  ...boxStatusSources,
  /** A command got no answer within 5 s. */
  "noAnswer",
  /** The box's connection dropped while a command was on its way. */
  "linkLost",
]);
export type StatusSource = z.infer<typeof statusSourceSchema>;

/** Who asked for a switch: a person in the app, their schedule, or the hub protecting the motor. */
export const commandSourceSchema = z.enum(["app", "schedule", "server"]);
export type CommandSource = z.infer<typeof commandSourceSchema>;

export const pendingCommandSchema = z.object({
  action: relayStateSchema,
  source: commandSourceSchema,
  /** When it left for the box (ms since the epoch). */
  sentAt: z.number(),
  /** `sent`: waiting for the box's answer; `unanswered`: no answer came in time, it may still come. */
  state: z.enum(["sent", "unanswered"]),
});

const since = z.number();

/**
 * Who started the run the motor is on (docs/pump-state.md): how they asked and, for a person,
 * their account, whether they own the pump or operate it, and the owner's name for an operator
 * ("" without one; a schedule's and a power window's are null, null and "").
 */
export type RunStarter = {
  how: "app" | "sms" | "missedCall" | "voiceMenu" | "call" | "schedule" | "powerWindow";
  userId: number | null;
  role: "owner" | "operator" | null;
  label: string;
};

/** Conditions a farmer must see until they clear; `since` in ms since the epoch. */
export const faultSchema = z.discriminatedUnion("kind", [
  /** The last stop was a dry-run trip (by the box, or by the hub's safety net); clears at the next start. */
  z.object({ kind: z.literal("dryRun"), since, current: z.nullable(z.number()) }),
  z.object({ kind: z.literal("overCurrent"), since, current: z.nullable(z.number()) }),
  /** The last stop was a voltage trip; `voltages`: the phases' volts that caused it, when known. */
  z.object({
    kind: z.enum(["underVoltage", "overVoltage", "voltageUnbalance"]),
    since,
    voltages: z.nullable(z.array(z.number())),
  }),
  /** The box holds the motor off for a missing or unbalanced phase; `detail` is the box's own words. */
  z.object({
    kind: z.literal("phaseFault"),
    since,
    detail: z.nullable(z.string()),
    /** The phase the box named as the cause, as a code, when it did. */
    phase: z._default(z.nullable(phaseSchema), null),
  }),
  /** No mains at the starter. */
  z.object({ kind: z.literal("noSupply"), since }),
  /** Current flows although no command of ours was confirmed: a welded contactor, a hand on the starter. */
  z.object({ kind: z.literal("runningWithoutCommand"), since }),
  /** The relay is ON (confirmed) but the motor has drawn next to nothing for 20 s after its start. */
  z.object({ kind: z.literal("noCurrent"), since }),
]);
export type Fault = z.infer<typeof faultSchema>;

export const pumpStateSchema = z.object({
  status: motorStatusSchema,
  statusSince: z.number(),
  statusSource: statusSourceSchema,
  deviceStatus: z.enum(["online", "offline"]),
  /** The box's last frame or heartbeat (ms), null if it never connected. */
  lastSeenAt: z.nullable(z.number()),
  pendingCommand: z.nullable(pendingCommandSchema),
  /** An ON is refused before this (ms; in the past or 0 when it is not). OFF never waits. */
  cooldownUntil: z.number(),
  faults: z.array(faultSchema),
  /** When the last power reading was taken (ms), null if none yet. */
  powerDataAt: z.nullable(z.number()),
  /**
   * When the hub will switch the motor off for a timed run (a schedule's "ON for N minutes", a
   * power-window run): the earliest switch-off it owes (ms), null when it owes none. Absent
   * from states an older page kept: none known.
   */
  stopsAt: z._default(z.nullable(z.number()), null),
  /**
   * While ON: who started this run, by the command that started it; null when no command of a
   * person or a schedule did (a hand at the starter, a run the hub could not attribute). Absent
   * from states an older page kept: not known.
   */
  // Read as it comes: the hub made it, the page only words it, and a check costs bytes on the phone.
  startedBy: z._default(z.nullable(z.custom<RunStarter>()), null),
  /** The hub's clock when this was built: pages count down and age against it, not their own. */
  at: z.number(),
});
export type PumpState = z.infer<typeof pumpStateSchema>;
