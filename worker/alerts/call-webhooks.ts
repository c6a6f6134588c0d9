// What the provider's webhooks about an alert's SMS and calls lead to (docs/telephony.md, "Alerts
// by SMS and call"), called by the webhook route for a verified event the first time it arrives
// (worker/api/telephony.ts), never for a replay:
// - a call's status is kept; a call nobody answered (no answer, busy, failed) sends the alert's
//   SMS instead, once per event;
// - an SMS's status is kept;
//   each in the hub of the pump the alert is about, which the reference we gave the provider
//   names with the delivery's id there (`alert:<device id>:<id>`, phone-alerts.ts): the hub
//   checks that the provider's id is the one it was given for that delivery;
// - the stop key (1) on an alert's call switches the pump OFF through the same hub method and role
//   check as the app's OFF (worker/services/motor-commands.ts), for the account that was called,
//   and the call says what the box confirmed. A key for a call placed more than
//   CALL_KEY_LIFETIME_MS ago, or for a call that is not the one we placed, does nothing;
// - a farmer's SMS command, missed call and call to the voice menu, and the menu's keys, switch
//   from any phone (worker/phone-control/).
import {
  CALL_KEY_LIFETIME_MS,
  MOTOR_STOPPED_KINDS,
  type PhoneAlertKind,
  STOP_KEY,
} from "../../common/alert-channels.ts";
import type { AlertDelivery, MotorCommandResult } from "../../common/hub-contract.ts";
import { roleMay } from "../../common/pump-roles.ts";
import type { CallReference, TelephonyEvent, TelephonyProviderName } from "../../common/telephony-events.ts";
import { accountOf, type PhoneLanguage } from "../db/alert-settings.ts";
import { getDb } from "../db/client.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { onInboundSms, onMissedCall, type PhoneCommandEnv } from "../phone-control/sms-and-missed-calls.ts";
import {
  answerMenuCall,
  menuKey,
  menuWordsOf,
  spokenPumpState,
  type VoiceMenuEnv,
} from "../phone-control/voice-menu.ts";
import { switchPump } from "../services/motor-commands.ts";
import { pumpAccessOf } from "../services/pump-access.ts";
import type { MenuAnswer } from "../telephony/provider.ts";
import { type CallOutcomeScript, voiceText } from "../telephony/voice-scripts.ts";
import { deliveryOfReference, type PhoneAlertEnv } from "./phone-alerts.ts";

export type CallWebhookEnv = PhoneAlertEnv & PhoneCommandEnv & VoiceMenuEnv & Pick<Env, "DEVICE_HUB">;

/** An alert call of a pump, as its hub keeps it. */
type AlertCall = AlertDelivery & { deviceId: string };

/** What the call says in answer to a webhook: its words and their language. */
export type CallWords = { language: PhoneLanguage; text: string };

/** What the stop key's command came to, as the call says it. */
function outcomeScript(result: MotorCommandResult): CallOutcomeScript {
  if (result.ok) return result.status === "off" ? "stopConfirmed" : "stopFailed";
  switch (result.code) {
    case "offline":
      return "stopOffline";
    case "timeout":
    case "linkLost":
      return "stopUnconfirmed";
    case "notAllowed":
      return "stopNotAllowed";
    default:
      return "stopFailed";
  }
}

const OUTCOMES: readonly CallOutcomeScript[] = [
  "stopConfirmed",
  "stopUnconfirmed",
  "stopOffline",
  "stopFailed",
  "stopNotAllowed",
  "callExpired",
];

function isOutcome(value: string | null): value is CallOutcomeScript {
  return value !== null && (OUTCOMES as readonly string[]).includes(value);
}

/** The alert's call a webhook is about: the delivery its reference names, if the provider's call id agrees. */
async function alertCallOf(
  env: CallWebhookEnv,
  provider: TelephonyProviderName,
  callId: string,
  reference: CallReference | null,
): Promise<AlertCall | null> {
  const named = deliveryOfReference(reference?.code);
  if (!named) return null;
  const call = await deviceHub(env, named.deviceId).alertCall({ id: named.id, provider, providerId: callId });
  return call ? { ...call, deviceId: named.deviceId } : null;
}

/** The outcome of a 1 that told the motor's state (a call about a motor already stopped). */
const STATE_TOLD = "stateTold";

/** Whether the call of this kind offered its 1 to hear the state rather than to stop (voice-scripts.ts). */
function offersState(kind: string): boolean {
  return (MOTOR_STOPPED_KINDS as readonly string[]).includes(kind as PhoneAlertKind);
}

/** The state key: the motor's state, for the account that was called, if it still has the pump. */
async function pressState(env: CallWebhookEnv, row: AlertCall): Promise<string | null> {
  const db = getDb(env.DB);
  const user = await accountOf(db, row.userId);
  if (!user) return null;
  const access = await pumpAccessOf(db, { id: user.id, mobileNo: user.mobileNo, audience: "user" }, row.deviceId);
  if (!access) return null;
  return spokenPumpState(env, row.deviceId, row.language);
}

/** The stop key: the hub's OFF for the account that was called, if it may still switch the pump. */
async function pressStop(env: CallWebhookEnv, row: AlertCall): Promise<CallOutcomeScript> {
  const db = getDb(env.DB);
  const user = await accountOf(db, row.userId);
  if (!user) return "stopNotAllowed";
  const caller = { id: user.id, mobileNo: user.mobileNo, audience: "user" as const };
  const access = await pumpAccessOf(db, caller, row.deviceId);
  if (!access || !roleMay(access.role, "switch")) return "stopNotAllowed";
  return outcomeScript(await switchPump(env, caller, access, "off", "call"));
}

async function keypress(
  env: CallWebhookEnv,
  event: Extract<TelephonyEvent, { type: "keypress" }>,
  now: number,
): Promise<CallWords | null> {
  const row = await alertCallOf(env, event.provider, event.callId, event.reference);
  if (!row) return null;
  const words = (text: string) => ({ language: row.language, text });
  if (event.digits !== STOP_KEY) return words(voiceText("otherKey", row.language, { digit: event.digits }));
  // The provider signs no time: our own dates say whether this is the call's key or a stale one.
  const placedAt = Math.min(event.reference?.placedAt ?? 0, row.createdAt);
  let script: CallOutcomeScript;
  if (now - placedAt > CALL_KEY_LIFETIME_MS) script = "callExpired";
  else if (row.outcome !== null) return words(voiceText("keypressReceived", row.language, { digit: event.digits }));
  else if (offersState(row.kind)) {
    // The motor was already stopped: the key asks for its state and commands nothing.
    const told = await pressState(env, row);
    if (told === null) script = "stopNotAllowed";
    else {
      await deviceHub(env, row.deviceId).alertCallOutcome(row.id, STATE_TOLD);
      return words(told);
    }
  } else script = await pressStop(env, row);
  await deviceHub(env, row.deviceId).alertCallOutcome(row.id, script);
  return words(voiceText(script, row.language, {}));
}

/** A status of an alert's call or SMS, to the hub its reference names (which checks the provider's id is the one it gave). */
async function deliveryStatus(
  env: CallWebhookEnv,
  event: Extract<TelephonyEvent, { type: "callStatus" | "smsStatus" }>,
): Promise<void> {
  const named = deliveryOfReference(event.reference?.code);
  if (!named) return;
  const hub = deviceHub(env, named.deviceId);
  if (event.type === "callStatus")
    await hub.alertCallStatus(
      { id: named.id, provider: event.provider, providerId: event.callId },
      event.status,
      event.durationSeconds,
    );
  else await hub.alertSmsStatus({ id: named.id, provider: event.provider, providerId: event.messageId }, event.status);
}

/**
 * Acts on a verified event the first time it arrives; how the call should go on (the words after
 * a key on one of our alert calls, the voice menu's answer to a call or a key), else null.
 */
export async function onTelephonyEvent(
  env: CallWebhookEnv,
  event: TelephonyEvent,
  now = Date.now(),
): Promise<MenuAnswer | null> {
  switch (event.type) {
    case "keypress": {
      if (event.menu) return menuKey(env, event, now);
      const words = await keypress(env, event, now);
      return words ? { kind: "end", ...words } : null;
    }
    case "callStatus":
    case "smsStatus":
      await deliveryStatus(env, event);
      return null;
    // Switching from any phone (worker/phone-control/).
    case "inboundSms":
      await onInboundSms(env, event);
      return null;
    case "missedCall":
      await onMissedCall(env, event);
      return null;
    case "menuCall":
      return answerMenuCall(env, event, now);
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * What a call's key did, for the closing greeting that asks (Exotel's flows: an alert's call, or
 * the voice menu's); null for no call of ours.
 */
export async function outcomeOfCall(
  env: CallWebhookEnv,
  provider: string,
  { callId, reference }: { callId: string; reference: CallReference | null },
): Promise<CallWords | null> {
  if (provider !== "twilio" && provider !== "exotel") return null;
  const row = await alertCallOf(env, provider, callId, reference);
  if (!row) return menuWordsOf(env, provider, callId, "outcome");
  if (row.outcome === STATE_TOLD)
    return { language: row.language, text: await spokenPumpState(env, row.deviceId, row.language) };
  const script = isOutcome(row.outcome) ? row.outcome : "noKeypress";
  return { language: row.language, text: voiceText(script, row.language, {}) };
}
