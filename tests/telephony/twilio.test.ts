// The Twilio adapter against Twilio's documented formats: what it sends (URL, Basic
// authorization, form fields), what it makes of Twilio's answers and errors, the TwiML it speaks,
// and what it reads from each webhook (fields as Twilio documents them).
import { describe, expect, it } from "vitest";
import { twilioSignature } from "../../common/twilio-signature.ts";
import { type InboundWebhook, TelephonyError } from "../../worker/telephony/provider.ts";
import { twilioProvider } from "../../worker/telephony/twilio.ts";
import {
  HINDI_CODE_SMS,
  HINDI_DRY_RUN_CALL,
  recordingFetch,
  TWILIO_BAD_NUMBER,
  TWILIO_CALL_CREATED,
  TWILIO_CONFIG,
  TWILIO_MESSAGE_CREATED,
} from "./provider-fixtures.ts";

const BASIC = `Basic ${Buffer.from(`${TWILIO_CONFIG.accountSid}:${TWILIO_CONFIG.authToken}`).toString("base64")}`;

/** A webhook as Twilio posts it: every one names the account first. */
function webhook(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): InboundWebhook {
  return {
    method: "POST",
    url,
    headers: new Headers(headers),
    params: Object.entries({ AccountSid: TWILIO_CONFIG.accountSid, ...fields }),
  };
}

/** Call and message ids of Twilio's shape: `CA` or `SM` and 32 hex digits. */
const callSid = (digit: string) => `CA${digit.repeat(32)}`;
const messageSid = (digit: string) => `SM${digit.repeat(32)}`;

describe("the Twilio adapter sends", () => {
  it("an SMS as Messages.json wants it, and reads the Message resource", async () => {
    const { fetch, requests } = recordingFetch(201, TWILIO_MESSAGE_CREATED);
    const sent = await twilioProvider(TWILIO_CONFIG, fetch).sendSms(HINDI_CODE_SMS);
    expect(sent).toEqual({ provider: "twilio", messageId: TWILIO_MESSAGE_CREATED.sid, status: "queued", segments: 1 });
    const [request] = requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe(`https://api.twilio.com/2010-04-01/Accounts/${TWILIO_CONFIG.accountSid}/Messages.json`);
    expect(request!.headers.get("Authorization")).toBe(BASIC);
    expect(request!.headers.get("Content-Type")).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(request!.form)).toEqual({
      To: "+919876543210",
      From: "+918000000001",
      Body: "042917 आपका सिंचाई कोड है। 5 मिनट चलेगा। किसी को न बताएँ।",
      StatusCallback: "https://pump.example.in/api/telephony/twilio/sms-status",
    });
  });

  it("from a Messaging Service when the sender is one", async () => {
    const { fetch, requests } = recordingFetch(201, TWILIO_MESSAGE_CREATED);
    const provider = twilioProvider({ ...TWILIO_CONFIG, smsSender: "MG0123456789abcdef0123456789abcdef" }, fetch);
    await provider.sendSms({ to: "9876543210", template: "alertDryRun", language: "en", values: { pumpName: "Well" } });
    expect(requests[0]!.form.get("MessagingServiceSid")).toBe("MG0123456789abcdef0123456789abcdef");
    expect(requests[0]!.form.has("From")).toBe(false);
  });

  it("a call as Calls.json wants it: our voice URL with the call's reference, and every progress event", async () => {
    const { fetch, requests } = recordingFetch(201, TWILIO_CALL_CREATED);
    const placed = await twilioProvider(TWILIO_CONFIG, fetch).placeCall(HINDI_DRY_RUN_CALL);
    expect(placed).toEqual({ provider: "twilio", callId: TWILIO_CALL_CREATED.sid, status: "queued" });
    const [request] = requests;
    expect(request!.url).toBe(`https://api.twilio.com/2010-04-01/Accounts/${TWILIO_CONFIG.accountSid}/Calls.json`);
    expect(request!.headers.get("Authorization")).toBe(BASIC);
    const voice = new URL(request!.form.get("Url")!);
    expect(voice.origin + voice.pathname).toBe("https://pump.example.in/api/telephony/twilio/voice");
    expect(Object.fromEntries(voice.searchParams)).toEqual({
      lang: "hi",
      kind: "dryRun",
      pumpName: "कुआँ",
      ref: "stop:SNC-AB12CD34",
      at: "1767225600000",
    });
    expect(request!.form.get("StatusCallback")).toBe(
      "https://pump.example.in/api/telephony/twilio/call-status?ref=stop%3ASNC-AB12CD34&at=1767225600000",
    );
    expect(request!.form.getAll("StatusCallbackEvent")).toEqual(["initiated", "ringing", "answered", "completed"]);
    expect([...request!.form.keys()].filter((key) => key !== "StatusCallbackEvent").sort()).toEqual(
      ["From", "Method", "StatusCallback", "StatusCallbackMethod", "TimeLimit", "Timeout", "To", "Url"].sort(),
    );
    expect(request!.form.get("Method")).toBe("POST");
    expect(request!.form.get("To")).toBe("+919876543210");
  });

  it("and turns Twilio's error answer into an error with its code", async () => {
    const { fetch } = recordingFetch(400, TWILIO_BAD_NUMBER);
    const failure = await twilioProvider(TWILIO_CONFIG, fetch)
      .sendSms({ to: "9876543210", template: "signInCode", language: "en", values: { code: "111111" } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TelephonyError);
    expect(failure).toMatchObject({ provider: "twilio", status: 400, providerCode: "21211" });
    // An answer of another shape is not taken for a sent SMS.
    const { fetch: odd } = recordingFetch(201, { sid: "not a message sid" });
    await expect(
      twilioProvider(TWILIO_CONFIG, odd).sendSms({
        to: "9876543210",
        template: "signInCode",
        language: "en",
        values: { code: "111111" },
      }),
    ).rejects.toThrow(/unknown shape/);
  });
});

describe("the Twilio adapter checks and reads webhooks", () => {
  const provider = twilioProvider(TWILIO_CONFIG);

  it("accepts only Twilio's signature of this URL and these fields, from our account", async () => {
    const url = "https://pump.example.in/api/telephony/twilio/sms-status";
    const fields = {
      AccountSid: TWILIO_CONFIG.accountSid,
      MessageSid: TWILIO_MESSAGE_CREATED.sid,
      MessageStatus: "delivered",
    };
    const signature = await twilioSignature(TWILIO_CONFIG.authToken, url, Object.entries(fields));
    expect(await provider.verifyWebhook("sms-status", webhook(url, fields, { "X-Twilio-Signature": signature }))).toBe(
      true,
    );
    expect(
      await provider.verifyWebhook("sms-status", webhook(`${url}?x=1`, fields, { "X-Twilio-Signature": signature })),
    ).toBe(false);
    expect(
      await provider.verifyWebhook(
        "sms-status",
        webhook(url, { ...fields, MessageStatus: "failed" }, { "X-Twilio-Signature": signature }),
      ),
    ).toBe(false);
    expect(await provider.verifyWebhook("sms-status", webhook(url, fields))).toBe(false);
    const foreign = { ...fields, AccountSid: `AC${"f".repeat(32)}` };
    const foreignSignature = await twilioSignature(TWILIO_CONFIG.authToken, url, Object.entries(foreign));
    expect(
      await provider.verifyWebhook("sms-status", webhook(url, foreign, { "X-Twilio-Signature": foreignSignature })),
    ).toBe(false);
  });

  it("reads a Gather's keypress with the reference in its URL", () => {
    // https://www.twilio.com/docs/voice/twiml/gather#action (Digits, FinishedOnKey and the call's fields)
    const reading = provider.readWebhook(
      "keypress",
      webhook("https://pump.example.in/api/telephony/twilio/keypress?lang=en&ref=stop%3ASNC-AB12CD34&at=42", {
        AccountSid: TWILIO_CONFIG.accountSid,
        ApiVersion: "2010-04-01",
        CallSid: TWILIO_CALL_CREATED.sid,
        CallStatus: "in-progress",
        Called: "+919876543210",
        Caller: "+918000000001",
        Digits: "1",
        Direction: "outbound-api",
        FinishedOnKey: "",
        From: "+918000000001",
        To: "+919876543210",
      }),
    );
    expect(reading).toEqual({
      ok: true,
      event: {
        type: "keypress",
        provider: "twilio",
        callId: TWILIO_CALL_CREATED.sid,
        digits: "1",
        reference: { code: "stop:SNC-AB12CD34", placedAt: 42 },
        menu: false,
        menuStep: null,
      },
      replayKey: `keypress:${TWILIO_CALL_CREATED.sid}:1`,
      reply: {
        status: 200,
        contentType: "text/xml; charset=utf-8",
        body: '<?xml version="1.0" encoding="UTF-8"?><Response><Say language="en-IN" voice="Polly.Aditi">You pressed 1. We have your answer. Thank you.</Say><Hangup/></Response>',
      },
    });
  });

  it("reads message statuses, inbound SMS and calls in its own words", () => {
    // https://www.twilio.com/docs/messaging/guides/outbound-message-logging (status callback fields)
    const failed = provider.readWebhook(
      "sms-status",
      webhook("https://pump.example.in/api/telephony/twilio/sms-status", {
        AccountSid: TWILIO_CONFIG.accountSid,
        ApiVersion: "2010-04-01",
        ErrorCode: "30008",
        From: "+918000000001",
        MessageSid: TWILIO_MESSAGE_CREATED.sid,
        MessageStatus: "undelivered",
        SmsSid: TWILIO_MESSAGE_CREATED.sid,
        SmsStatus: "undelivered",
        To: "+919876543210",
      }),
    );
    expect(failed).toMatchObject({
      ok: true,
      event: { type: "smsStatus", status: "undelivered", errorCode: "30008" },
      replayKey: `sms:${TWILIO_MESSAGE_CREATED.sid}:undelivered`,
      reply: { status: 204, body: "" },
    });
    for (const [twilio, ours] of [
      ["queued", "queued"],
      ["initiated", "queued"],
      ["ringing", "ringing"],
      ["in-progress", "answered"],
      ["completed", "completed"],
      ["busy", "busy"],
      ["no-answer", "noAnswer"],
      ["failed", "failed"],
      ["canceled", "canceled"],
    ]) {
      const reading = provider.readWebhook(
        "call-status",
        webhook("https://pump.example.in/api/telephony/twilio/call-status", {
          CallSid: callSid("1"),
          CallStatus: twilio!,
        }),
      );
      expect(reading).toMatchObject({ ok: true, event: { status: ours, reference: null, durationSeconds: null } });
    }
    expect(
      provider.readWebhook(
        "call-status",
        webhook("https://pump.example.in/api/telephony/twilio/call-status", {
          CallSid: callSid("1"),
          CallStatus: "answered-by-a-robot",
        }),
      ),
    ).toEqual({ ok: false, problem: "unknown CallStatus answered-by-a-robot" });
    expect(
      provider.readWebhook(
        "inbound-sms",
        webhook("https://pump.example.in/api/telephony/twilio/inbound-sms", {
          MessageSid: messageSid("1"),
          From: "+919876543210",
          To: "+918000000001",
          Body: "बंद",
          NumMedia: "0",
        }),
      ),
    ).toMatchObject({ ok: true, event: { type: "inboundSms", from: { mobileNo: "9876543210" }, text: "बंद" } });
    expect(
      provider.readWebhook(
        "inbound-call",
        webhook("https://pump.example.in/api/telephony/twilio/inbound-call", {
          CallSid: callSid("2"),
          From: "+14155550100",
        }),
      ),
    ).toMatchObject({ ok: true, event: { type: "missedCall", from: { raw: "+14155550100", mobileNo: null } } });
  });

  it("speaks the alert's opening and its offer (a dry run: to hear the state) in Hindi inside one Gather whose action is the keypress URL", () => {
    const reading = provider.readWebhook(
      "voice",
      webhook(
        "https://pump.example.in/api/telephony/twilio/voice?lang=hi&kind=dryRun&pumpName=%E0%A4%95%E0%A5%81%E0%A4%86%E0%A4%81&ref=stop%3AX&at=1",
        {
          CallSid: callSid("3"),
        },
      ),
    );
    expect(reading.ok && reading.reply.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Gather input="dtmf" numDigits="1" timeout="10" action="https://pump.example.in/api/telephony/twilio/keypress?lang=hi&#38;ref=stop%3AX&#38;at=1" method="POST">' +
        '<Say language="hi-IN" voice="Polly.Aditi">नमस्ते, सिंचाई से कॉल है। पंप कुआँ ड्राई रन हुआ, इसलिए मोटर बंद कर दी गई। पानी का स्रोत देखें।</Say>' +
        '<Say language="hi-IN" voice="Polly.Aditi">मोटर का हाल सुनने के लिए 1 दबाएँ। कुछ न करना हो तो फ़ोन रख दें।</Say>' +
        "</Gather>" +
        '<Say language="hi-IN" voice="Polly.Aditi">कोई बटन नहीं दबाया गया। कुछ नहीं बदला। धन्यवाद।</Say>' +
        "</Response>",
    );
    const unnamed = provider.readWebhook(
      "voice",
      webhook("https://pump.example.in/api/telephony/twilio/voice?lang=hi&kind=nothing&pumpName=x&ref=stop%3AX&at=1", {
        CallSid: callSid("3"),
      }),
    );
    expect(unnamed).toEqual({ ok: false, problem: "the call's URL names no alert" });
  });

  it("says what a key did and hangs up", () => {
    expect(provider.spokenReply("hi", "मोटर बंद हो गई, डिवाइस ने पुष्टि की। धन्यवाद।")).toEqual({
      status: 200,
      contentType: "text/xml; charset=utf-8",
      body:
        '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Say language="hi-IN" voice="Polly.Aditi">मोटर बंद हो गई, डिवाइस ने पुष्टि की। धन्यवाद।</Say><Hangup/></Response>',
    });
  });
});

describe("the Twilio adapter and switching from any phone", () => {
  const provider = twilioProvider(TWILIO_CONFIG);
  const base = "https://pump.example.in/api/telephony/twilio";

  it("reads which of our numbers was called from its voice URL: the start and stop numbers reject it, the menu's is a menu call", () => {
    const call = (query: string) =>
      provider.readWebhook(
        "inbound-call",
        webhook(`${base}/inbound-call${query}`, { CallSid: callSid("3"), From: "+919876543210" }),
      );
    expect(call("?line=start")).toMatchObject({
      event: { type: "missedCall", line: "start" },
      replayKey: `inbound-call:${callSid("3")}`,
      reply: { body: '<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>' },
    });
    expect(call("")).toMatchObject({ event: { type: "missedCall", line: "stop" } });
    expect(call("?line=menu")).toMatchObject({
      event: { type: "menuCall", callId: callSid("3"), from: { mobileNo: "9876543210" } },
      replayKey: `menu-call:${callSid("3")}`,
    });
  });

  it("asks the menu's question in a Gather whose action names the question, and reads the key with it", () => {
    const asked = provider.menuReply({ kind: "ask", language: "hi", text: "पंप कुआँ। 1 दबाएँ।", step: 2 });
    expect(asked).toEqual({
      status: 200,
      contentType: "text/xml; charset=utf-8",
      body:
        '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        `<Gather input="dtmf" numDigits="1" timeout="10" action="${base}/keypress?menu=2&#38;lang=hi" method="POST">` +
        '<Say language="hi-IN" voice="Polly.Aditi">पंप कुआँ। 1 दबाएँ।</Say></Gather>' +
        '<Say language="hi-IN" voice="Polly.Aditi">कोई बटन नहीं दबाया गया। कुछ नहीं बदला। धन्यवाद।</Say></Response>',
    });
    expect(provider.menuReply({ kind: "reject" }).body).toMatch(/<Reject reason="busy"\/>/);
    expect(provider.menuReply({ kind: "end", language: "en", text: "Goodbye." }).body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say language="en-IN" voice="Polly.Aditi">Goodbye.</Say><Hangup/></Response>',
    );
    const key = provider.readWebhook(
      "keypress",
      webhook(`${base}/keypress?menu=2&lang=hi`, { CallSid: callSid("4"), Digits: "3" }),
    );
    expect(key).toMatchObject({
      event: { type: "keypress", callId: callSid("4"), digits: "3", menu: true, menuStep: 2 },
      replayKey: `keypress:${callSid("4")}:3:menu2`,
    });
  });
});

describe("the Twilio adapter reads only Twilio's own fields", () => {
  const provider = twilioProvider(TWILIO_CONFIG);
  const base = "https://pump.example.in/api/telephony/twilio";
  const ringing = { CallSid: callSid("a"), From: "+919876543210", To: "+918000000001", CallStatus: "ringing" };

  it("refuses a captured call whose field boundary was moved: the signature holds, the id does not", async () => {
    // Twilio signs names and values with nothing between them: these two sign the same text.
    const url = `${base}/inbound-call?line=start`;
    const captured = { AccountSid: TWILIO_CONFIG.accountSid, ...ringing };
    const { CallStatus, ...rest } = captured;
    const resplit = { ...rest, CallSid: `${captured.CallSid}CallStatus${CallStatus}` };
    const signature = await twilioSignature(TWILIO_CONFIG.authToken, url, Object.entries(captured));
    expect(await twilioSignature(TWILIO_CONFIG.authToken, url, Object.entries(resplit))).toBe(signature);
    const headers = { "X-Twilio-Signature": signature };
    expect(provider.readWebhook("inbound-call", webhook(url, captured, headers))).toMatchObject({ ok: true });
    expect(provider.readWebhook("inbound-call", webhook(url, resplit, headers))).toEqual({
      ok: false,
      problem: "CallSid is not a Twilio id",
    });
  });

  it("refuses a name given twice, a name Twilio does not send there, a wrong-shaped id and no AccountSid", () => {
    const read = (kind: "inbound-call" | "inbound-sms", params: [string, string][]) =>
      provider.readWebhook(kind, { method: "POST", url: `${base}/${kind}`, headers: new Headers(), params });
    const account: [string, string] = ["AccountSid", TWILIO_CONFIG.accountSid];
    expect(read("inbound-call", [account, ...Object.entries(ringing)])).toMatchObject({ ok: true });
    expect(read("inbound-call", [account, ...Object.entries(ringing), ["CallSid", callSid("b")]])).toEqual({
      ok: false,
      problem: "CallSid is given twice",
    });
    expect(read("inbound-call", [account, ...Object.entries(ringing), ["Body", "ON"]])).toEqual({
      ok: false,
      problem: "Body is not a field of Twilio's inbound-call webhook",
    });
    expect(read("inbound-call", [account, ...Object.entries({ ...ringing, CallSid: `CA${"A".repeat(32)}` })])).toEqual({
      ok: false,
      problem: "CallSid is not a Twilio id",
    });
    expect(read("inbound-call", Object.entries(ringing))).toEqual({ ok: false, problem: "AccountSid is required" });
    expect(read("inbound-call", [["AccountSid", "AC1"], ...Object.entries(ringing)])).toEqual({
      ok: false,
      problem: "AccountSid is not a Twilio id",
    });
    const sms = { MessageSid: messageSid("c"), From: "+919876543210", To: "+918000000001", Body: "OFF" };
    expect(
      read("inbound-sms", [account, ...Object.entries(sms), ["MediaUrl0", "https://api.twilio.com/m"]]),
    ).toMatchObject({ ok: true });
    expect(
      read("inbound-sms", [account, ...Object.entries({ ...sms, MessageSid: `${sms.MessageSid}BodyOFF` })]),
    ).toEqual({
      ok: false,
      problem: "MessageSid is not a Twilio id",
    });
  });

  it("verifies only a webhook that names our account", async () => {
    const url = `${base}/inbound-call`;
    const signature = await twilioSignature(TWILIO_CONFIG.authToken, url, Object.entries(ringing));
    const unnamed: InboundWebhook = {
      method: "POST",
      url,
      headers: new Headers({ "X-Twilio-Signature": signature }),
      params: Object.entries(ringing),
    };
    expect(await provider.verifyWebhook("inbound-call", unnamed)).toBe(false);
  });
});
