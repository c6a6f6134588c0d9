// The provider's side of alerts by SMS and call in the worker tests: what the provider received
// (tests/telephony-outbound.ts keeps it), and the webhooks it would send next, signed with the
// tests' Auth Token and sent to the very URLs the Worker gave it (as Twilio signs the URL it
// posts to): the call answered (its TwiML), a key pressed, its progress, an SMS's delivery.
import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { twilioSignature } from "../../common/twilio-signature.ts";
import { type SimCall, type SimSms, simRecordsSchema } from "../../telephony-sim/phone-log.ts";
import { readTwiml } from "../../telephony-sim/twiml.ts";
import { getDb } from "../../worker/db/client.ts";
import { users } from "../../worker/db/schema.ts";
import type { TestUser } from "./helpers/accounts.ts";

export async function phoneRecords() {
  const response = await fetch("http://127.0.0.1:8789/__messages");
  return simRecordsSchema.parse(await response.json());
}

export async function smsTo(mobileNo: string): Promise<SimSms[]> {
  return (await phoneRecords()).sms.filter((sms) => sms.to === mobileNo);
}

export async function callsTo(mobileNo: string): Promise<SimCall[]> {
  return (await phoneRecords()).calls.filter((call) => call.to === mobileNo);
}

/** Waits until `mobileNo` has received `count` SMS and returns them. */
export async function waitForSms(mobileNo: string, count = 1): Promise<SimSms[]> {
  // The first SMS of a run can take over a second: its connection to the provider is new.
  await expect.poll(async () => (await smsTo(mobileNo)).length, { timeout: 5_000 }).toBe(count);
  return smsTo(mobileNo);
}

export async function waitForCalls(mobileNo: string, count = 1): Promise<SimCall[]> {
  await expect.poll(async () => (await callsTo(mobileNo)).length, { timeout: 5_000 }).toBe(count);
  return callsTo(mobileNo);
}

/** As the number's holder proving it with a code would leave the account (the verification flow's end). */
export async function verifyNumber(user: TestUser): Promise<void> {
  await getDb(env.DB).update(users).set({ numberVerifiedAt: Date.now() }).where(eq(users.id, user.id));
}

/** A Twilio webhook to `url`: a form POST signed with the tests' Auth Token (or `token`). */
export async function twilioPost(url: string, fields: Record<string, string>, token = env.TELEPHONY_API_TOKEN) {
  const form = { AccountSid: env.TELEPHONY_ACCOUNT_SID, ...fields };
  return exports.default.fetch(
    new Request(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Twilio-Signature": await twilioSignature(token, url, Object.entries(form)),
      },
      body: new URLSearchParams(form),
    }),
  );
}

/** The farmer picks up: Twilio fetches the call's TwiML. What it says before the key, and where the key goes. */
export async function answerCall(call: SimCall): Promise<{ prompt: string[]; keyUrl: string }> {
  await callProgress(call, "in-progress");
  const response = await twilioPost(call.voiceUrl!, { CallSid: call.id, CallStatus: "in-progress" });
  expect(response.status).toBe(200);
  const { prompt, gather } = readTwiml(await response.text());
  return { prompt, keyUrl: gather!.action };
}

/** A key on the call: what the call says next, and the Worker's status. */
export async function pressKey(keyUrl: string, call: SimCall, digits: string, token?: string) {
  const response = await twilioPost(keyUrl, { CallSid: call.id, Digits: digits }, token);
  const text = await response.text();
  return { status: response.status, spoken: response.status === 200 ? readTwiml(text).spoken : [] };
}

/** The call's progress as Twilio reports it (`in-progress`, `completed`, `no-answer`, `busy`...). */
export async function callProgress(call: SimCall, status: string, durationSeconds?: number) {
  const response = await twilioPost(call.statusCallback!, {
    CallSid: call.id,
    CallStatus: status,
    ...(durationSeconds === undefined ? {} : { CallDuration: String(durationSeconds) }),
  });
  expect(response.status).toBe(204);
}
