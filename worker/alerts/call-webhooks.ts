// What the provider's webhooks about an alert's SMS and calls lead to (docs/telephony.md, "Alerts
// by SMS and call"), called by the webhook route for a verified event the first time it arrives
// (worker/api/telephony.ts), never for a replay:
// - a call's status is kept; a call nobody answered (no answer, busy, failed) sends the alert's
//   SMS instead, once per event;
// - an SMS's status is kept;
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
import type { MotorCommandResult } from "../../common/hub-contract.ts";
import { roleMay } from "../../common/pump-roles.ts";
import type { TelephonyEvent } from "../../common/telephony-events.ts";
import {
  accountOf,
  findDelivery,
  findDeliveryByProviderId,
  type PhoneLanguage,
  phoneRecipientsOf,
  recordCallOutcome,
  recordDeliveryStatus,
} from "../db/alert-deliveries.ts";
import { getDb } from "../db/client.ts";
import type { AlertDeliveryRow } from "../db/schema.ts";
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
import { type PhoneAlertEnv, providerOf, sendAlertSms } from "./phone-alerts.ts";

export type CallWebhookEnv = PhoneAlertEnv & PhoneCommandEnv & VoiceMenuEnv;

/** What the call says in answer to a webhook: its words and their language. */
export type CallWords = { language: PhoneLanguage; text: string };

/** A call's final statuses that mean nobody heard it. */
const UNANSWERED = new Set(["noAnswer", "busy", "failed", "canceled"]);

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

/** The alert's call a keypress is about: the claim its reference names, if the provider's call id agrees. */
async function callOfKeypress(
  env: CallWebhookEnv,
  event: Extract<TelephonyEvent, { type: "keypress" }>,
): Promise<AlertDeliveryRow | null> {
  const claimId = /^alert:([0-9]{1,15})$/.exec(event.reference?.code ?? "")?.[1];
  if (!claimId) return null;
  const row = await findDelivery(getDb(env.DB), Number(claimId));
  const ours = row?.channel === "call" && row.provider === event.provider && row.providerId === event.callId;
  return ours ? row : null;
}

/** The outcome of a 1 that told the motor's state (a call about a motor already stopped). */
const STATE_TOLD = "stateTold";

/** Whether the call of this kind offered its 1 to hear the state rather than to stop (voice-scripts.ts). */
function offersState(kind: string): boolean {
  return (MOTOR_STOPPED_KINDS as readonly string[]).includes(kind as PhoneAlertKind);
}

/** The state key: the motor's state, for the account that was called, if it still has the pump. */
async function pressState(env: CallWebhookEnv, row: AlertDeliveryRow): Promise<string | null> {
  const db = getDb(env.DB);
  const user = await accountOf(db, row.userId);
  if (!user) return null;
  const access = await pumpAccessOf(db, { id: user.id, mobileNo: user.mobileNo, audience: "user" }, row.deviceId);
  if (!access) return null;
  return spokenPumpState(env, row.deviceId, row.language);
}

/** The stop key: the hub's OFF for the account that was called, if it may still switch the pump. */
async function pressStop(env: CallWebhookEnv, row: AlertDeliveryRow): Promise<CallOutcomeScript> {
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
  const row = await callOfKeypress(env, event);
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
      await recordCallOutcome(getDb(env.DB), row.id, STATE_TOLD, now);
      return words(told);
    }
  } else script = await pressStop(env, row);
  await recordCallOutcome(getDb(env.DB), row.id, script, now);
  return words(voiceText(script, row.language, {}));
}

async function callStatus(
  env: CallWebhookEnv,
  event: Extract<TelephonyEvent, { type: "callStatus" }>,
  now: number,
): Promise<void> {
  const db = getDb(env.DB);
  const row = await findDeliveryByProviderId(db, event.provider, event.callId);
  if (row?.channel !== "call") return;
  await recordDeliveryStatus(db, row.id, event.status, event.durationSeconds, now);
  if (!UNANSWERED.has(event.status)) return;
  // Read again: only someone who still gets the pump's alerts, at a number still verified.
  const recipient = (await phoneRecipientsOf(db, row.deviceId)).find(
    (person) => person.userId === row.userId && person.verified,
  );
  const provider = providerOf(env);
  if (!recipient || !provider) return;
  await sendAlertSms(
    { db, provider, now },
    {
      eventId: row.eventId,
      userId: row.userId,
      deviceId: row.deviceId,
      kind: row.kind,
      reason: "callFallback",
      language: row.language,
      values: row.values,
    },
    recipient.mobileNo,
  );
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
      await callStatus(env, event, now);
      return null;
    case "smsStatus": {
      const db = getDb(env.DB);
      const row = await findDeliveryByProviderId(db, event.provider, event.messageId);
      if (row?.channel === "sms") await recordDeliveryStatus(db, row.id, event.status, null, now);
      return null;
    }
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
export async function outcomeOfCall(env: CallWebhookEnv, provider: string, callId: string): Promise<CallWords | null> {
  if (provider !== "twilio" && provider !== "exotel") return null;
  const row = await findDeliveryByProviderId(getDb(env.DB), provider, callId);
  if (row?.channel !== "call") return menuWordsOf(env, provider, callId, "outcome");
  if (row.outcome === STATE_TOLD)
    return { language: row.language, text: await spokenPumpState(env, row.deviceId, row.language) };
  const script = isOutcome(row.outcome) ? row.outcome : "noKeypress";
  return { language: row.language, text: voiceText(script, row.language, {}) };
}
