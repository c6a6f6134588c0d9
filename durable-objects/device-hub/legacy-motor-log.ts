// Hubs created before motor log entries had kinds stored sentences: log entries still waiting
// in the outbox for D1, and the origin of a command still waiting for its answer (`note`).
// These read them back, as migration 0007 does for the rows already in D1
// (tests/worker/migrations/motor-log-kinds.test.ts checks that both read every sentence alike).

import {
  type CommandFailure,
  type CommandOrigin,
  type HubFailureCode,
  type MotorLogEvent,
  motorLogEventSchema,
  type ServerReason,
} from "../../common/motor-log-event.ts";
import type { CommandSource } from "../../common/pump-state.ts";
import { formatClock, parseClock } from "../../common/schedule-time.ts";

const SERVER_REASONS: Record<string, ServerReason> = {
  "dry run that the box did not stop": "dryRunNotStopped",
  "overcurrent that the box did not stop": "overCurrentNotStopped",
  "it restarted by itself after a power cut": "restartedAfterPowerCut",
  safety: "safety",
};

const STATED: Record<string, Extract<MotorLogEvent, { kind: "stated" }>["how"]> = {
  "switched at the box": "manual",
  "by the box's schedule": "boxSchedule",
  "box restarted": "restart",
  "reported by the box": "reported",
  "reported by the box when it reconnected": "reconnected",
  "restarted by the box after the power cut": "afterPowerCut",
};

/** The hub's refusals as it wrote them inside schedule entries, without their full stop. */
const FAILURES: Record<string, HubFailureCode> = {
  "Device is offline. Check its power and network, then try again": "offline",
  "Please wait for cooldown": "cooldown",
  "Another command is in progress. Please wait": "busy",
  "The device did not confirm the command. Check the motor status and try again": "timeout",
  "The device went offline before confirming the command. The motor may have switched": "linkLost",
  "The device refused the command": "rejected",
  "Phase fault detected. Motor operation is disabled until the phase is OK": "phaseFault",
  "There is no mains power at the pump": "noSupply",
};

const FIXED: Record<string, MotorLogEvent> = {
  "Motor is ON but draws no current.": { kind: "noCurrent" },
  "Dry run detected. Motor turned OFF automatically.": { kind: "tripDryRun", current: null },
  "Overcurrent detected. Motor turned OFF!": { kind: "tripOverCurrent", current: null },
  "Phase fault detected. Motor operation is disabled.": { kind: "phaseFault", phase: null, detail: null },
  "Phase is OK now.": { kind: "phaseOk" },
  "Power cut at the pump. Motor stopped.": { kind: "powerLost" },
  "Power is back at the pump. The motor stays OFF until someone switches it on.": { kind: "powerRestored" },
};

/** A time as the hub wrote it ("6:00 AM"), exactly. */
function clockOf(text: string): number | null {
  const minuteOfDay = parseClock(text);
  return minuteOfDay !== null && formatClock(minuteOfDay) === text ? minuteOfDay : null;
}

/** A pending command's `note` as older hubs kept it, with its source; null if unreadable. */
export function legacyOrigin(source: CommandSource, note: string | undefined): CommandOrigin | null {
  if (source === "app") return { by: "app" };
  if (source === "server") {
    const reason = SERVER_REASONS[note ?? "safety"];
    return reason ? { by: "server", reason } : null;
  }
  return note === undefined ? null : scheduleOrigin(note);
}

/** "6:00 AM, daily, for 30 minutes" or "after 30 minutes". */
function scheduleOrigin(note: string): CommandOrigin | null {
  const after = /^after (\d+) minutes$/.exec(note);
  if (after) return { by: "scheduleOff", afterMinutes: Number(after[1]) };
  const run = /^(\d{1,2}:\d{2} [AP]M), (daily|once)(?:, for (\d+) minutes)?$/.exec(note);
  const minuteOfDay = run ? clockOf(run[1]!) : null;
  if (!run || minuteOfDay === null) return null;
  return {
    by: "schedule",
    minuteOfDay,
    repeat: run[2] as "daily" | "once",
    forMinutes: run[3] ? Number(run[3]) : null,
  };
}

/** "from the app", "by schedule (…)", "by the server: <why>". */
function originOf(text: string): CommandOrigin | null {
  if (text === "from the app") return { by: "app" };
  const schedule = /^by schedule \((.+)\)$/.exec(text);
  if (schedule) return scheduleOrigin(schedule[1]!);
  const server = /^by the server: (.+)$/.exec(text);
  return server ? legacyOrigin("server", server[1]) : null;
}

function failureOf(text: string): CommandFailure {
  const code = FAILURES[text];
  return code ? { code, error: null } : { code: "rejected", error: text };
}

/** An old sentence as the event it told of; `legacy` with the sentence when it cannot be read. */
export function legacyMotorLogEvent(text: string): MotorLogEvent {
  const event = readSentence(text);
  const parsed = event && motorLogEventSchema.safeParse(event);
  return parsed?.success ? parsed.data : { kind: "legacy", text };
}

function readSentence(text: string): MotorLogEvent | null {
  const fixed = FIXED[text];
  if (fixed) return fixed;
  let match = /^Motor turned (ON|OFF) \((.+)\)$/.exec(text);
  const how = match ? STATED[match[2]!] : undefined;
  if (match && how) return { kind: "stated", relay: match[1] === "ON" ? "on" : "off", how };
  match = /^Motor turned (ON|OFF) (.+?)( \(confirmed late\)| \(confirmed when the box reconnected\))?$/.exec(text);
  if (match) {
    const rest = match[2]!;
    const origin = originOf(rest.startsWith("by the server: ") && rest.endsWith(".") ? rest.slice(0, -1) : rest);
    const confirmed = match[3] === " (confirmed late)" ? "late" : match[3] ? "onReconnect" : "inTime";
    return origin && { kind: "switched", relay: match[1] === "ON" ? "on" : "off", origin, confirmed };
  }
  match =
    /^Motor (ON|OFF) (.+?): the box (did not confirm it|went offline before confirming it) \(the motor may (?:still )?be running\)\.$/.exec(
      text,
    );
  if (match) {
    const origin = originOf(match[2]!);
    const why = match[3] === "did not confirm it" ? "noAnswer" : "linkLost";
    return origin && { kind: "unconfirmed", relay: match[1] === "ON" ? "on" : "off", origin, why };
  }
  match = /^Motor is running without a confirmed command \((.+) A\)\.$/.exec(text);
  if (match) return { kind: "runningWithoutCommand", current: Number(match[1]) };
  match = /^Phase fault detected: (.+)\. Motor operation is disabled\.$/.exec(text);
  if (match) {
    const phase = /^Phase ([RYB]) missing$/.exec(match[1]!)?.[1] as "R" | "Y" | "B" | undefined;
    return { kind: "phaseFault", phase: phase ?? null, detail: match[1]! };
  }
  match = /^The server could not switch the motor OFF \((.+)\)\. Check the pump\.$/.exec(text);
  if (match) {
    const reason = SERVER_REASONS[match[1]!];
    return reason ? { kind: "serverOffFailed", reason } : null;
  }
  match = /^Mobile number changed to (.+)\. The box restarts\.$/.exec(text);
  if (match) return { kind: "mobileNoChanged", mobileNo: match[1]! };
  match = /^Firmware updated to (\S+)\.$/.exec(text);
  if (match) return { kind: "otaDone", version: match[1]! };
  match = /^Firmware update to (\S+) started\.$/.exec(text);
  if (match) return { kind: "otaStarted", version: match[1]! };
  match = /^Firmware update to (\S+) refused: (.+)\.$/.exec(text);
  if (match)
    return { kind: "otaRefused", version: match[1]!, error: match[2] === "the box refused it" ? null : match[2]! };
  match = /^Firmware update to (\S+) failed: (.+)\.$/.exec(text);
  if (match) return otaFailed(match[1]!, match[2]!);
  match =
    /^Scheduled (ON|OFF) at (.+?) was missed: (the device was offline|the server could not run it on time)\.$/.exec(
      text,
    );
  let minuteOfDay = match ? clockOf(match[2]!) : null;
  if (match && minuteOfDay !== null) {
    const reason = match[3] === "the device was offline" ? "offline" : "late";
    return { kind: "scheduleMissed", action: match[1] === "ON" ? "on" : "off", minuteOfDay, reason };
  }
  match = /^Scheduled (ON|OFF) at (.+?) was not carried out: (.+)\.$/.exec(text);
  minuteOfDay = match ? clockOf(match[2]!) : null;
  if (match && minuteOfDay !== null) {
    return {
      kind: "scheduleNotRun",
      action: match[1] === "ON" ? "on" : "off",
      minuteOfDay,
      failure: failureOf(match[3]!),
    };
  }
  match = /^Scheduled switch-off \(after (\d+) minutes\) failed: (.+)\. Trying again every minute\.$/.exec(text);
  if (match) return { kind: "scheduleOffFailed", afterMinutes: Number(match[1]), failure: failureOf(match[2]!) };
  match =
    /^Scheduled switch-off \(after (\d+) minutes\) was given up after a day of failed attempts\. Check the pump\.$/.exec(
      text,
    );
  if (match) return { kind: "scheduleOffGivenUp", afterMinutes: Number(match[1]) };
  return null;
}

function otaFailed(version: string, reason: string): MotorLogEvent {
  if (reason === "no answer from the box within 10 minutes")
    return { kind: "otaFailed", version, reason: "timeout", error: null, firmware: null };
  if (reason.startsWith("the box restarted with ")) {
    return {
      kind: "otaFailed",
      version,
      reason: "otherVersion",
      error: null,
      firmware: reason.slice("the box restarted with ".length),
    };
  }
  if (reason === "the box reported a failure")
    return { kind: "otaFailed", version, reason: "box", error: null, firmware: null };
  return { kind: "otaFailed", version, reason: "box", error: reason, firmware: null };
}
