// Both adapters against the local provider over loopback HTTP, with a stand-in for the Worker's
// webhook route that checks and reads every webhook with the same adapters (the real route, with
// D1, is tests/worker/api/telephony-webhooks.test.ts and tests/integration/telephony-against-worker.test.ts).
// The provider takes the SMS and calls, prints them, keeps them for `GET /__messages`, plays the
// calls against the "Worker" and signs (Twilio) or addresses (Exotel) every webhook so that it is
// accepted, and only then.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TelephonyEvent } from "../../common/telephony-events.ts";
import { localProviderClient } from "../../telephony-sim/client.ts";
import { type LocalProvider, startLocalProvider } from "../../telephony-sim/local-provider.ts";
import { exotelProvider } from "../../worker/telephony/exotel.ts";
import {
  type CallRequest,
  type InboundWebhook,
  TelephonyError,
  type TelephonyProvider,
  type WebhookKind,
} from "../../worker/telephony/provider.ts";
import { twilioProvider } from "../../worker/telephony/twilio.ts";

const CREDENTIALS = {
  accountSid: "AC00000000000000000000000000000000",
  apiKey: "local-exotel-key",
  apiToken: "local-provider-test-token-0123456789",
  webhookSecret: "local-provider-test-webhook-secret-0123456789",
};
const OUR_NUMBER = "+918000000001";

let worker: Server;
let workerOrigin: string;
let provider: LocalProvider;
let twilio: TelephonyProvider;
let exotel: TelephonyProvider;
/** What the stand-in route accepted, refused, and the raw webhooks it was sent. */
const accepted: TelephonyEvent[] = [];
const refused: string[] = [];
const received: { kind: WebhookKind; webhook: InboundWebhook; provider: "twilio" | "exotel" }[] = [];
const lines: string[] = [];

/** The route's work without D1: check, read, keep the event once, answer as the provider expects. */
async function standInRoute(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const [, , , name, kind] = url.pathname.split("/") as [string, string, string, "twilio" | "exotel", WebhookKind];
  const adapter = name === "twilio" ? twilio : exotel;
  let params: [string, string][] = [...url.searchParams];
  if (request.method === "POST") {
    const form = await request.formData();
    params = [...form].map(([key, value]) => [key, String(value)]);
  }
  const webhook: InboundWebhook = { method: request.method, url: request.url, headers: request.headers, params };
  received.push({ kind, webhook, provider: name });
  if (!(await adapter.verifyWebhook(kind, webhook))) {
    refused.push(url.pathname);
    return new Response("forbidden", { status: 403 });
  }
  const reading = adapter.readWebhook(kind, webhook);
  if (!reading.ok) return new Response(reading.problem, { status: 400 });
  if (reading.event && request.method !== "HEAD") accepted.push(reading.event);
  // The closing greeting asks what the key did; the real route reads it from the pump's hub.
  const reply = reading.outcomeOfCall
    ? adapter.spokenReply("en", `Outcome of ${reading.outcomeOfCall.callId}.`)
    : reading.reply;
  return new Response(request.method === "HEAD" || reply.body === "" ? null : reply.body, {
    status: reply.status,
    headers: reply.contentType ? { "Content-Type": reply.contentType } : {},
  });
}

beforeAll(async () => {
  worker = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const response = await standInRoute(
      new Request(`${workerOrigin}${incoming.url}`, {
        method: incoming.method,
        headers: incoming.headers as Record<string, string>,
        body: incoming.method === "POST" ? body : undefined,
      }),
    );
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => worker.listen(0, "127.0.0.1", resolve));
  workerOrigin = `http://127.0.0.1:${(worker.address() as AddressInfo).port}`;
  provider = await startLocalProvider({
    credentials: CREDENTIALS,
    workerOrigin,
    ourNumber: OUR_NUMBER,
    inboundProvider: "twilio",
    log: (line) => lines.push(line),
  });
  twilio = twilioWithToken(CREDENTIALS.apiToken);
  exotel = exotelWithToken(CREDENTIALS.apiToken, {
    dltEntityId: "1001000000000000000",
    dltTemplateIds: { "signInCode.hi": "1007000000000000001", "alertPhaseFault.en": "1007000000000000012" },
  });
});

afterAll(async () => {
  await provider?.stop();
  await new Promise<void>((resolve) => worker.close(() => resolve()));
});

const client = () => localProviderClient(provider.url);

/** Our Twilio adapter against the local provider, holding `authToken`. */
function twilioWithToken(authToken: string): TelephonyProvider {
  return twilioProvider({
    accountSid: CREDENTIALS.accountSid,
    authToken,
    smsSender: OUR_NUMBER,
    callerId: OUR_NUMBER,
    apiBase: provider.url,
    webhookOrigin: workerOrigin,
  });
}

/** Our Exotel adapter against the local provider, holding `apiToken`, with `dlt` registrations. */
function exotelWithToken(
  apiToken: string,
  dlt: { dltEntityId: string; dltTemplateIds: Record<string, string> },
): TelephonyProvider {
  return exotelProvider({
    accountSid: CREDENTIALS.accountSid,
    apiKey: CREDENTIALS.apiKey,
    apiToken,
    webhookSecret: CREDENTIALS.webhookSecret,
    smsSender: "SINCHI",
    callerId: "08000000001",
    callFlowId: "926",
    ...dlt,
    apiBase: provider.url,
    webhookOrigin: workerOrigin,
  });
}

/** The call `callId` as the provider keeps it now. */
async function callRecord(callId: string) {
  return (await client().records()).calls.find((candidate) => candidate.id === callId)!;
}

/** What the stand-in route accepted about the call `callId`, in order. */
function eventsOfCall(callId: string) {
  return accepted.filter((event) => "callId" in event && event.callId === callId);
}

/** The sign-in code SMS to `to`, in Hindi unless `language` says otherwise. */
function signInCodeSms(to: string, code: string, language: "hi" | "en" = "hi") {
  return { to, template: "signInCode", language, values: { code } } as const;
}

/** A call from `adapter` that the phone it calls answers: it waits for a key. */
async function answeredCall(adapter: TelephonyProvider, request: CallRequest) {
  const placed = await adapter.placeCall(request);
  const call = await client().waitForCall(request.to, (candidate) => candidate.waitingForKey);
  return { placed, call };
}

/** A phase-fault call from `adapter` to the phone `to`, which lets it ring out (`busy`: rejects it), once played out. */
async function ringsOut(adapter: TelephonyProvider, to: string, reference: CallRequest["reference"], busy?: "busy") {
  await client().setAnswering(to, false, busy);
  const placed = await adapter.placeCall({ to, language: "hi", kind: "phaseFault", pumpName: "खेत", reference });
  await client().settled();
  return placed;
}

describe("the local provider as Twilio", () => {
  it("takes an SMS, prints it with the code visible, keeps it, and reports its delivery, signed", async () => {
    const sent = await twilio.sendSms(signInCodeSms("9876543210", "042917"));
    expect(sent.messageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(await client().latestCode("9876543210")).toBe("042917");
    expect(lines).toContain("SMS to 98765 43210: 042917 आपका सिंचाई कोड है। 5 मिनट चलेगा। किसी को न बताएँ।");
    await client().settled();
    const statuses = accepted.filter((event) => event.type === "smsStatus" && event.messageId === sent.messageId);
    expect(statuses.map((event) => event.type === "smsStatus" && event.status)).toEqual(["sent", "delivered"]);
    expect((await client().records()).sms.find((sms) => sms.id === sent.messageId)).toMatchObject({
      provider: "twilio",
      to: "9876543210",
      status: "delivered",
      dlt: null,
    });
  });

  it("plays a call: fetches its TwiML, says the Hindi script, waits for a key and posts it to the Gather's action", async () => {
    const { placed, call } = await answeredCall(twilio, {
      to: "9123456789",
      language: "hi",
      kind: "dryRun",
      pumpName: "कुएँ वाला पंप",
      reference: { code: "stop:SNC-AB12CD34", placedAt: 99 },
    });
    expect(call.id).toBe(placed.callId);
    expect(call.spoken).toEqual([
      "नमस्ते, सिंचाई से कॉल है। पंप कुएँ वाला पंप ड्राई रन हुआ, इसलिए मोटर बंद कर दी गई। पानी का स्रोत देखें।",
      "मोटर का हाल सुनने के लिए 1 दबाएँ। कुछ न करना हो तो फ़ोन रख दें।",
    ]);
    expect(lines).toContain(
      `Call to 91234 56789 (${placed.callId}): «नमस्ते, सिंचाई से कॉल है। पंप कुएँ वाला पंप ड्राई रन हुआ, इसलिए मोटर बंद कर दी गई। पानी का स्रोत देखें। मोटर का हाल सुनने के लिए 1 दबाएँ। कुछ न करना हो तो फ़ोन रख दें।»`,
    );
    await client().press("1");
    await client().settled();
    const after = await callRecord(placed.callId);
    expect(after).toMatchObject({ status: "completed", pressed: ["1"], waitingForKey: false });
    expect(after.spoken.at(-1)).toBe("आपने 1 दबाया। आपका जवाब मिल गया। धन्यवाद।");
    const events = eventsOfCall(placed.callId);
    expect(events).toContainEqual({
      type: "keypress",
      provider: "twilio",
      callId: placed.callId,
      digits: "1",
      reference: { code: "stop:SNC-AB12CD34", placedAt: 99 },
      menu: false,
      menuStep: null,
    });
    expect(events.flatMap((event) => (event.type === "callStatus" ? [event.status] : []))).toEqual([
      "queued",
      "ringing",
      "answered",
      "completed",
    ]);
    await expect(client().press("1", placed.callId)).rejects.toThrow(/not waiting for a key/);
  });

  it("lets a call to a phone that does not answer ring out, and reports it no-answer (busy when told so)", async () => {
    const placed = await ringsOut(twilio, "9123456780", { code: "alert:1", placedAt: 7 });
    const call = await callRecord(placed.callId);
    expect(call).toMatchObject({ status: "no-answer", spoken: [], waitingForKey: false });
    const statuses = accepted.flatMap((event) =>
      event.type === "callStatus" && event.callId === placed.callId ? [[event.status, event.durationSeconds]] : [],
    );
    expect(statuses).toEqual([
      ["queued", null],
      ["ringing", null],
      ["noAnswer", 0],
    ]);
    await expect(client().hangUp(placed.callId)).resolves.toBeUndefined();
    const busy = await ringsOut(twilio, "9123456780", { code: "alert:2", placedAt: 7 }, "busy");
    expect(accepted).toContainEqual(
      expect.objectContaining({ type: "callStatus", callId: busy.callId, status: "busy" }),
    );
    await client().setAnswering("9123456780", true);
    expect(lines).toContain("Phone 91234 56780 answers calls");
  });

  it("plays a farmer's SMS and missed call to our number, signed for the Worker", async () => {
    expect(await client().inboundSms("9988776655", "STOP")).toBe(200);
    expect(await client().missedCall("9988776655")).toBe(200);
    expect(accepted).toContainEqual(
      expect.objectContaining({
        type: "inboundSms",
        text: "STOP",
        from: { raw: "+919988776655", mobileNo: "9988776655" },
      }),
    );
    expect(accepted).toContainEqual(
      expect.objectContaining({ type: "missedCall", from: { raw: "+919988776655", mobileNo: "9988776655" } }),
    );
  });

  it("signs with the account's token: a Worker holding another token refuses every one of its webhooks", async () => {
    const other = twilioWithToken("another-token");
    const sent = received.filter((item) => item.provider === "twilio");
    expect(sent.length).toBeGreaterThan(5);
    for (const { kind, webhook } of sent) {
      expect(await twilio.verifyWebhook(kind, webhook)).toBe(true);
      expect(await other.verifyWebhook(kind, webhook)).toBe(false);
    }
    expect(refused).toEqual([]);
  });

  it("refuses our adapter with a wrong token as Twilio does (401, code 20003)", async () => {
    const wrong = twilioWithToken("wrong");
    const failure = await wrong.sendSms(signInCodeSms("9876543210", "111111", "en")).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TelephonyError);
    expect(failure).toMatchObject({ status: 401, providerCode: "20003" });
  });
});

describe("the local provider as Exotel", () => {
  it("takes an SMS with its DLT fields in Unicode and reports its delivery to our secret URL", async () => {
    const sent = await exotel.sendSms(signInCodeSms("9876501234", "552211"));
    expect(await client().latestCode("9876501234")).toBe("552211");
    await client().settled();
    expect((await client().records()).sms.find((sms) => sms.id === sent.messageId)).toMatchObject({
      provider: "exotel",
      dlt: { entityId: "1001000000000000000", templateId: "1007000000000000001", encoding: "unicode" },
      status: "delivered",
    });
    expect(
      accepted
        .filter((event) => event.type === "smsStatus" && event.messageId === sent.messageId)
        .map((event) => event.type === "smsStatus" && event.status),
    ).toEqual(["sent", "delivered"]);
  });

  it("plays the call flow: the greeting's text from the Worker, a key to the Passthru, the outcome's greeting, both status callbacks", async () => {
    const { placed, call } = await answeredCall(exotel, {
      to: "9123450000",
      language: "en",
      kind: "voltageTrip",
      pumpName: "Well",
      reference: { code: "stop:SNC-CD34EF56", placedAt: 5 },
    });
    expect(call.spoken).toEqual([
      "Hello, this is Sinchai. The voltage at pump Well was out of limits, so the motor was switched OFF. To hear the motor's state, press 1. Otherwise, hang up.",
    ]);
    await client().press("1", placed.callId);
    await client().settled();
    const after = await callRecord(placed.callId);
    expect(after.spoken.at(-1)).toBe(`Outcome of ${placed.callId}.`);
    const events = eventsOfCall(placed.callId);
    expect(events).toEqual([
      {
        type: "callStatus",
        provider: "exotel",
        callId: placed.callId,
        status: "answered",
        durationSeconds: null,
        reference: { code: "stop:SNC-CD34EF56", placedAt: 5 },
      },
      {
        type: "keypress",
        provider: "exotel",
        callId: placed.callId,
        digits: "1",
        reference: { code: "stop:SNC-CD34EF56", placedAt: 5 },
        menu: false,
        menuStep: null,
      },
      expect.objectContaining({
        type: "callStatus",
        status: "completed",
        reference: { code: "stop:SNC-CD34EF56", placedAt: 5 },
      }),
    ]);
    // Each greeting was asked for with HEAD first, as Exotel does: the script, then the outcome.
    const greetings = received.filter((item) => item.kind === "voice" && item.provider === "exotel");
    expect(greetings.map((item) => item.webhook.method)).toEqual(["HEAD", "GET", "HEAD", "GET"]);
    expect(new URL(greetings[3]!.webhook.url).searchParams.get("step")).toBe("outcome");
  });

  it("lets a call to a phone that does not answer ring out: one terminal callback, no-answer", async () => {
    const placed = await ringsOut(exotel, "9123450001", { code: "alert:3", placedAt: 5 });
    expect(eventsOfCall(placed.callId)).toEqual([
      expect.objectContaining({ type: "callStatus", status: "noAnswer", reference: { code: "alert:3", placedAt: 5 } }),
    ]);
  });

  it("refuses our adapter with a wrong token as Exotel does (401 UNAUTHORIZED)", async () => {
    const wrong = exotelWithToken("wrong", { dltEntityId: "1", dltTemplateIds: { "signInCode.en": "1" } });
    await expect(wrong.sendSms(signInCodeSms("9876543210", "111111", "en"))).rejects.toMatchObject({
      status: 401,
      providerCode: "UNAUTHORIZED",
    });
    expect(refused).toEqual([]);
  });
});
