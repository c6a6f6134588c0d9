// How each alert reaches a farmer besides the app (docs/telephony.md, "Alerts by SMS and call";
// docs/decisions/026-alerts-by-sms-and-call.md): per kind, the app only, an SMS, or a call that
// is followed by an SMS when nobody answers it. Eight kinds go by phone, each with its DLT template
// (worker/telephony/sms-templates.ts) and its call script (worker/telephony/voice-scripts.ts);
// the others stay in the app. Only a verified number gets SMS and calls, within a daily cap.
// No zod here: the /alerts page's bundle takes this module (the API's schemas are in
// ./alert-channel-schemas.ts).
import type { PumpAlert } from "./alerts.ts";

/** The kinds a farmer can have by SMS or call, in the order /alerts lists them. */
export const PHONE_ALERT_KINDS = [
  "dryRun",
  "phaseFault",
  "voltageTrip",
  "offlineWhileOn",
  "powerBack",
  "scheduleMissed",
  "tamper",
  "cableCut",
] as const;
export type PhoneAlertKind = (typeof PHONE_ALERT_KINDS)[number];

/**
 * What an alert's SMS or call can be about, as deliveries are kept: a phone kind, or
 * `backOnline`, the SMS that follows an "offline while ON" alert when the box is back, sent to
 * whoever that alert reached (it has no channel of its own to choose).
 */
export const DELIVERY_KINDS = [...PHONE_ALERT_KINDS, "backOnline"] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

export const ALERT_CHANNELS = ["app", "sms", "call"] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/**
 * The kinds that may need the farmer at once: something stopped the motor or nobody can, and
 * it may be running when it should not. They are called by default.
 */
const CRITICAL_ALERT_KINDS: readonly PhoneAlertKind[] = [
  "dryRun",
  "phaseFault",
  "voltageTrip",
  "offlineWhileOn",
  "tamper",
  "cableCut",
];

/**
 * Theft is under way at the well while the alert goes out: whoever chose a call for these gets
 * the SMS at once as well, not only when the call goes unanswered, so the words are on the
 * phone of someone who picked up on a noisy line or is on the way.
 */
export const CALL_AND_SMS_KINDS: readonly PhoneAlertKind[] = ["tamper", "cableCut"];

export type AlertChannels = Record<PhoneAlertKind, AlertChannel>;

/**
 * What a farmer who never opened /alerts gets: a call for the critical kinds, an SMS for the
 * others. A safety product reaches the farmer without asking first; the daily caps bound
 * what it costs, and an unverified number gets neither until it is verified.
 */
export const DEFAULT_ALERT_CHANNELS = Object.fromEntries(
  PHONE_ALERT_KINDS.map((kind) => [kind, CRITICAL_ALERT_KINDS.includes(kind) ? "call" : "sms"]),
) as AlertChannels;

/** SMS and calls an account may get in one IST day; what is over goes by the app only. */
export const DAILY_ALERT_CAPS = { sms: 10, call: 5 } as const;

/**
 * A farmer is not called or sent an SMS twice within this time about the same pump and kind:
 * a box repeating itself, a fault that comes and goes. The app still shows each one.
 */
export const ALERT_REPEAT_WINDOW_MS = 10 * 60_000;

/**
 * A key pressed on a call placed longer ago than this does nothing: a call rings 30 s and lasts
 * 120 s at most, so only a replayed or stale webhook can be older.
 */
export const CALL_KEY_LIFETIME_MS = 10 * 60_000;

/** Where an alert's SMS or call is: ours (`sending`, `capped`, `refused`) or the provider's last word. */
export const ALERT_DELIVERY_STATUSES = [
  "sending",
  "capped",
  "refused",
  "queued",
  "sent",
  "delivered",
  "undelivered",
  "failed",
  "ringing",
  "answered",
  "completed",
  "busy",
  "noAnswer",
  "canceled",
] as const;
export type AlertDeliveryStatus = (typeof ALERT_DELIVERY_STATUSES)[number];

/** What fills an alert's SMS and call: the pump's name, and the time it is about (a box's last word, a schedule's). */
export type PhoneAlertValues = { pumpName: string; time?: string };

/** The key that stops the motor on an alert's call (or, on a call about a stopped motor, tells its state). */
export const STOP_KEY = "1";

/**
 * The kinds whose motor is already stopped when the call is placed (the box tripped it, holds it
 * off, or the power just came back with the relay open): their call offers the key to hear the
 * motor's state, not to stop it. The others may leave it running (offline, a missed schedule,
 * the box opened, its cable cut) and offer the stop.
 */
export const MOTOR_STOPPED_KINDS: readonly PhoneAlertKind[] = ["dryRun", "phaseFault", "voltageTrip", "powerBack"];

/** The phone kind an alert is, or null for one that stays in the app (overcurrent, phase back, ...). */
export function phoneAlertKindOf(alert: PumpAlert): PhoneAlertKind | null {
  switch (alert.kind) {
    case "dryRun":
      return "dryRun";
    case "voltage":
      return "voltageTrip";
    case "phase":
      return alert.state === "fault" ? "phaseFault" : null;
    case "power":
      return alert.state === "back" ? "powerBack" : null;
    case "offlineWhileOn":
      // Back online is no call: worker/alerts/phone-alerts.ts sends its SMS to whoever the alert reached.
      return alert.backOf === undefined ? "offlineWhileOn" : null;
    case "schedule":
      return alert.outcome === "done" ? null : "scheduleMissed";
    case "theft":
      return alert.cause;
    case "overCurrent":
    case "runningWithoutCommand":
      return null;
    default: {
      const unreachable: never = alert;
      return unreachable;
    }
  }
}

/** Stored choices over the defaults: a kind added later starts at its default. */
export function alertChannelsOf(stored: Partial<Record<string, unknown>> | null | undefined): AlertChannels {
  const channels = { ...DEFAULT_ALERT_CHANNELS };
  for (const kind of PHONE_ALERT_KINDS) {
    const value = stored?.[kind];
    if (isAlertChannel(value)) channels[kind] = value;
  }
  return channels;
}

export function isAlertChannel(value: unknown): value is AlertChannel {
  return (ALERT_CHANNELS as readonly unknown[]).includes(value);
}
