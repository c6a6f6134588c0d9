// A motor log entry as the DeviceHub writes it, D1 stores it and the API and the realtime
// socket carry it: a `kind` with its parameters, never a sentence. Each page words it in its
// reader's language (common/i18n/motor-log.ts); docs/motor-log.md lists every kind.
//
// Parameters are codes and numbers. Text only where a box said it in its own words (an ack's
// error, an OTA failure, a phase fault's detail): pages show that quoted, as the box wrote it.

import { phaseSchema, relayStateSchema } from "./device-protocol.ts";
import { z } from "./zod.ts";

const minuteOfDay = z
  .number()
  .int()
  .min(0)
  .max(24 * 60 - 1);
const minutes = z.number().int().positive();
/** Words from a box: an ack's `error` (≤200), an OTA failure, a phase fault's `detail` (≤120). */
const boxText = z.string().max(500);
const version = z.string().max(64);

/** Why the hub itself switched the motor OFF. `safety`: an older entry that did not say why. */
export const serverReasonSchema = z.enum([
  "dryRunNotStopped",
  "overCurrentNotStopped",
  "underVoltageNotStopped",
  "overVoltageNotStopped",
  "voltageUnbalanceNotStopped",
  "restartedAfterPowerCut",
  "safety",
]);
export type ServerReason = z.infer<typeof serverReasonSchema>;

/**
 * Who asked for a switch: a person in the app (which one), on an alert's call or from a phone, one
 * of the box's schedules (its time, repeat and "ON for N minutes"), the switch-off such a schedule
 * or a person's timed ON owes N minutes later, or the hub itself.
 */
export const commandOriginSchema = z.discriminatedUnion("by", [
  z.object({
    by: z.literal("app"),
    /**
     * Who tapped (older entries do not say): their account, whether they own the box or
     * operate it, and the owner's name for an operator ("राम"). Flat, as log parameters are.
     */
    userId: z.number().int().optional(),
    role: z.enum(["owner", "operator"]).optional(),
    label: z.string().max(40).nullable().optional(),
  }),
  z.object({
    by: z.literal("schedule"),
    minuteOfDay,
    repeat: z.enum(["daily", "weekly", "once"]),
    /** "ON for N minutes"; null: it stays ON. */
    forMinutes: minutes.nullable(),
  }),
  /**
   * A person who pressed the stop key on one of the pump's alert calls (worker/alerts/call-keys.ts):
   * their account, whether they own the box or operate it, and the owner's name for an operator.
   */
  z.object({
    by: z.literal("call"),
    userId: z.number().int(),
    role: z.enum(["owner", "operator"]),
    label: z.string().max(40).nullable(),
  }),
  z.object({ by: z.literal("scheduleOff"), afterMinutes: minutes }),
  /**
   * A person who switched from a phone (worker/phone-control/): an SMS command, a missed call to
   * the pump's number, or the voice menu; who, as for the app; `forMinutes`: an "ON for N minutes".
   */
  z.object({
    by: z.literal("phone"),
    via: z.enum(["sms", "missedCall", "voiceMenu"]),
    userId: z.number().int(),
    role: z.enum(["owner", "operator"]),
    label: z.string().max(40).nullable(),
    forMinutes: minutes.nullable(),
  }),
  /** The switch-off a person's "ON for N minutes" owes, made by the hub when the minutes are up. */
  z.object({ by: z.literal("timedOff"), afterMinutes: minutes }),
  /** A power window's run started (or resumed) with supply present: `leftMinutes` of `runMinutes` to go. */
  z.object({
    by: z.literal("powerWindow"),
    fromMinute: minuteOfDay,
    toMinute: minuteOfDay,
    runMinutes: minutes,
    leftMinutes: minutes,
  }),
  /** ...and stopped by the hub: its minutes are run (`complete`) or its window closed. */
  z.object({
    by: z.literal("powerWindowEnd"),
    reason: z.enum(["complete", "windowClosed"]),
    ranMinutes: z.number().int().min(0),
    runMinutes: minutes,
  }),
  z.object({ by: z.literal("server"), reason: serverReasonSchema }),
]);
export type CommandOrigin = z.infer<typeof commandOriginSchema>;

/** Why the hub could not carry out a command (HubFailure in common/hub-contract.ts). */
export const hubFailureCodeSchema = z.enum([
  "offline",
  "cooldown",
  "busy",
  "timeout",
  "linkLost",
  "rejected",
  "phaseFault",
  "noSupply",
  /** The box would not start the motor on a supply out of its voltage limits. */
  "underVoltage",
  "overVoltage",
  "voltageUnbalance",
]);
export type HubFailureCode = z.infer<typeof hubFailureCodeSchema>;

/** A refusal as a log keeps it: its code, and the box's own words when the box refused. */
export const commandFailureSchema = z.object({ code: hubFailureCodeSchema, error: boxText.nullable() });
export type CommandFailure = z.infer<typeof commandFailureSchema>;

const relay = relayStateSchema;

export const motorLogEventSchema = z.discriminatedUnion("kind", [
  /** The box confirmed a command: in time, late, or when it reconnected. */
  z.object({
    kind: z.literal("switched"),
    relay,
    origin: commandOriginSchema,
    /** `byCurrent`: an ON whose answer was lost, shown running soon after by its current. */
    confirmed: z.enum(["inTime", "late", "onReconnect", "byCurrent"]),
  }),
  /** A command got no answer (`noAnswer`) or the box dropped first (`linkLost`): the motor may be running. */
  z.object({
    kind: z.literal("unconfirmed"),
    relay,
    origin: commandOriginSchema,
    why: z.enum(["noAnswer", "linkLost"]),
  }),
  /** The box stated its relay without a command of ours. */
  z.object({
    kind: z.literal("stated"),
    relay,
    how: z.enum([
      /** A hand on the box's switch. */
      "manual",
      /** A schedule of the box's own. */
      "boxSchedule",
      /** The box restarted. */
      "restart",
      /** An answer or a report the hub no longer waited for. */
      "reported",
      /** The relay in the box's hello. */
      "reconnected",
      /** The box switched the motor back ON when mains returned (the hub then stops it). */
      "afterPowerCut",
    ]),
  }),
  /** Current proves the motor turns although no command was confirmed (A). */
  z.object({ kind: z.literal("runningWithoutCommand"), current: z.number() }),
  z.object({ kind: z.literal("noCurrent") }),
  /** The box tripped the relay; `current` that caused it, when it said. */
  z.object({ kind: z.literal("tripDryRun"), current: z.number().nullable() }),
  z.object({ kind: z.literal("tripOverCurrent"), current: z.number().nullable() }),
  /** A voltage trip: the lowest (under) or highest (over) phase's volts, or the unbalance in %, with the limit then. */
  z.object({ kind: z.literal("tripUnderVoltage"), volts: z.number().nullable(), limit: z.number() }),
  z.object({ kind: z.literal("tripOverVoltage"), volts: z.number().nullable(), limit: z.number() }),
  z.object({ kind: z.literal("tripVoltageUnbalance"), percent: z.number().nullable(), limit: z.number() }),
  z.object({ kind: z.literal("phaseFault"), phase: z.nullable(phaseSchema), detail: boxText.nullable() }),
  z.object({ kind: z.literal("phaseOk") }),
  z.object({ kind: z.literal("powerLost") }),
  z.object({ kind: z.literal("powerRestored") }),
  /** The box's enclosure was opened (its tamper switch); `tamperOk`: closed again. */
  z.object({ kind: z.literal("tamper") }),
  z.object({ kind: z.literal("tamperOk") }),
  /** Every phase went while the motor ran, the box on its battery, while boxes of its feeder kept supply. */
  z.object({ kind: z.literal("cableCut") }),
  /** The hub tried to stop the motor for `reason` and the box refused. */
  z.object({ kind: z.literal("serverOffFailed"), reason: serverReasonSchema }),
  z.object({ kind: z.literal("mobileNoChanged"), mobileNo: z.string().max(20) }),
  /** The box would not start an update; `error`: its words, if it gave any. */
  z.object({ kind: z.literal("otaRefused"), version, error: boxText.nullable() }),
  z.object({ kind: z.literal("otaStarted"), version }),
  z.object({ kind: z.literal("otaDone"), version }),
  /**
   * `box`: the box reported a failure (`error`: its words, if any); `otherVersion`: it came
   * back with `firmware` instead; `timeout`: nothing completed within 10 minutes.
   */
  z.object({
    kind: z.literal("otaFailed"),
    version,
    reason: z.enum(["box", "otherVersion", "timeout"]),
    error: boxText.nullable(),
    firmware: version.nullable(),
  }),
  /** A schedule's run did not happen: the box was offline, or the hub could not run it on time. */
  z.object({ kind: z.literal("scheduleMissed"), action: relay, minuteOfDay, reason: z.enum(["offline", "late"]) }),
  /** A schedule's run was refused (phase fault, no mains, the box said no...). */
  z.object({ kind: z.literal("scheduleNotRun"), action: relay, minuteOfDay, failure: commandFailureSchema }),
  /** The switch-off an "ON for N minutes" owes failed; it is tried again every minute. */
  z.object({ kind: z.literal("scheduleOffFailed"), afterMinutes: minutes, failure: commandFailureSchema }),
  /** ...and given up after a day. */
  z.object({ kind: z.literal("scheduleOffGivenUp"), afterMinutes: minutes }),
  /** A power window's run paused by a cut; it runs the minutes left if supply returns before `toMinute`. */
  z.object({
    kind: z.literal("powerWindowPaused"),
    reason: z.enum(["powerCut", "phaseFault"]),
    ranMinutes: z.number().int().min(0),
    runMinutes: minutes,
    toMinute: minuteOfDay,
  }),
  /**
   * A power window's run is over short of its minutes, or never began: no supply came, the
   * window closed, a cut (without resume), someone or something else stopped the motor, the
   * hub could not look in time, or the start was refused or never confirmed.
   */
  z.object({
    kind: z.literal("powerWindowEnded"),
    reason: z.enum([
      "windowClosed",
      "noSupply",
      "powerCut",
      "phaseFault",
      "stopped",
      "late",
      "timeout",
      "linkLost",
      "rejected",
      "underVoltage",
      "overVoltage",
      "voltageUnbalance",
    ]),
    ranMinutes: z.number().int().min(0),
    runMinutes: minutes,
    fromMinute: minuteOfDay,
    toMinute: minuteOfDay,
  }),
  /** An entry written as a sentence before kinds existed that the migration could not read. */
  z.object({ kind: z.literal("legacy"), text: z.string() }),
]);
export type MotorLogEvent = z.infer<typeof motorLogEventSchema>;
export type MotorLogKind = MotorLogEvent["kind"];
export const MOTOR_LOG_KINDS: readonly MotorLogKind[] = motorLogEventSchema.options.map(
  (option) => option.shape.kind.value,
);

/** The stored parts of an event: its kind, and the rest as the parameters. */
export function splitMotorLogEvent(event: MotorLogEvent): {
  kind: MotorLogKind;
  params: Record<string, MotorLogParam>;
} {
  const { kind, ...params } = event;
  return { kind, params };
}

type FlatParam = string | number | boolean | null;
/** A parameter's value: a code, a number, the box's words, or one level of those (an origin, a failure). */
export type MotorLogParam = FlatParam | Record<string, FlatParam>;

/**
 * The event stored as `kind` and `params`. Anything this code cannot read (a row of an older
 * or newer shape) is shown as `fallbackText`, the sentence written with it.
 */
export function motorLogEventOf(kind: string, params: unknown, fallbackText: string): MotorLogEvent {
  const fields = typeof params === "object" && params !== null ? params : {};
  const parsed = motorLogEventSchema.safeParse({ ...fields, kind });
  return parsed.success ? parsed.data : { kind: "legacy", text: fallbackText };
}
