// The local telephony provider against the real Worker under `wrangler dev` (workerd, local D1),
// as `npm start` runs them: our Twilio adapter (as the Worker will call it) places a call through
// the provider, which fetches the call's TwiML from the Worker, says it, and posts the farmer's
// key back signed; the Worker records it once in D1. A farmer's SMS, a missed call and an SMS's
// delivery reports come the same way. A forged copy changes nothing; a replay changes nothing more.
import { describe, expect, inject, it } from "vitest";
import { executeLocalSql } from "../../scripts/lib/local-d1.ts";
import type { TelephonyProvider } from "../../worker/telephony/provider.ts";
import { twilioProvider } from "../../worker/telephony/twilio.ts";
import { sharedWorker } from "./shared-worker.ts";
import { ACCOUNT_SID, OUR_NUMBER, signedTwilioPost } from "./worker-with-phone.ts";

const { worker, phone, token } = sharedWorker();
const client = phone;
const twilio: TelephonyProvider = twilioProvider({
  accountSid: ACCOUNT_SID,
  authToken: token,
  smsSender: OUR_NUMBER,
  callerId: OUR_NUMBER,
  apiBase: inject("sharedWorker").phoneUrl,
  webhookOrigin: worker.url,
});

type EventRow = { replay_key: string; type: string; event: string };

async function eventsOf(id: string): Promise<EventRow[]> {
  return executeLocalSql<EventRow>(
    worker.persistTo,
    `SELECT replay_key, type, event FROM telephony_events WHERE replay_key LIKE '%${id.replace(/[^A-Za-z0-9]/g, "")}%' ORDER BY id;`,
  );
}

describe("the local provider with the real Worker", () => {
  it("plays a call whose script the Worker speaks, and the Worker records the farmer's key once", async () => {
    const placed = await twilio.placeCall({
      to: "9876543210",
      language: "hi",
      kind: "dryRun",
      pumpName: "कुएँ वाला पंप",
      reference: { code: "stop:SNC-AB12CD34", placedAt: Date.now() },
    });
    const call = await client.waitForCall("9876543210", (candidate) => candidate.waitingForKey);
    expect(call.spoken[0]).toContain("पंप कुएँ वाला पंप ड्राई रन हुआ");
    await client.press("1", call.id);
    await client.settled();
    const rows = await eventsOf(placed.callId);
    expect(rows.map((row) => row.replay_key)).toEqual([
      `call:${placed.callId}:initiated`,
      `call:${placed.callId}:ringing`,
      `call:${placed.callId}:in-progress`,
      `keypress:${placed.callId}:1`,
      `call:${placed.callId}:completed`,
    ]);
    expect(JSON.parse(rows[3]!.event)).toMatchObject({
      type: "keypress",
      digits: "1",
      reference: { code: "stop:SNC-AB12CD34" },
    });

    // The same key posted again, correctly signed (a replay of the captured request): acted on no more.
    const url = `${worker.url}/api/telephony/twilio/keypress?lang=hi&ref=stop%3ASNC-AB12CD34&at=1`;
    const send = (token: string) => signedTwilioPost(url, { CallSid: placed.callId, Digits: "1" }, token);
    expect((await send(token)).status).toBe(200);
    expect((await send("forged")).status).toBe(403);
    expect(await eventsOf(placed.callId)).toHaveLength(5);
  });

  it("records an SMS's delivery reports, a farmer's SMS and a missed call, each once", async () => {
    const sent = await twilio.sendSms({
      to: "9123456789",
      template: "signInCode",
      language: "hi",
      values: { code: "314159" },
    });
    expect(await client.latestCode("9123456789")).toBe("314159");
    await client.settled();
    expect((await eventsOf(sent.messageId)).map((row) => row.replay_key)).toEqual([
      `sms:${sent.messageId}:sent`,
      `sms:${sent.messageId}:delivered`,
    ]);
    expect(await client.inboundSms("9988776655", "STOP")).toBe(200);
    expect(await client.missedCall("9988776655")).toBe(200);
    const inbound = await executeLocalSql<EventRow>(
      worker.persistTo,
      "SELECT replay_key, type, event FROM telephony_events WHERE type IN ('inboundSms', 'missedCall') AND json_extract(event, '$.from.mobileNo') = '9988776655' ORDER BY id;",
    );
    expect(inbound.map((row) => JSON.parse(row.event))).toEqual([
      expect.objectContaining({
        type: "inboundSms",
        text: "STOP",
        from: { raw: "+919988776655", mobileNo: "9988776655" },
      }),
      expect.objectContaining({ type: "missedCall", from: { raw: "+919988776655", mobileNo: "9988776655" } }),
    ]);
  });
});
