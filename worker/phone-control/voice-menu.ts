// The voice menu of a call to our menu number (docs/telephony.md, "The voice menu"), in the
// language the caller's account chose for its alerts. Only a verified owner or operator of a pump
// is answered (anyone else: rejected while it rings, or, on Exotel, hung up). With several pumps
// the first question is which; then: 1 the motor's state (ON/OFF/not known, since when, current,
// supply), 2 ON for 15, 30 or 60 minutes (one more key), 3 OFF. Each switch is said back after
// the box's answer, through the one path of every phone (phone-switch.ts); no answer within the
// hub's 5 s says "पता नहीं", never a guess.
//
// The call's place in the menu is kept in D1 (`phone_menu_calls`), so every key, from either
// provider, is read against the question it answers: a key counts once (the webhook's replay key,
// and `keys` moved on in the same statement that takes it), and only for the question asked
// (Twilio brings back `menuStep`). Access is read again at every key.
import { and, eq, lte } from "drizzle-orm";
import { VOICE_MENU_RUNS } from "../../common/phone-commands.ts";
import { istMinuteOfDay } from "../../common/schedule-time.ts";
import type { TelephonyEvent } from "../../common/telephony-events.ts";
import { tryAttempt } from "../auth/throttle.ts";
import type { PhoneLanguage } from "../db/alert-settings.ts";
import type { Db } from "../db/client.ts";
import { getDb } from "../db/client.ts";
import { type PhoneMenuCallRow, phoneMenuCalls, users } from "../db/schema.ts";
import { TELEPHONY_EVENT_TTL_MS } from "../db/telephony-events.ts";
import { messageTime } from "../services/message-time.ts";
import type { MenuAnswer } from "../telephony/provider.ts";
import { voiceText } from "../telephony/voice-scripts.ts";
import { type PhoneCaller, type PhonePump, phoneCallerOf, pumpLabel } from "./phone-callers.ts";
import { actByPhone, type PhoneOutcome, type PhoneSwitchEnv, pumpStatusOf } from "./phone-switch.ts";
import { reasonWords, relayWords, supplyWords } from "./phone-words.ts";

export type VoiceMenuEnv = PhoneSwitchEnv & Pick<Env, "DB">;

/** A call may take this many keys (wrong ones included); then it ends. */
const MAX_MENU_KEYS = 6;
/** The most pumps the first question lists, one key each. */
const MAX_MENU_PUMPS = 9;

type MenuStep = PhoneMenuCallRow["step"];

function ask(language: PhoneLanguage, text: string, step: number): MenuAnswer {
  return { kind: "ask", language, text, step };
}

function end(language: PhoneLanguage, text: string): MenuAnswer {
  return { kind: "end", language, text };
}

/** The question the call is at, in words. */
function questionOf(step: MenuStep, language: PhoneLanguage, pumps: PhonePump[], pump: PhonePump | null): string {
  switch (step) {
    case "pump":
      return [
        voiceText("menuChoosePump", language, {}),
        ...pumps
          .slice(0, MAX_MENU_PUMPS)
          .map((choice, index) =>
            voiceText("menuPumpChoice", language, { pumpName: pumpLabel(choice), digit: String(index + 1) }),
          ),
      ].join(" ");
    case "main":
      return voiceText("menuMain", language, { pumpName: pump ? pumpLabel(pump) : "" });
    case "minutes":
      return voiceText("menuMinutes", language, {});
    case "done":
      return voiceText("noKeypress", language, {});
  }
}

/** The pump's state as a call says it: the menu's 1, and an alert call's 1 about a motor already stopped. */
export async function spokenPumpState(
  env: Pick<Env, "DEVICE_HUB">,
  deviceId: string,
  language: PhoneLanguage,
): Promise<string> {
  return spokenOutcome({ kind: "status", ...(await pumpStatusOf(env, deviceId)) }, language);
}

/** What a switch or a look at the pump came to, as the call says it. */
function spokenOutcome(outcome: PhoneOutcome, language: PhoneLanguage): string {
  switch (outcome.kind) {
    case "on":
      return voiceText("menuStarted", language, { minutes: String(outcome.minutes ?? 0) });
    case "off":
      return voiceText("stopConfirmed", language, {});
    case "unconfirmed":
      return voiceText("menuUnconfirmed", language, {});
    case "notDone":
      return voiceText("menuNotDone", language, { reason: reasonWords(outcome.reason, language, outcome.waitMs) });
    case "silent":
      return voiceText("stopNotAllowed", language, {});
    case "status": {
      if (outcome.status === "offline") return voiceText("menuStateOffline", language, {});
      const amps = outcome.amps === null ? "0" : outcome.amps.toFixed(1);
      const supply = supplyWords(outcome.supply, language);
      if (outcome.status === "unknown") return voiceText("menuStateUnknown", language, { amps, supply });
      return voiceText("menuState", language, {
        relay: relayWords(outcome.status, language),
        time: messageTime(istMinuteOfDay(outcome.since ?? Date.now()), language),
        amps,
        supply,
      });
    }
  }
}

async function menuCallOf(db: Db, provider: string, callId: string): Promise<PhoneMenuCallRow | null> {
  if (provider !== "twilio" && provider !== "exotel") return null;
  const rows = await db
    .select()
    .from(phoneMenuCalls)
    .where(and(eq(phoneMenuCalls.provider, provider), eq(phoneMenuCalls.callId, callId)))
    .limit(1);
  return rows[0] ?? null;
}

/** A call to the menu number: the first question for a verified owner or operator, else rejected. */
export async function answerMenuCall(
  env: VoiceMenuEnv,
  event: Extract<TelephonyEvent, { type: "menuCall" }>,
  now = Date.now(),
): Promise<MenuAnswer> {
  const mobileNo = event.from.mobileNo;
  if (!mobileNo || !(await tryAttempt(env, "phoneCommandNumber", mobileNo))) return { kind: "reject" };
  const db = getDb(env.DB);
  const who = await phoneCallerOf(db, mobileNo);
  if (!who || who.pumps.length === 0) return { kind: "reject" };
  const only = who.pumps.length === 1 ? who.pumps[0]! : null;
  const step: MenuStep = only ? "main" : "pump";
  await db
    .insert(phoneMenuCalls)
    .values({
      provider: event.provider,
      callId: event.callId,
      userId: who.caller.id,
      deviceId: only?.deviceId ?? null,
      language: who.language,
      step,
      keys: 0,
      said: null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const hello = voiceText("menuHello", who.language, {});
  return ask(who.language, `${hello} ${questionOf(step, who.language, who.pumps, only)}`, 0);
}

/** The caller of a menu call, read again: access ends everywhere at once. */
async function callerOfRow(db: Db, row: PhoneMenuCallRow): Promise<PhoneCaller | null> {
  const user = await db.query.users.findFirst({ where: eq(users.id, row.userId), columns: { mobileNo: true } });
  return user ? phoneCallerOf(db, user.mobileNo) : null;
}

/** A key on the voice menu; null for a call that is not a menu call of ours (the route's own answer stands). */
export async function menuKey(
  env: VoiceMenuEnv,
  event: Extract<TelephonyEvent, { type: "keypress" }>,
  now = Date.now(),
): Promise<MenuAnswer | null> {
  const db = getDb(env.DB);
  const row = await menuCallOf(db, event.provider, event.callId);
  if (!row) return null;
  const { language } = row;
  if (row.step === "done") return end(language, row.said ?? voiceText("noKeypress", language, {}));
  // A key for an earlier question (a late or repeated delivery) answers nothing now.
  if (event.menuStep !== null && event.menuStep !== row.keys) return null;
  // Taken once: the statement that moves `keys` on is the claim.
  const taken = await db
    .update(phoneMenuCalls)
    .set({ keys: row.keys + 1, updatedAt: now })
    .where(
      and(
        eq(phoneMenuCalls.provider, row.provider),
        eq(phoneMenuCalls.callId, row.callId),
        eq(phoneMenuCalls.keys, row.keys),
      ),
    )
    .returning({ keys: phoneMenuCalls.keys });
  if (taken.length === 0) return null;
  const keys = row.keys + 1;
  const who = await callerOfRow(db, row);
  const pumps = who?.pumps ?? [];
  const pump = pumps.find((candidate) => candidate.deviceId === row.deviceId) ?? null;
  const save = async (changes: Partial<Pick<PhoneMenuCallRow, "step" | "deviceId" | "said">>) => {
    await db
      .update(phoneMenuCalls)
      .set({ ...changes, updatedAt: now })
      .where(and(eq(phoneMenuCalls.provider, row.provider), eq(phoneMenuCalls.callId, row.callId)));
  };
  const finish = async (text: string) => {
    await save({ step: "done", said: text });
    return end(language, text);
  };
  if (!who || (row.step !== "pump" && !pump)) return finish(voiceText("stopNotAllowed", language, {}));
  const again = async () => {
    if (keys >= MAX_MENU_KEYS) return finish(voiceText("noKeypress", language, {}));
    const text = `${voiceText("menuWrongKey", language, {})} ${questionOf(row.step, language, pumps, pump)}`;
    await save({ said: text });
    return ask(language, text, keys);
  };
  const digit = Number(event.digits);
  switch (row.step) {
    case "pump": {
      const chosen = Number.isInteger(digit) && digit >= 1 ? pumps.slice(0, MAX_MENU_PUMPS)[digit - 1] : undefined;
      if (!chosen) return again();
      const text = questionOf("main", language, pumps, chosen);
      await save({ step: "main", deviceId: chosen.deviceId, said: text });
      return ask(language, text, keys);
    }
    case "main": {
      if (event.digits === "1")
        return finish(spokenOutcome(await actByPhone(env, who, pump!, { kind: "status" }, "voiceMenu"), language));
      if (event.digits === "2") {
        const text = questionOf("minutes", language, pumps, pump);
        await save({ step: "minutes", said: text });
        return ask(language, text, keys);
      }
      if (event.digits === "3")
        return finish(spokenOutcome(await actByPhone(env, who, pump!, { kind: "off" }, "voiceMenu"), language));
      return again();
    }
    case "minutes": {
      const minutes = VOICE_MENU_RUNS[digit - 1];
      if (!minutes || !Number.isInteger(digit)) return again();
      return finish(spokenOutcome(await actByPhone(env, who, pump!, { kind: "on", minutes }, "voiceMenu"), language));
    }
  }
}

/** What the call says next, for Exotel's greetings that read it: the question (`prompt`) or the last key's outcome. */
export async function menuWordsOf(
  env: Pick<Env, "DB">,
  provider: string,
  callId: string,
  what: "prompt" | "outcome",
): Promise<{ language: PhoneLanguage; text: string } | null> {
  const row = await menuCallOf(getDb(env.DB), provider, callId);
  if (!row) return null;
  if (what === "outcome" || row.said !== null) {
    return { language: row.language, text: row.said ?? voiceText("noKeypress", row.language, {}) };
  }
  // The first question: asked again from the caller's pumps as they are now.
  const who = await callerOfRow(getDb(env.DB), row);
  if (!who) return null;
  const pump = who.pumps.find((candidate) => candidate.deviceId === row.deviceId) ?? null;
  const hello = voiceText("menuHello", row.language, {});
  return { language: row.language, text: `${hello} ${questionOf(row.step, row.language, who.pumps, pump)}` };
}

/** Deletes menu calls older than telephony events are kept. */
export async function purgeOldMenuCalls(db: Db, now = Date.now()): Promise<void> {
  await db.delete(phoneMenuCalls).where(lte(phoneMenuCalls.createdAt, now - TELEPHONY_EVENT_TTL_MS));
}
