// The few words a reply to a phone fills into its SMS template or speaks on the voice menu: why a
// command was not carried out, the motor's state and the supply's, by code, in Hindi and English.
// Always ours, never a box's own text (which no DLT template could take).
import { MOTOR_COOLDOWN_MS } from "../../common/constants.ts";
import type { MotorCommandResult } from "../../common/hub-contract.ts";
import { formatDuration } from "../../common/i18n/format.ts";
import type { MotorStatus } from "../../common/pump-state.ts";
import type { SmsLanguage } from "../telephony/sms-templates.ts";

/** Why the hub did not carry out a command, as a code a reply words (hub refusals grouped). */
export type NotDoneReason =
  | "offline"
  | "wait"
  | "phaseFault"
  | "noSupply"
  | "voltage"
  | "refused"
  /** A firmware update is being installed: no switching until it is done. */
  | "updating"
  /** An ON by SMS to a pump with a PIN, without the right one; and after too many wrong ones. */
  | "pin"
  | "pinLocked";

const REASONS: Record<Exclude<NotDoneReason, "wait">, Record<SmsLanguage, string>> = {
  offline: { hi: "डिवाइस ऑफ़लाइन है", en: "the box is offline" },
  phaseFault: { hi: "फेज़ फॉल्ट है", en: "there is a phase fault" },
  noSupply: { hi: "पंप पर बिजली नहीं है", en: "there is no power at the pump" },
  voltage: { hi: "वोल्टेज सीमा से बाहर है", en: "the voltage is out of limits" },
  refused: { hi: "डिवाइस ने मना किया", en: "the box refused" },
  updating: { hi: "डिवाइस अपडेट हो रहा है", en: "the box is updating" },
  pin: { hi: "पिन गलत है या लिखा नहीं", en: "wrong or missing PIN" },
  pinLocked: { hi: "पिन कई बार गलत, बाद में भेजें", en: "too many wrong PINs, try later" },
};

/**
 * The reason's words. `wait`: how long is left of the pause after a command, as the hub said
 * (`retryAfterMs`), else the whole pause the app counts down too (MOTOR_COOLDOWN_MS), in the
 * reader's units by Intl ("10 सेकंड", "1 second"): never "a minute" for a 10 s pause.
 */
export function reasonWords(reason: NotDoneReason, language: SmsLanguage, waitMs?: number): string {
  if (reason !== "wait") return REASONS[reason][language];
  const wait = formatDuration(Math.max(1, Math.ceil((waitMs ?? MOTOR_COOLDOWN_MS) / 1000)), language).replace(
    /\s/gu,
    " ",
  );
  return language === "hi" ? `${wait} बाद फिर भेजें` : `wait ${wait} and send again`;
}

/** How long a timed ON runs, in the reader's units and plurals by Intl: "1 minute", "2 घंटे", "1 hour 30 minutes". */
export function runWords(minutes: number, language: SmsLanguage): string {
  return formatDuration(minutes * 60, language).replace(/\s/gu, " ");
}

/** A refusal of the hub as a reply's reason (`timeout` and `linkLost` are "not confirmed", not refusals). */
export function notDoneReason(result: Extract<MotorCommandResult, { ok: false }>): NotDoneReason {
  switch (result.code) {
    case "offline":
      return "offline";
    case "cooldown":
    case "busy":
      return "wait";
    case "otaBusy":
      return "updating";
    case "phaseFault":
      return "phaseFault";
    case "noSupply":
      return "noSupply";
    case "underVoltage":
    case "overVoltage":
    case "voltageUnbalance":
      return "voltage";
    default:
      return "refused";
  }
}

const RELAY: Record<MotorStatus | "offline", Record<SmsLanguage, string>> = {
  on: { hi: "चालू", en: "ON" },
  off: { hi: "बंद", en: "OFF" },
  unknown: { hi: "पता नहीं", en: "not known" },
  offline: { hi: "पता नहीं", en: "not known" },
};

export function relayWords(status: MotorStatus | "offline", language: SmsLanguage): string {
  return RELAY[status][language];
}

const SUPPLY: Record<"yes" | "no" | "unknown", Record<SmsLanguage, string>> = {
  yes: { hi: "है", en: "on" },
  no: { hi: "नहीं है", en: "off" },
  unknown: { hi: "पता नहीं", en: "not known" },
};

export function supplyWords(supply: "yes" | "no" | "unknown", language: SmsLanguage): string {
  return SUPPLY[supply][language];
}
