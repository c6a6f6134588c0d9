// The providers' webhooks through the whole Worker (the cross-site check, the API, D1): a forged
// webhook is refused with nothing recorded, a replayed one is recorded (acted on) once, and each
// provider is answered in its own format. Twilio with the test bindings (local mode's provider);
// Exotel with the same Worker given an Exotel environment.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { type TelephonyEvent, telephonyEventSchema } from "../../../common/telephony-events.ts";
import { twilioSignature } from "../../../common/twilio-signature.ts";
import { getDb } from "../../../worker/db/client.ts";
import { telephonyEvents } from "../../../worker/db/schema.ts";
import { createFetchHandler } from "../../../worker/fetch-handler.ts";
import { api, ORIGIN } from "../helpers/http.ts";

const ACCOUNT = env.TELEPHONY_ACCOUNT_SID;

function sid(prefix: "CA" | "SM"): string {
  return prefix + crypto.randomUUID().replace(/-/g, "");
}

/** A webhook as Twilio sends it: a form POST signed with the account's Auth Token. */
async function twilioPost(
  path: string,
  fields: Record<string, string>,
  options: {
    token?: string;
    signedUrl?: string;
    signedFields?: Record<string, string>;
    signature?: string | null;
  } = {},
): Promise<Response> {
  const url = `${ORIGIN}${path}`;
  const form = { AccountSid: ACCOUNT, ...fields };
  const signature =
    options.signature !== undefined
      ? options.signature
      : await twilioSignature(
          options.token ?? env.TELEPHONY_API_TOKEN,
          options.signedUrl ?? url,
          Object.entries(options.signedFields ?? form),
        );
  return api(path, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(signature === null ? {} : { "X-Twilio-Signature": signature }),
    },
    body: new URLSearchParams(form),
  });
}

/** The events recorded for a provider's call or message id, as the Worker stored them. */
async function recorded(id: string): Promise<TelephonyEvent[]> {
  const rows = await getDb(env.DB).select().from(telephonyEvents);
  return rows
    .map((row) => telephonyEventSchema.parse(JSON.parse(row.event)))
    .filter((event) => ("callId" in event ? event.callId : event.messageId) === id);
}

/** A farmer's SMS or call from `from` to our number, posted and signed as Twilio does. */
function twilioFromFarmer(kind: "inbound-sms" | "inbound-call", from: string, fields: Record<string, string>) {
  return twilioPost(`/api/telephony/twilio/${kind}`, { From: from, To: "+918000000001", ...fields });
}

/** What a key pressed on an alert call (not the voice menu) records. */
function keypressEvent(provider: "twilio" | "exotel", callId: string, code: string, placedAt: number): TelephonyEvent {
  return {
    type: "keypress",
    provider,
    callId,
    digits: "1",
    reference: { code, placedAt },
    menu: false,
    menuStep: null,
  };
}

/** What a missed call to the stop number records. */
function missedCallEvent(
  provider: "twilio" | "exotel",
  callId: string,
  from: { raw: string; mobileNo: string },
): TelephonyEvent {
  return { type: "missedCall", provider, callId, from, line: "stop" };
}

async function expectRefused(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect((await readJson(response, apiErrorSchema)).code).toBe(code);
}

describe("Twilio webhooks (local mode's provider)", () => {
  it("record a signed inbound SMS, answered with empty TwiML", async () => {
    const messageSid = sid("SM");
    const response = await twilioFromFarmer("inbound-sms", "+919876543210", { MessageSid: messageSid, Body: "STOP" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/xml/);
    expect(await response.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect(await recorded(messageSid)).toEqual([
      {
        type: "inboundSms",
        provider: "twilio",
        messageId: messageSid,
        from: { raw: "+919876543210", mobileNo: "9876543210" },
        text: "STOP",
      },
    ]);
  });

  it("refuse a forged signature with 403 and record nothing", async () => {
    const callSid = sid("CA");
    const fields = { CallSid: callSid, Digits: "1" };
    const path = "/api/telephony/twilio/keypress?ref=stop:SNC-AB12CD34&at=1";
    const forgeries = [
      await twilioPost(path, fields, { token: "not-the-auth-token" }),
      await twilioPost(path, fields, { signature: null }),
      await twilioPost(path, fields, { signature: "not base64 at all" }),
      // Signed for other fields, another query, another path: each a request Twilio never signed.
      await twilioPost(path, fields, { signedFields: { AccountSid: ACCOUNT, CallSid: callSid, Digits: "2" } }),
      await twilioPost(path, fields, { signedUrl: `${ORIGIN}/api/telephony/twilio/keypress?ref=other&at=1` }),
      await twilioPost(path, fields, {
        signedUrl: `${ORIGIN}/api/telephony/twilio/call-status?ref=stop:SNC-AB12CD34&at=1`,
      }),
    ];
    for (const response of forgeries) await expectRefused(response, 403, "forbidden");
    // Our token, but another account's resource.
    const otherAccount = await api(path, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Twilio-Signature": await twilioSignature(env.TELEPHONY_API_TOKEN, `${ORIGIN}${path}`, [
          ["AccountSid", `AC${"1".repeat(32)}`],
          ["CallSid", callSid],
          ["Digits", "1"],
        ]),
      },
      body: new URLSearchParams({ AccountSid: `AC${"1".repeat(32)}`, CallSid: callSid, Digits: "1" }),
    });
    await expectRefused(otherAccount, 403, "forbidden");
    expect(await recorded(callSid)).toEqual([]);
  });

  it("act on a replayed keypress once, however often and however parallel it comes", async () => {
    const callSid = sid("CA");
    const path = "/api/telephony/twilio/keypress?lang=hi&ref=stop:SNC-AB12CD34&at=1767225600000";
    const send = () => twilioPost(path, { CallSid: callSid, Digits: "1", CallStatus: "in-progress" });
    const first = await send();
    const replays = await Promise.all([send(), send(), send(), send()]);
    const bodies = await Promise.all([first, ...replays].map((response) => response.text()));
    for (const response of [first, ...replays]) expect(response.status).toBe(200);
    // The provider is answered alike each time: a retry must not hear something else.
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).toContain('<Say language="hi-IN" voice="Polly.Aditi">आपने 1 दबाया।');
    expect(bodies[0]).toContain("<Hangup/>");
    expect(await recorded(callSid)).toEqual([keypressEvent("twilio", callSid, "stop:SNC-AB12CD34", 1767225600000)]);
    // Another key on the same call is another event.
    expect((await twilioPost(path, { CallSid: callSid, Digits: "2" })).status).toBe(200);
    expect((await recorded(callSid)).map((event) => event.type === "keypress" && event.digits)).toEqual(["1", "2"]);
  });

  it("answer the call's voice URL with the script in Hindi around one Gather, recording nothing", async () => {
    const callSid = sid("CA");
    const path =
      "/api/telephony/twilio/voice?lang=hi&kind=dryRun&pumpName=%E0%A4%95%E0%A5%81%E0%A4%8F%E0%A4%81%20%3C1%3E&ref=stop:SNC-AB12CD34&at=5";
    const response = await twilioPost(path, { CallSid: callSid, CallStatus: "in-progress", Direction: "outbound-api" });
    expect(response.status).toBe(200);
    const twiml = await response.text();
    expect(twiml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><Gather input="dtmf" numDigits="1"/);
    expect(twiml).toContain(
      `action="${ORIGIN}/api/telephony/twilio/keypress?lang=hi&#38;ref=stop%3ASNC-AB12CD34&#38;at=5" method="POST"`,
    );
    // The pump's name is the farmer's text: escaped, never markup.
    expect(twiml).toContain("पंप कुएँ &#60;1&#62; ड्राई रन हुआ");
    expect(twiml).toContain("मोटर का हाल सुनने के लिए 1 दबाएँ।");
    expect(await recorded(callSid)).toEqual([]);
  });

  it("record each call status once with the call's reference, and reject a missed call as busy", async () => {
    const callSid = sid("CA");
    const path = "/api/telephony/twilio/call-status?ref=stop:SNC-AB12CD34&at=7";
    for (const status of ["ringing", "in-progress", "completed", "completed"]) {
      const response = await twilioPost(path, { CallSid: callSid, CallStatus: status, CallDuration: "12" });
      expect(response.status).toBe(204);
    }
    expect((await recorded(callSid)).map((event) => event.type === "callStatus" && event.status)).toEqual([
      "ringing",
      "answered",
      "completed",
    ]);

    const missed = sid("CA");
    const rejected = await twilioFromFarmer("inbound-call", "+919123456789", {
      CallSid: missed,
      CallStatus: "ringing",
      Direction: "inbound",
    });
    expect(await rejected.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>',
    );
    expect(await recorded(missed)).toEqual([
      missedCallEvent("twilio", missed, { raw: "+919123456789", mobileNo: "9123456789" }),
    ]);
  });

  it("refuse a signed webhook it cannot read with 400, and paths of no provider or kind with 404", async () => {
    const callSid = sid("CA");
    await expectRefused(await twilioPost("/api/telephony/twilio/keypress", { CallSid: callSid }), 400, "invalidInput");
    await expectRefused(
      await twilioPost("/api/telephony/twilio/keypress", { CallSid: callSid, Digits: "1; DROP" }),
      400,
      "invalidInput",
    );
    await expectRefused(await twilioPost("/api/telephony/twilio/recording", { CallSid: callSid }), 404, "notFound");
    // Exotel is not this environment's provider: its paths do not exist here.
    await expectRefused(
      await api(`/api/telephony/exotel/keypress?token=${env.TELEPHONY_WEBHOOK_SECRET}&CallSid=x&digits=%221%22`),
      404,
      "notFound",
    );
    await expectRefused(await api("/api/telephony/plivo/keypress"), 404, "notFound");
    expect(await recorded(callSid)).toEqual([]);
  });

  it("refuse a body over 16 KB unread", async () => {
    const response = await api("/api/telephony/twilio/inbound-sms", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `Body=${"x".repeat(17 * 1024)}`,
    });
    await expectRefused(response, 413, "bodyTooLarge");
  });
});

// ---- Exotel ----------------------------------------------------------------------------------

const EXOTEL_ENV = {
  ...env,
  TELEPHONY_PROVIDER: "exotel",
  TELEPHONY_API_HOST: "api.in.exotel.com",
  TELEPHONY_ACCOUNT_SID: "sinchai1",
  TELEPHONY_API_KEY: "exotel-test-key",
  TELEPHONY_CALL_FLOW: "926",
} as unknown as Env;
const SECRET = env.TELEPHONY_WEBHOOK_SECRET;
const fetchHandler = createFetchHandler(async () => new Response("no pages here", { status: 404 }));
/** The whole Worker, as the runtime calls it, with an environment of our choosing. */
const worker = (request: Request, environment: Env, context: ExecutionContext) =>
  fetchHandler(request as Parameters<typeof fetchHandler>[0], environment, context);

async function exotel(path: string, init: RequestInit = {}): Promise<Response> {
  const context = createExecutionContext();
  const response = await worker(new Request(`${ORIGIN}${path}`, init), EXOTEL_ENV, context);
  await waitOnExecutionContext(context);
  return response;
}

const customField = (pumpName: string) =>
  encodeURIComponent(
    new URLSearchParams({ lang: "hi", kind: "dryRun", pumpName, ref: "stop:SNC-AB12CD34", at: "9" }).toString(),
  );

describe("Exotel webhooks (an environment configured for Exotel)", () => {
  it("refuse a request without our secret, or with another, with 403 and record nothing", async () => {
    const callSid = crypto.randomUUID().replace(/-/g, "");
    const query = `CallSid=${callSid}&digits=%221%22&CustomField=${customField("कुआँ")}`;
    for (const token of [
      "",
      "token=",
      `token=${SECRET.slice(0, -1)}`,
      `token=${SECRET}x`,
      `token=${SECRET.toUpperCase()}`,
    ]) {
      await expectRefused(await exotel(`/api/telephony/exotel/keypress?${token}&${query}`), 403, "forbidden");
    }
    expect(await recorded(callSid)).toEqual([]);
  });

  it("act on a replayed keypress once; the digits come unquoted, the reference from CustomField", async () => {
    const callSid = crypto.randomUUID().replace(/-/g, "");
    const path = `/api/telephony/exotel/keypress?token=${SECRET}&CallSid=${callSid}&CallFrom=09876543210&digits=%221%22&CustomField=${customField("कुआँ")}`;
    const answers = await Promise.all([exotel(path), exotel(path), exotel(path)]);
    for (const response of answers) expect(response.status).toBe(200);
    expect(await recorded(callSid)).toEqual([keypressEvent("exotel", callSid, "stop:SNC-AB12CD34", 9)]);
  });

  it("read the call's script as text/plain to the greeting's GET, and answer its HEAD alike without a body", async () => {
    const path = `/api/telephony/exotel/voice?token=${SECRET}&CallSid=c1&From=09876543210&To=08000000001&CustomField=${customField("कुएँ वाला पंप")}`;
    const greeting = await exotel(path);
    expect(greeting.status).toBe(200);
    expect(greeting.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(await greeting.text()).toBe(
      "नमस्ते, सिंचाई से कॉल है। पंप कुएँ वाला पंप ड्राई रन हुआ, इसलिए मोटर बंद कर दी गई। पानी का स्रोत देखें। मोटर का हाल सुनने के लिए 1 दबाएँ। कुछ न करना हो तो फ़ोन रख दें।",
    );
    const head = await exotel(path, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(await head.text()).toBe("");
  });

  it("record a call's status from a multipart POST and an SMS's from a form POST, each once", async () => {
    const callSid = crypto.randomUUID().replace(/-/g, "");
    const form = new FormData();
    for (const [name, value] of Object.entries({
      CallSid: callSid,
      Status: "completed",
      EventType: "terminal",
      ConversationDuration: "31",
      CustomField: decodeURIComponent(customField("कुआँ")),
    }))
      form.set(name, value);
    for (let i = 0; i < 2; i++) {
      const response = await exotel(`/api/telephony/exotel/call-status?token=${SECRET}`, {
        method: "POST",
        body: form,
      });
      expect(response.status).toBe(200);
    }
    expect(await recorded(callSid)).toEqual([
      {
        type: "callStatus",
        provider: "exotel",
        callId: callSid,
        status: "completed",
        durationSeconds: 31,
        reference: { code: "stop:SNC-AB12CD34", placedAt: 9 },
      },
    ]);

    const smsSid = crypto.randomUUID().replace(/-/g, "");
    const sms = new URLSearchParams({ SmsSid: smsSid, Status: "failed", DetailedStatusCode: "23082" });
    for (let i = 0; i < 2; i++) {
      const response = await exotel(`/api/telephony/exotel/sms-status?token=${SECRET}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: sms,
      });
      expect(response.status).toBe(200);
    }
    expect(await recorded(smsSid)).toEqual([
      {
        type: "smsStatus",
        provider: "exotel",
        messageId: smsSid,
        status: "failed",
        errorCode: "23082",
        reference: null,
      },
    ]);
  });

  it("record a missed call from the Passthru of the number's flow", async () => {
    const callSid = crypto.randomUUID().replace(/-/g, "");
    const response = await exotel(
      `/api/telephony/exotel/inbound-call?token=${SECRET}&CallSid=${callSid}&CallFrom=09123456789&CallTo=08000000001&Direction=incoming`,
    );
    expect(response.status).toBe(200);
    expect(await recorded(callSid)).toEqual([
      missedCallEvent("exotel", callSid, { raw: "09123456789", mobileNo: "9123456789" }),
    ]);
  });

  it("are off while the environment's Exotel configuration is incomplete", async () => {
    const context = createExecutionContext();
    const response = await worker(
      new Request(`${ORIGIN}/api/telephony/exotel/inbound-call?token=${SECRET}&CallSid=x&CallFrom=09123456789`),
      { ...EXOTEL_ENV, TELEPHONY_API_HOST: "api.exotel.example" } as unknown as Env,
      context,
    );
    await expectRefused(response, 404, "notFound");
    expect(await recorded("x")).toEqual([]);
  });
});

describe("the replay keys", () => {
  it("are unique per provider in D1 itself", async () => {
    const db = getDb(env.DB);
    const row = {
      provider: "twilio" as const,
      replayKey: `test:${crypto.randomUUID()}`,
      type: "x",
      event: "{}",
      receivedAt: 1,
    };
    await db.insert(telephonyEvents).values(row);
    const duplicate = await db
      .insert(telephonyEvents)
      .values(row)
      .then(() => null)
      .catch((error: Error) => error);
    expect(String(duplicate?.cause)).toMatch(/UNIQUE constraint failed/);
    await db.insert(telephonyEvents).values({ ...row, provider: "exotel" });
    expect(await db.select().from(telephonyEvents).where(eq(telephonyEvents.replayKey, row.replayKey))).toHaveLength(2);
  });
});
