// A farmer's SMS command and missed call to our numbers (docs/telephony.md, "Switching from any
// phone"), acted on the first time the provider delivers them (worker/api/telephony.ts records
// each once, so a retry switches nothing more):
// - an SMS `ON 30` / `चालू 30`, `OFF` / `बंद` / `STOP`, `STATUS` / `स्थिति` (common/phone-commands.ts),
//   with the pump's name or its box id's last characters when the sender has several, is carried
//   out through the one path of every phone (phone-switch.ts) and answered by SMS with what the
//   box confirmed, or plainly that it did not. An OFF never asks which pump: with one it is
//   that one's, with several and none named it stops each that may run, as the stop number does
//   (docs/decisions/046-stop-by-sms-stops.md);
// - a missed call to the stop number stops the caller's pumps that are not known to be OFF; to
//   the start number it starts the caller's one pump whose owner turned that on. The call is
//   rejected unanswered (the adapter's answer) and an SMS says what the box did.
// An ON by SMS to a pump whose owner set a PIN must begin with it (sms-pin.ts); OFF never does.
// Nothing answers a number that is not a verified account's. A viewer, an invitee or anyone
// whose words name none of their pumps learns nothing of a pump; a verified number whose words
// are no command gets the help SMS (a few a day). Commands from one number are throttled
// (`phoneCommandNumber`) before anything is read, an OFF counted but never held back.
import { choosePump, type PhoneAction, readPhoneCommand } from "../../common/phone-commands.ts";
import { istMinuteOfDay } from "../../common/schedule-time.ts";
import type { TelephonyEvent } from "../../common/telephony-events.ts";
import { countAttempt, tryAttempt } from "../auth/throttle.ts";
import type { PhoneLanguage } from "../db/alert-settings.ts";
import { getDb } from "../db/client.ts";
import { messageTime } from "../services/message-time.ts";
import { type PhoneCaller, type PhonePump, phoneCallerOf, pumpLabel } from "./phone-callers.ts";
import { type PhoneReply, type PhoneReplyEnv, sendPhoneReply } from "./phone-replies.ts";
import { actByPhone, type PhoneOutcome, type PhoneSwitchEnv, pumpStatusOf } from "./phone-switch.ts";
import { reasonWords, relayWords, runWords, supplyWords } from "./phone-words.ts";
import { smsPinCheck } from "./sms-pin.ts";

export type PhoneCommandEnv = PhoneReplyEnv & PhoneSwitchEnv;

/** The SMS that says what a command came to; null for one that says nothing. */
export function replyOf(outcome: PhoneOutcome, pump: PhonePump, language: PhoneLanguage): PhoneReply | null {
  const pumpName = pumpLabel(pump);
  const time = (at: number) => messageTime(istMinuteOfDay(at), language);
  switch (outcome.kind) {
    case "on":
      return outcome.minutes === null
        ? { template: "phoneOn", values: { pumpName, time: time(outcome.at) } }
        : {
            template: "phoneOnFor",
            values: { pumpName, time: time(outcome.at), duration: runWords(outcome.minutes, language) },
          };
    case "off":
      return { template: "phoneOff", values: { pumpName, time: time(outcome.at) } };
    case "unconfirmed":
      return { template: "phoneUnconfirmed", values: { pumpName } };
    case "notDone":
      return {
        template: "phoneNotDone",
        values: { pumpName, reason: reasonWords(outcome.reason, language, outcome.waitMs) },
      };
    case "status":
      if (outcome.status === "offline")
        return { template: "phoneNotDone", values: { pumpName, reason: reasonWords("offline", language) } };
      return {
        template: "phoneStatus",
        values: {
          pumpName,
          relay: relayWords(outcome.status, language),
          time: time(outcome.since ?? Date.now()),
          amps: outcome.amps === null ? "-" : outcome.amps.toFixed(1),
          supply: supplyWords(outcome.supply, language),
        },
      };
    case "silent":
      return null;
  }
}

/** Counts a command from `mobileNo`; false when it must be dropped (an OFF never is). */
async function commandAllowed(env: PhoneCommandEnv, mobileNo: string, action: PhoneAction | null): Promise<boolean> {
  if (action?.kind === "off") {
    await countAttempt(env, "phoneCommandNumber", mobileNo);
    return true;
  }
  return tryAttempt(env, "phoneCommandNumber", mobileNo);
}

/**
 * The verified caller a command comes from, counted against their number before anything is read;
 * null when the number is hidden, the command dropped, or the number no verified account's.
 */
async function allowedCaller(
  env: PhoneCommandEnv,
  from: { mobileNo: string | null },
  action: PhoneAction | null,
): Promise<PhoneCaller | null> {
  if (!from.mobileNo || !(await commandAllowed(env, from.mobileNo, action))) return null;
  return phoneCallerOf(getDb(env.DB), from.mobileNo);
}

async function actAndReply(
  env: PhoneCommandEnv,
  who: PhoneCaller,
  pump: PhonePump,
  action: PhoneAction,
  via: "sms" | "missedCall",
): Promise<void> {
  const outcome = await actByPhone(env, who, pump, action, via);
  const reply = replyOf(outcome, pump, who.language);
  if (reply) await sendPhoneReply(env, who.caller.mobileNo, pump.deviceId, who.language, reply);
}

export async function onInboundSms(
  env: PhoneCommandEnv,
  event: Extract<TelephonyEvent, { type: "inboundSms" }>,
): Promise<void> {
  const command = readPhoneCommand(event.text);
  const who = await allowedCaller(env, event.from, command?.action ?? null);
  if (!who) return;
  const { mobileNo } = who.caller;
  if (!command) {
    await sendPhoneReply(env, mobileNo, null, who.language, { template: "phoneHelp", values: {} });
    return;
  }
  if (who.pumps.length === 0) return;
  const { action } = command;
  // Several pumps and an OFF naming none: stop every one that may be running, as the stop number does.
  if (action.kind === "off" && command.pump === null && who.pumps.length > 1) {
    await stopEvery(env, who, "sms");
    return;
  }
  // One pump: an OFF or STATUS is for it whatever words follow; an ON starts only what it names.
  const only = who.pumps.length === 1 && action.kind !== "on" ? who.pumps[0]! : null;
  const pump = choosePump(who.pumps, command.pump) ?? only;
  if (!pump) {
    const template = who.pumps.length > 1 ? "phoneWhichPump" : "phoneHelp";
    await sendPhoneReply(env, mobileNo, null, who.language, { template, values: {} });
    return;
  }
  if (action.kind === "on") {
    const pinCheck = await smsPinCheck(env, pump.access.device, command.pin);
    if (pinCheck !== "ok") {
      const values = { pumpName: pumpLabel(pump), reason: reasonWords(pinCheck, who.language) };
      await sendPhoneReply(env, mobileNo, pump.deviceId, who.language, { template: "phoneNotDone", values });
      return;
    }
  }
  await actAndReply(env, who, pump, action, "sms");
}

export async function onMissedCall(
  env: PhoneCommandEnv,
  event: Extract<TelephonyEvent, { type: "missedCall" }>,
): Promise<void> {
  const action: PhoneAction = event.line === "stop" ? { kind: "off" } : { kind: "on", minutes: null };
  const who = await allowedCaller(env, event.from, action);
  if (!who || who.pumps.length === 0) return;
  const { mobileNo } = who.caller;
  if (event.line === "start") {
    // Only pumps whose owner turned it on; with several, a missed call cannot say which.
    const startable = who.pumps.filter((pump) => pump.access.device.startByMissedCall);
    if (startable.length === 1) await actAndReply(env, who, startable[0]!, action, "missedCall");
    else if (startable.length > 1)
      await sendPhoneReply(env, mobileNo, null, who.language, { template: "phoneWhichPump", values: {} });
    return;
  }
  if (who.pumps.length === 1) {
    await actAndReply(env, who, who.pumps[0]!, action, "missedCall");
    return;
  }
  await stopEvery(env, who, "missedCall");
}

/** Stops every pump of `who` that may be running; if none may, each one's state is the answer. */
async function stopEvery(env: PhoneCommandEnv, who: PhoneCaller, via: "sms" | "missedCall"): Promise<void> {
  const states = await Promise.all(who.pumps.map((pump) => pumpStatusOf(env, pump.deviceId)));
  const running = who.pumps.filter((_, index) => states[index]!.status !== "off");
  if (running.length > 0) {
    await Promise.all(running.map((pump) => actAndReply(env, who, pump, { kind: "off" }, via)));
    return;
  }
  await Promise.all(
    who.pumps.map(async (pump, index) => {
      const reply = replyOf({ kind: "status", ...states[index]! }, pump, who.language);
      if (reply) await sendPhoneReply(env, who.caller.mobileNo, pump.deviceId, who.language, reply);
    }),
  );
}
