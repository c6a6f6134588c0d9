// A captured, signed Twilio webhook posted again with a field boundary moved. Twilio signs the
// URL and every name and value with nothing between them, so `CallSid=CA…` + `CallStatus=ringing`
// signs the same text as `CallSid=CA…CallStatusringing`: the signature still holds, and before
// the fields were checked the re-split id made a new replay key. Here a farmer starts the pump by
// a missed call and stops it by SMS; the attacker posts both captures again, re-split, with their
// original signatures: both are refused (400) and nothing reaches the hub. Also: a field given
// twice, and a webhook without AccountSid.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { twilioSignature } from "../../../common/twilio-signature.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { ORIGIN, putJson } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { connectDevice } from "../helpers/sockets.ts";

const sid = (prefix: "CA" | "SM") => prefix + crypto.randomUUID().replace(/-/g, "");

/** A form POST of exactly `params`, in this order, with `signature` as its X-Twilio-Signature. */
function post(url: string, params: [string, string][], signature: string): Promise<Response> {
  return exports.default.fetch(
    new Request(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature },
      body: new URLSearchParams(params),
    }),
  );
}

/** What Twilio sends, signed: the fields with the account first, and their signature. */
async function captured(url: string, fields: Record<string, string>) {
  const params = Object.entries({ AccountSid: env.TELEPHONY_ACCOUNT_SID, ...fields });
  return { url, params, signature: await twilioSignature(env.TELEPHONY_API_TOKEN, url, params) };
}

/** `params` with field `into`'s value followed by the name and value of `moved`, which is gone. */
function resplit(params: [string, string][], into: string, moved: string): [string, string][] {
  const movedValue = params.find(([name]) => name === moved)![1];
  return params
    .filter(([name]) => name !== moved)
    .map(([name, value]) => [name, name === into ? `${value}${moved}${movedValue}` : value]);
}

describe("a signed Twilio webhook with a moved field boundary", () => {
  it("starts nothing and stops nothing again: the missed call and the SMS are refused re-split, with their signatures", async () => {
    const { user, device, token } = await farmerWithDevice("3phase", { verified: true });
    expect((await putJson(`/api/pumps/${device.deviceId}/phone-start`, { enabled: true }, token)).status).toBe(200);
    const box = await connectDevice(device);
    box.autoAck({ runningCurrent: 8.4 });
    const switches = () =>
      box.raw.filter((text) => text.includes('"type":"switch"')).map((text) => JSON.parse(text).relay);
    const status = async () => (await hubStub(device.deviceId).getSnapshot()).pump.status;

    const call = await captured(`${ORIGIN}/api/telephony/twilio/inbound-call?line=start`, {
      CallSid: sid("CA"),
      From: `+91${user.mobileNo}`,
      To: "+918000000003",
      CallStatus: "ringing",
      Direction: "inbound",
    });
    expect((await post(call.url, call.params, call.signature)).status).toBe(200);
    expect(await status()).toBe("on");
    const sms = await captured(`${ORIGIN}/api/telephony/twilio/inbound-sms`, {
      MessageSid: sid("SM"),
      From: `+91${user.mobileNo}`,
      To: "+918000000001",
      Body: "OFF",
      NumMedia: "0",
    });
    expect((await post(sms.url, sms.params, sms.signature)).status).toBe(200);
    expect(await status()).toBe("off");
    expect(switches()).toEqual(["on", "off"]);

    const attempts = [
      { url: call.url, params: resplit(call.params, "CallSid", "CallStatus"), signature: call.signature },
      { url: sms.url, params: resplit(sms.params, "MessageSid", "NumMedia"), signature: sms.signature },
    ];
    for (const attempt of attempts) {
      // The same text signed: the signature alone cannot tell the two apart.
      expect(await twilioSignature(env.TELEPHONY_API_TOKEN, attempt.url, attempt.params)).toBe(attempt.signature);
      const answer = await post(attempt.url, attempt.params, attempt.signature);
      expect(answer.status).toBe(400);
      expect(await readJson(answer, apiErrorSchema)).toMatchObject({ success: false, code: "invalidInput" });
    }
    // The answers came after the reading, which is before any handler: nothing was asked of the hub.
    expect(switches()).toEqual(["on", "off"]);
    expect(await status()).toBe("off");
    box.close();
  });

  it("refuses a field given twice and a webhook that names no account", async () => {
    const url = `${ORIGIN}/api/telephony/twilio/inbound-sms`;
    const fields = { MessageSid: sid("SM"), From: "+919800000001", To: "+918000000001", Body: "OFF" };
    const twice: [string, string][] = [
      ["AccountSid", env.TELEPHONY_ACCOUNT_SID],
      ...Object.entries(fields),
      ["MessageSid", sid("SM")],
    ];
    const doubled = await post(url, twice, await twilioSignature(env.TELEPHONY_API_TOKEN, url, twice));
    expect(doubled.status).toBe(400);
    const unnamed = Object.entries(fields);
    const noAccount = await post(url, unnamed, await twilioSignature(env.TELEPHONY_API_TOKEN, url, unnamed));
    expect(noAccount.status).toBe(403);
  });
});
