// The Exotel adapter against Exotel's documented formats: the SMS with its DLT fields and
// Unicode encoding, the call to our flow with the call's context, Exotel's answers and errors,
// the secret that stands in for a signature, and each webhook's fields as Exotel documents them.
import { describe, expect, it } from "vitest";
import { exotelProvider } from "../../worker/telephony/exotel.ts";
import { type InboundWebhook, TelephonyError } from "../../worker/telephony/provider.ts";
import {
  EXOTEL_CALL_CONNECTED,
  EXOTEL_CONFIG,
  EXOTEL_SMS_SENT,
  EXOTEL_UNAUTHORIZED,
  HINDI_CODE_SMS,
  HINDI_DRY_RUN_CALL,
  recordingFetch,
} from "./provider-fixtures.ts";

const BASIC = `Basic ${Buffer.from(`${EXOTEL_CONFIG.apiKey}:${EXOTEL_CONFIG.apiToken}`).toString("base64")}`;
const SECRET = EXOTEL_CONFIG.webhookSecret;

function get(url: string): InboundWebhook {
  return { method: "GET", url, headers: new Headers(), params: [...new URL(url).searchParams] };
}

function post(url: string, fields: Record<string, string>): InboundWebhook {
  return { method: "POST", url, headers: new Headers(), params: Object.entries(fields) };
}

describe("the Exotel adapter sends", () => {
  it("a Hindi SMS as Sms/send wants it: DLT entity and template, Unicode, transactional", async () => {
    const { fetch, requests } = recordingFetch(200, EXOTEL_SMS_SENT);
    const sent = await exotelProvider(EXOTEL_CONFIG, fetch).sendSms(HINDI_CODE_SMS);
    expect(sent).toEqual({
      provider: "exotel",
      messageId: EXOTEL_SMS_SENT.SMSMessage.Sid,
      status: "queued",
      segments: 1,
    });
    const [request] = requests;
    expect(request!.url).toBe("https://api.in.exotel.com/v1/Accounts/sinchai1/Sms/send.json");
    expect(request!.method).toBe("POST");
    expect(request!.headers.get("Authorization")).toBe(BASIC);
    expect(Object.fromEntries(request!.form)).toEqual({
      From: "SINCHI",
      To: "+919876543210",
      Body: "042917 आपका सिंचाई कोड है। 5 मिनट चलेगा। किसी को न बताएँ।",
      EncodingType: "unicode",
      DltEntityId: "1201159123456789012",
      DltTemplateId: "1207161234567890123",
      SmsType: "transactional",
      StatusCallback: `https://pump.example.in/api/telephony/exotel/sms-status?token=${SECRET}`,
    });
  });

  it("an English SMS as plain text, and none at all without its template id", async () => {
    const { fetch, requests } = recordingFetch(200, EXOTEL_SMS_SENT);
    const provider = exotelProvider(EXOTEL_CONFIG, fetch);
    await provider.sendSms({ to: "9876543210", template: "alertDryRun", language: "en", values: { pumpName: "Well" } });
    expect(requests[0]!.form.get("EncodingType")).toBe("plain");
    expect(requests[0]!.form.get("DltTemplateId")).toBe("1207161234567890456");
    // A pump named in Hindi makes the English text UCS-2 too.
    await provider.sendSms({ to: "9876543210", template: "alertDryRun", language: "en", values: { pumpName: "कुआँ" } });
    expect(requests[1]!.form.get("EncodingType")).toBe("unicode");
    await expect(
      provider.sendSms({ to: "9876543210", template: "alertDryRun", language: "hi", values: { pumpName: "कुआँ" } }),
    ).rejects.toThrow(/No DLT template id for alertDryRun.hi/);
    expect(requests).toHaveLength(2);
  });

  it("a call to our flow with the call's context in CustomField and both status events", async () => {
    const { fetch, requests } = recordingFetch(200, EXOTEL_CALL_CONNECTED);
    const placed = await exotelProvider(EXOTEL_CONFIG, fetch).placeCall(HINDI_DRY_RUN_CALL);
    expect(placed).toEqual({ provider: "exotel", callId: EXOTEL_CALL_CONNECTED.Call.Sid, status: "answered" });
    const [request] = requests;
    expect(request!.url).toBe("https://api.in.exotel.com/v1/Accounts/sinchai1/Calls/connect.json");
    expect(request!.headers.get("Authorization")).toBe(BASIC);
    const form = request!.form;
    expect(form.get("From")).toBe("+919876543210");
    expect(form.get("CallerId")).toBe("08047112233");
    expect(form.get("Url")).toBe("http://my.exotel.com/sinchai1/exoml/start_voice/926");
    expect(form.get("CallType")).toBe("trans");
    expect(form.get("StatusCallback")).toBe(`https://pump.example.in/api/telephony/exotel/call-status?token=${SECRET}`);
    expect(form.getAll("StatusCallbackEvents[]")).toEqual(["answered", "terminal"]);
    expect(Object.fromEntries(new URLSearchParams(form.get("CustomField")!))).toEqual({
      lang: "hi",
      kind: "dryRun",
      pumpName: "कुआँ",
      ref: "stop:SNC-AB12CD34",
      at: "1767225600000",
    });
  });

  it("and turns Exotel's RestException into an error with its code", async () => {
    const { fetch } = recordingFetch(401, EXOTEL_UNAUTHORIZED);
    const failure = await exotelProvider(EXOTEL_CONFIG, fetch)
      .placeCall({
        to: "9876543210",
        language: "hi",
        kind: "dryRun",
        pumpName: "x",
        reference: { code: "x", placedAt: 1 },
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TelephonyError);
    expect(failure).toMatchObject({ provider: "exotel", status: 401, providerCode: "UNAUTHORIZED" });
  });
});

describe("the Exotel adapter checks and reads webhooks", () => {
  const provider = exotelProvider(EXOTEL_CONFIG);
  const base = "https://pump.example.in/api/telephony/exotel";

  it("accepts only our secret, whole, in the URL", async () => {
    expect(await provider.verifyWebhook("keypress", get(`${base}/keypress?token=${SECRET}&CallSid=a`))).toBe(true);
    for (const token of ["", SECRET.slice(1), `${SECRET} `, SECRET.toUpperCase()]) {
      expect(await provider.verifyWebhook("keypress", get(`${base}/keypress?token=${encodeURIComponent(token)}`))).toBe(
        false,
      );
    }
    expect(await provider.verifyWebhook("keypress", get(`${base}/keypress?CallSid=a`))).toBe(false);
    // A short secret is refused outright, rather than trusted.
    const weak = exotelProvider({ ...EXOTEL_CONFIG, webhookSecret: "short" });
    expect(await weak.verifyWebhook("keypress", get(`${base}/keypress?token=short`))).toBe(false);
  });

  it("reads the Passthru's keypress (digits in double quotes) with the call's reference", () => {
    // support.exotel.com "Working with Passthru applet": CallSid, CallFrom, CallTo, Direction, digits, CustomField.
    const context = new URLSearchParams({ lang: "hi", pumpName: "कुआँ", ref: "stop:SNC-AB12CD34", at: "7" }).toString();
    const reading = provider.readWebhook(
      "keypress",
      get(
        `${base}/keypress?token=${SECRET}&CallSid=${EXOTEL_CALL_CONNECTED.Call.Sid}&CallFrom=09876543210&CallTo=08047112233&Direction=outbound-dial&digits=%221%22&CustomField=${encodeURIComponent(context)}`,
      ),
    );
    expect(reading).toEqual({
      ok: true,
      event: {
        type: "keypress",
        provider: "exotel",
        callId: EXOTEL_CALL_CONNECTED.Call.Sid,
        digits: "1",
        reference: { code: "stop:SNC-AB12CD34", placedAt: 7 },
        menu: false,
        menuStep: null,
      },
      replayKey: `keypress:${EXOTEL_CALL_CONNECTED.Call.Sid}:1`,
      reply: { status: 200, contentType: "text/plain; charset=utf-8", body: "" },
    });
  });

  it("reads the call's status callback, the SMS's, a farmer's SMS and missed call", () => {
    // https://developer.exotel.com/docs/voice-v1/api-reference/status-callback (with StatusCallbackEvents)
    expect(
      provider.readWebhook(
        "call-status",
        post(`${base}/call-status?token=${SECRET}`, {
          CallSid: EXOTEL_CALL_CONNECTED.Call.Sid,
          EventType: "terminal",
          DateCreated: "2024-01-15 14:25:10",
          DateUpdated: "2024-01-15 14:30:45",
          To: "09123456789",
          From: "09876543210",
          PhoneNumberSid: "0XXXXXX4890",
          StartTime: "2024-01-15 14:25:12",
          EndTime: "2024-01-15 14:30:45",
          Status: "no-answer",
          ConversationDuration: "0",
          Direction: "outbound-api",
          CustomField: "",
        }),
      ),
    ).toMatchObject({
      ok: true,
      event: { type: "callStatus", status: "noAnswer", durationSeconds: 0, reference: null },
      replayKey: `call:${EXOTEL_CALL_CONNECTED.Call.Sid}:no-answer`,
    });
    // https://developer.exotel.com/docs/sms-support/sms-status-codes
    for (const [exotel, ours] of [
      ["queued", "queued"],
      ["sending", "queued"],
      ["submitted", "queued"],
      ["sent", "sent"],
      ["delivered", "delivered"],
      ["failed", "failed"],
      ["expired", "undelivered"],
      ["undelivered", "undelivered"],
    ]) {
      expect(
        provider.readWebhook(
          "sms-status",
          post(`${base}/sms-status?token=${SECRET}`, { SmsSid: "s1", Status: exotel! }),
        ),
      ).toMatchObject({ ok: true, event: { type: "smsStatus", status: ours } });
    }
    expect(
      provider.readWebhook(
        "inbound-sms",
        post(`${base}/inbound-sms?token=${SECRET}`, { SmsSid: "s2", From: "09876543210", Body: "STOP" }),
      ),
    ).toMatchObject({ ok: true, event: { type: "inboundSms", from: { mobileNo: "9876543210" }, text: "STOP" } });
    expect(
      provider.readWebhook("inbound-call", get(`${base}/inbound-call?token=${SECRET}&CallSid=c9&From=09876543210`)),
    ).toMatchObject({ ok: true, event: { type: "missedCall", from: { mobileNo: "9876543210" } } });
    expect(provider.readWebhook("keypress", get(`${base}/keypress?token=${SECRET}&CallSid=c9&digits=%22%22`))).toEqual({
      ok: false,
      problem: "digits are not keys",
    });
  });

  it("answers the greeting's request with the alert's opening and its offer as text (a phase fault: to hear the state), in the call's language", () => {
    const context = new URLSearchParams({
      lang: "en",
      kind: "phaseFault",
      pumpName: "Well",
      ref: "x",
      at: "1",
    }).toString();
    const reading = provider.readWebhook(
      "voice",
      get(
        `${base}/voice?token=${SECRET}&CallSid=c1&From=09876543210&To=08047112233&DialWhomNumber=&CustomField=${encodeURIComponent(context)}`,
      ),
    );
    expect(reading).toEqual({
      ok: true,
      event: null,
      replayKey: null,
      reply: {
        status: 200,
        contentType: "text/plain; charset=utf-8",
        body: "Hello, this is Sinchai. There is a phase fault at pump Well. The motor cannot start until the phases are back. To hear the motor's state, press 1. Otherwise, hang up.",
      },
    });
  });

  it("leaves the closing greeting's request (step=outcome) to the route, with the call's id, and says a text as it is", () => {
    const context = new URLSearchParams({ lang: "hi", kind: "dryRun", pumpName: "Well", ref: "x", at: "1" }).toString();
    expect(
      provider.readWebhook(
        "voice",
        get(`${base}/voice?token=${SECRET}&step=outcome&CallSid=c1&CustomField=${encodeURIComponent(context)}`),
      ),
    ).toEqual({
      ok: true,
      event: null,
      replayKey: null,
      reply: { status: 200, contentType: "text/plain; charset=utf-8", body: "" },
      outcomeOfCall: { callId: "c1", reference: { code: "x", placedAt: 1 } },
    });
    expect(provider.spokenReply("hi", "धन्यवाद।")).toEqual({
      status: 200,
      contentType: "text/plain; charset=utf-8",
      body: "धन्यवाद।",
    });
  });
});

describe("the Exotel adapter and switching from any phone", () => {
  const provider = exotelProvider(EXOTEL_CONFIG);
  const base = "https://pump.example.in/api/telephony/exotel";

  it("reads which ExoPhone was called from its flow's Passthru URL (line=start, line=menu; the stop number otherwise)", () => {
    const call = (line: string) =>
      provider.readWebhook(
        "inbound-call",
        get(`${base}/inbound-call?token=${SECRET}${line}&CallSid=c1&CallFrom=09876543210&CallTo=08000000002`),
      );
    expect(call("&line=start")).toMatchObject({ event: { type: "missedCall", line: "start" } });
    expect(call("")).toMatchObject({ event: { type: "missedCall", line: "stop" } });
    expect(call("&line=menu")).toMatchObject({ event: { type: "menuCall", callId: "c1" }, replayKey: "menu-call:c1" });
  });

  it("branches the menu's flow on its Passthru: 302 asks again, 200 ends (with the outcome's words for the closing greeting)", () => {
    expect(provider.menuReply({ kind: "ask", language: "hi", text: "1 दबाएँ।", step: 1 }).status).toBe(302);
    expect(provider.menuReply({ kind: "reject" })).toEqual({
      status: 200,
      contentType: "text/plain; charset=utf-8",
      body: "",
    });
    expect(provider.menuReply({ kind: "end", language: "hi", text: "मोटर बंद हो गई।" }).body).toBe("मोटर बंद हो गई।");
  });

  it("reads a menu key from the Passthru marked menu=1, keyed by Exotel's CurrentTime; the greeting asks the question by CallSid", () => {
    const key = provider.readWebhook(
      "keypress",
      get(`${base}/keypress?token=${SECRET}&menu=1&CallSid=c2&digits=%222%22&CurrentTime=2026-11-27%2021:42:07`),
    );
    expect(key).toMatchObject({
      event: { type: "keypress", digits: "2", menu: true, menuStep: null },
      replayKey: "keypress:c2:2:2026-11-27 21:42:07",
    });
    expect(provider.readWebhook("voice", get(`${base}/voice?token=${SECRET}&step=prompt&CallSid=c2`))).toMatchObject({
      ok: true,
      event: null,
      promptOfCall: "c2",
    });
  });
});
