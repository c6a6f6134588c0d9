// Motor log entries and command failures in the reader's language, from their codes
// (common/motor-log-event.ts). Pages, the API's `logMessage` and `message`, and the English
// copy D1 keeps for people reading the table directly all come from here. Each function takes
// the reader's `Words` (language and dictionary): a page passes the one dictionary the root
// loader sent it (useWords), the server `wordsIn(language)` (./dictionaries.ts).
import type {
  CommandFailure,
  CommandOrigin,
  HubFailureCode,
  MotorLogEvent,
  MotorLogKind,
  MotorLogParam,
} from "../motor-log-event.ts";
import { formatClock } from "../schedule-time.ts";
import { type MessageKey, type MessageValues, type Words, wordIn } from "./catalogue.ts";
import { formatNumber, formatTimeOfDay } from "./format.ts";

const yes = (present: boolean) => (present ? "yes" : "no");

export function motorLogText(event: MotorLogEvent, words: Words): string {
  const t = (key: MessageKey, values?: MessageValues) => wordIn(words, key, values);
  switch (event.kind) {
    case "switched":
      return t("log.switched", {
        relay: event.relay,
        origin: commandOriginText(event.origin, words),
        byServer: yes(event.origin.by === "server"),
        confirmed: event.confirmed,
      });
    case "unconfirmed":
      return t("log.unconfirmed", {
        relay: event.relay,
        origin: commandOriginText(event.origin, words),
        why: event.why,
      });
    case "stated":
      return t("log.stated", { relay: event.relay, how: t(`log.how.${event.how}`) });
    case "runningWithoutCommand":
      return t("log.runningWithoutCommand", { current: formatNumber(event.current, words.language) });
    case "noCurrent":
    case "tripDryRun":
    case "tripOverCurrent":
    case "phaseOk":
    case "powerLost":
    case "powerRestored":
    case "tamper":
    case "tamperOk":
    case "cableCut":
      return t(`log.${event.kind}`);
    case "tripUnderVoltage":
    case "tripOverVoltage":
      return t(`log.${event.kind}`, {
        volts: event.volts === null ? "" : ` (${formatNumber(event.volts, words.language, 0)} V)`,
        limit: formatNumber(event.limit, words.language),
      });
    case "tripVoltageUnbalance":
      return t("log.tripVoltageUnbalance", {
        percent: event.percent === null ? "" : ` (${formatNumber(event.percent, words.language, 1)} %)`,
        limit: formatNumber(event.limit, words.language),
      });
    case "phaseFault":
      return t("log.phaseFault", {
        hasPhase: yes(event.phase !== null),
        phase: event.phase ?? "",
        hasDetail: yes(event.detail !== null),
        detail: event.detail ?? "",
      });
    case "serverOffFailed":
      return t("log.serverOffFailed", { reason: t(`log.reason.${event.reason}`) });
    case "mobileNoChanged":
      return t("log.mobileNoChanged", { mobileNo: event.mobileNo });
    case "otaRefused":
      return t("log.otaRefused", {
        version: event.version,
        hasError: yes(event.error !== null),
        error: event.error ?? "",
      });
    case "otaStarted":
    case "otaDone":
      return t(`log.${event.kind}`, { version: event.version });
    case "otaFailed":
      return t("log.otaFailed", {
        version: event.version,
        reason: event.reason,
        firmware: event.firmware ?? "",
        hasError: yes(event.error !== null),
        error: event.error ?? "",
      });
    case "scheduleMissed":
      return t("log.scheduleMissed", {
        action: event.action,
        time: clockIn(words, event.minuteOfDay),
        reason: event.reason,
      });
    case "scheduleNotRun":
      return t("log.scheduleNotRun", {
        action: event.action,
        time: clockIn(words, event.minuteOfDay),
        failure: withoutFullStop(commandFailureText(event.failure, words)),
      });
    case "scheduleOffFailed":
      return t("log.scheduleOffFailed", {
        minutes: event.afterMinutes,
        failure: withoutFullStop(commandFailureText(event.failure, words)),
      });
    case "scheduleOffGivenUp":
      return t("log.scheduleOffGivenUp", { minutes: event.afterMinutes });
    case "powerWindowPaused":
      return t("log.powerWindowPaused", {
        reason: event.reason,
        ran: event.ranMinutes,
        run: event.runMinutes,
        to: clockIn(words, event.toMinute),
      });
    case "powerWindowEnded":
      return t("log.powerWindowEnded", {
        reason: event.reason,
        ran: event.ranMinutes,
        run: event.runMinutes,
        from: clockIn(words, event.fromMinute),
        to: clockIn(words, event.toMinute),
      });
    case "legacy":
      return event.text;
    default: {
      const unreachable: never = event;
      throw new Error(`unhandled motor log ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Every kind this module words (the type keeps it complete). */
const KINDS: Record<MotorLogKind, true> = {
  switched: true,
  unconfirmed: true,
  stated: true,
  runningWithoutCommand: true,
  noCurrent: true,
  tripDryRun: true,
  tripOverCurrent: true,
  tripUnderVoltage: true,
  tripOverVoltage: true,
  tripVoltageUnbalance: true,
  phaseFault: true,
  phaseOk: true,
  powerLost: true,
  powerRestored: true,
  tamper: true,
  tamperOk: true,
  cableCut: true,
  serverOffFailed: true,
  mobileNoChanged: true,
  otaRefused: true,
  otaStarted: true,
  otaDone: true,
  otaFailed: true,
  scheduleMissed: true,
  scheduleNotRun: true,
  scheduleOffFailed: true,
  scheduleOffGivenUp: true,
  powerWindowPaused: true,
  powerWindowEnded: true,
  legacy: true,
};

/**
 * A log entry as the API and the realtime socket carry it, in the reader's words. The server sends only
 * events it parsed with `motorLogEventSchema`; pages do not parse them again, which would ship
 * that schema to every phone. An entry this page cannot word (a kind newer than the page) shows
 * the server's own `logMessage`.
 */
export function motorLogEntryText(
  entry: { kind: string; params: Record<string, MotorLogParam>; logMessage: string },
  words: Words,
): string {
  if (!Object.hasOwn(KINDS, entry.kind)) return entry.logMessage;
  try {
    return motorLogText({ ...entry.params, kind: entry.kind } as MotorLogEvent, words);
  } catch {
    return entry.logMessage;
  }
}

/**
 * A schedule's time in a log: English keeps the hub's own "6:00 AM" word for word (older
 * entries were stored so); other languages write it as Intl does every other time.
 */
function clockIn(words: Words, minuteOfDay: number): string {
  return words.language === "en" ? formatClock(minuteOfDay) : formatTimeOfDay(minuteOfDay, words.language);
}

/** "from the app", "by schedule (6:00 AM, daily)", "by the server: <why>", in the reader's words. */
export function commandOriginText(origin: CommandOrigin, words: Words): string {
  const t = (key: MessageKey, values?: MessageValues) => wordIn(words, key, values);
  switch (origin.by) {
    case "app":
      // Older entries, and commands from before boxes had several people, do not say who.
      return origin.role === undefined
        ? t("log.origin.app")
        : t("log.origin.person", { role: origin.role, label: origin.label ?? "" });
    case "call":
      return t("log.origin.call", { role: origin.role, label: origin.label ?? "" });
    case "schedule": {
      const values = { time: clockIn(words, origin.minuteOfDay), repeat: origin.repeat };
      return origin.forMinutes === null
        ? t("log.origin.schedule", values)
        : t("log.origin.scheduleFor", { ...values, minutes: origin.forMinutes });
    }
    case "scheduleOff":
      return t("log.origin.scheduleOff", { minutes: origin.afterMinutes });
    case "phone":
      return t("log.origin.phone", {
        role: origin.role,
        label: origin.label ?? "",
        via: origin.via,
        timed: yes(origin.forMinutes !== null),
        minutes: origin.forMinutes ?? 0,
      });
    case "timedOff":
      return t("log.origin.timedOff", { minutes: origin.afterMinutes });
    case "powerWindow":
      return t("log.origin.powerWindow", {
        from: clockIn(words, origin.fromMinute),
        to: clockIn(words, origin.toMinute),
        left: origin.leftMinutes,
        run: origin.runMinutes,
      });
    case "powerWindowEnd":
      return t("log.origin.powerWindowEnd", {
        reason: origin.reason,
        ran: origin.ranMinutes,
        run: origin.runMinutes,
      });
    case "server":
      return t("log.origin.server", { reason: t(`log.reason.${origin.reason}`) });
    default: {
      const unreachable: never = origin;
      throw new Error(`unhandled command origin ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The sentence of each refusal: the dashboard's own where it says the same. */
const FAILURE_KEYS: Record<Exclude<HubFailureCode, "rejected">, MessageKey> = {
  offline: "motor.deviceOffline",
  cooldown: "motor.waitCooldown",
  busy: "motor.busy",
  timeout: "motor.timeout",
  linkLost: "failure.linkLost",
  phaseFault: "motor.phaseFaultHint",
  noSupply: "motor.noSupply",
  underVoltage: "motor.underVoltage",
  overVoltage: "motor.overVoltage",
  voltageUnbalance: "motor.voltageUnbalance",
};

/** Why a command was not carried out, as a sentence; the box's own words when it refused. */
export function commandFailureText(
  failure: CommandFailure | { code: HubFailureCode; error?: string | null },
  words: Words,
): string {
  if (failure.code === "rejected") {
    const error = failure.error ?? null;
    return wordIn(words, "failure.rejected", { hasError: yes(error !== null), error: error ?? "" });
  }
  return wordIn(words, FAILURE_KEYS[failure.code]);
}

/** A sentence to be quoted inside another: its final full stop (or danda) goes. */
function withoutFullStop(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === "." || text[end - 1] === "।")) end--;
  return text.slice(0, end);
}
