// The few words a reply to a phone fills into its SMS template or speaks on the voice menu: why a
// command was not carried out, the motor's state and the supply's, by code, in Hindi and English.
// Always ours, never a box's own text (which no DLT template could take).
import type { MotorCommandResult } from "../../common/hub-contract.ts";
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
  /** An ON by SMS to a pump with a PIN, without the right one; and after too many wrong ones. */
  | "pin"
  | "pinLocked";

const REASONS: Record<NotDoneReason, Record<SmsLanguage, string>> = {
  offline: { hi: "डिवाइस ऑफ़लाइन है", en: "the box is offline" },
  wait: { hi: "अभी रुकें, 1 मिनट बाद भेजें", en: "wait a minute and send again" },
  phaseFault: { hi: "फेज़ फॉल्ट है", en: "there is a phase fault" },
  noSupply: { hi: "पंप पर बिजली नहीं है", en: "there is no power at the pump" },
  voltage: { hi: "वोल्टेज सीमा से बाहर है", en: "the voltage is out of limits" },
  refused: { hi: "डिवाइस ने मना किया", en: "the box refused" },
  pin: { hi: "पिन गलत है या लिखा नहीं", en: "wrong or missing PIN" },
  pinLocked: { hi: "पिन कई बार गलत, बाद में भेजें", en: "too many wrong PINs, try later" },
};

export function reasonWords(reason: NotDoneReason, language: SmsLanguage): string {
  return REASONS[reason][language];
}

/** A refusal of the hub as a reply's reason (`timeout` and `linkLost` are "not confirmed", not refusals). */
export function notDoneReason(result: Extract<MotorCommandResult, { ok: false }>): NotDoneReason {
  switch (result.code) {
    case "offline":
      return "offline";
    case "cooldown":
    case "busy":
    case "otaBusy":
      return "wait";
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
