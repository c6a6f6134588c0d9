// The local provider's Exotel: the v1 REST calls our adapter makes (Sms/send, Calls/connect),
// answered in Exotel's documented JSON, and what Exotel then does: the SMS's status callback, and
// the call flow of docs/telephony.md played against the Worker (the Greeting applet's HEAD and GET
// of our `voice` URL, the Gather applet's key, the Passthru applet's GET of our `keypress` URL with
// `digits` in double quotes, then a closing greeting) with the status callbacks asked for, and a
// farmer's SMS and missed call to our ExoPhone. Every URL carries our secret, as configured in
// Exotel's dashboard; Exotel signs nothing.
import { spacedNumber, tenDigits } from "./phone-log.ts";
import {
  type CallState,
  hexId,
  isAuthorized,
  isOver,
  type RestAnswer,
  type RestRequest,
  type SimCore,
  sendWebhook,
  startCall,
} from "./sim-core.ts";

/** What the flow's closing greeting says when our URL gives it nothing to read. */
export const EXOTEL_FLOW_CLOSING = "धन्यवाद।";

function exotelError(status: number, message: string, code: string | number): RestAnswer {
  return { status, body: { RestException: { Status: status, Message: message, Code: code } } };
}

/** One of our webhook URLs as configured in Exotel's dashboard (the flow, the number, SMS settings). */
function flowUrl(core: SimCore, kind: string, query: Record<string, string> = {}): string {
  const url = new URL(`/api/telephony/exotel/${kind}`, core.workerOrigin);
  url.searchParams.set("token", core.credentials.webhookSecret);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

function exotelTime(at = Date.now()): string {
  // Exotel writes times in IST as YYYY-MM-DD HH:mm:ss.
  return new Date(at + 5.5 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
}

async function statusCallback(core: SimCore, call: CallState, eventType: "answered" | "terminal", status: string) {
  call.record.status = status;
  if (!call.statusCallback || !call.events.includes(eventType)) return;
  // Sent as multipart/form-data, as Exotel's voice status callbacks are.
  const form = new FormData();
  const duration = call.answeredAt === null ? 0 : Math.max(1, Math.round((Date.now() - call.answeredAt) / 1000));
  const fields: Record<string, string> = {
    CallSid: call.record.id,
    EventType: eventType,
    Status: status,
    DateUpdated: exotelTime(),
    To: `0${call.record.to}`,
    From: call.record.from,
    Direction: "outbound-api",
    CustomField: call.customField ?? "",
    RecordingUrl: "",
    ...(eventType === "terminal" ? { ConversationDuration: String(duration) } : {}),
  };
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  await sendWebhook(core, call.statusCallback, { method: "POST", body: form });
}

function flowQuery(call: CallState): Record<string, string> {
  return {
    CallSid: call.record.id,
    CallFrom: `0${call.record.to}`,
    CallTo: call.record.from,
    Direction: "outbound-dial",
    CustomField: call.customField ?? "",
  };
}

/** A greeting applet that reads its text from one of our URLs: HEAD first, then GET, as Exotel does. */
async function greetingText(core: SimCore, url: string): Promise<string> {
  const head = await sendWebhook(core, url, { method: "HEAD" });
  const response = head?.headers.get("Content-Type")?.startsWith("text/plain")
    ? await sendWebhook(core, url, { method: "GET" })
    : null;
  return response?.ok ? (await response.text()).trim() : "";
}

/** The farmer picks up: the Greeting applet reads our text aloud, the Gather applet waits for a key. */
async function answer(core: SimCore, call: CallState) {
  const unanswered = core.unanswered.get(call.record.to);
  if (unanswered) {
    await statusCallback(core, call, "terminal", unanswered);
    core.log(`Call to ${spacedNumber(call.record.to)} (${call.record.id}) rang: ${unanswered}`);
    return;
  }
  call.answeredAt = Date.now();
  await statusCallback(core, call, "answered", "in-progress");
  const greeting = flowUrl(core, "voice", {
    CallSid: call.record.id,
    From: `0${call.record.to}`,
    To: call.record.from,
    DialWhomNumber: "",
    CustomField: call.customField ?? "",
  });
  const text = await greetingText(core, greeting);
  if (text) call.record.spoken.push(text);
  call.record.waitingForKey = true;
  core.log(`Call to ${spacedNumber(call.record.to)} (${call.record.id}): «${text || "(silence)"}»`);
  core.log(`  waiting for a key: type "press 1" (or "press 1 ${call.record.id}")`);
}

export async function hangUpExotel(core: SimCore, call: CallState): Promise<void> {
  if (isOver(call)) return;
  call.record.waitingForKey = false;
  await statusCallback(core, call, "terminal", "completed");
  core.log(`  call ${call.record.id} ended`);
}

/**
 * A key on the call: the Passthru applet reports it, then the flow's closing greeting reads what
 * the key did from our URL (step=outcome).
 */
export async function pressExotel(core: SimCore, call: CallState, digits: string): Promise<void> {
  if (!call.record.waitingForKey) throw new Error(`Call ${call.record.id} is not waiting for a key.`);
  call.record.waitingForKey = false;
  call.record.pressed.push(digits);
  if (call.keyUrl !== null) return pressExotelMenu(core, call, digits, call.keyUrl);
  await sendWebhook(core, flowUrl(core, "keypress", { ...flowQuery(call), digits: `"${digits}"` }), { method: "GET" });
  const closing =
    (await greetingText(core, flowUrl(core, "voice", { step: "outcome", ...flowQuery(call) }))) || EXOTEL_FLOW_CLOSING;
  call.record.spoken.push(closing);
  core.log(`  ${digits} pressed on ${call.record.id}: «${closing}»`);
  await hangUpExotel(core, call);
}

/** POST /v1/Accounts/{sid}/Sms/send.json and /v1/Accounts/{sid}/Calls/connect.json */
export function exotelRest(core: SimCore, request: RestRequest, path: string, body: string): RestAnswer | null {
  const match = /^\/v1\/Accounts\/([^/]+)\/(Sms\/send|Calls\/connect)\.json$/.exec(path);
  if (!match || request.method !== "POST") return null;
  const { accountSid, apiKey } = core.credentials;
  if (!isAuthorized(core, request, apiKey, match[1]!)) {
    return exotelError(401, "Authentication failed. Invalid API Key or Token.", "UNAUTHORIZED");
  }
  const form = new URLSearchParams(body);
  const created = exotelTime();

  if (match[2] === "Sms/send") {
    const [from, to, text] = [form.get("From"), form.get("To"), form.get("Body")];
    if (!from || !to || !text) return exotelError(400, "From, To and Body are mandatory.", 400);
    const entityId = form.get("DltEntityId");
    if (!entityId) return exotelError(400, "DltEntityId is mandatory for SMS to India.", 400);
    if (text.length > 2000) return exotelError(400, "Body cannot exceed 2000 characters.", 400);
    const encoding = form.get("EncodingType") ?? "plain";
    const sms = {
      id: hexId(),
      provider: "exotel" as const,
      to: tenDigits(to),
      from,
      text,
      dlt: { entityId, templateId: form.get("DltTemplateId") ?? "", encoding },
      status: "queued",
      at: Date.now(),
    };
    core.sms.push(sms);
    core.log(`SMS to ${spacedNumber(sms.to)}: ${text}`);
    if (encoding !== "unicode" && /[\u0080-\uffff]/.test(text)) {
      core.log("  ! sent as plain text: a phone would show this Hindi SMS garbled (EncodingType=unicode)");
    }
    const callback = form.get("StatusCallback");
    core.play(async () => {
      for (const [status, code, detail] of [
        ["sent", "20002", "SUBMITTED_TO_CARRIER"],
        ["delivered", "20005", "DELIVERED_TO_HANDSET"],
      ] as const) {
        sms.status = status;
        if (callback) {
          await sendWebhook(core, callback, {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({
              SmsSid: sms.id,
              To: to,
              Status: status,
              DetailedStatus: detail,
              DetailedStatusCode: code,
              DateSent: exotelTime(),
              SmsUnits: "1",
            }),
          });
        }
      }
    });
    return {
      status: 200,
      body: {
        SMSMessage: {
          Sid: sms.id,
          AccountSid: accountSid,
          From: `${accountSid}/${from}`,
          To: to,
          DateCreated: created,
          DateUpdated: created,
          DateSent: null,
          Body: text,
          Direction: "outbound-api",
          Uri: `/v1/Accounts/${accountSid}/SMS/Messages/${sms.id}.json`,
          ApiVersion: null,
          Price: null,
          Status: "queued",
          DetailedStatusCode: 21010,
          DetailedStatus: "PENDING_TO_OPERATOR",
          SmsUnits: null,
        },
      },
    };
  }

  const [from, callerId, url] = [form.get("From"), form.get("CallerId"), form.get("Url")];
  if (!from || !callerId || !url) return exotelError(400, "From, CallerId and Url are mandatory.", 400);
  const flow = new RegExp(`^http://my\\.exotel\\.com/${accountSid}/exoml/start_voice/[0-9]+$`);
  if (!flow.test(url))
    return exotelError(400, `Url must be http://my.exotel.com/${accountSid}/exoml/start_voice/<app_id>.`, 400);
  const events = form.getAll("StatusCallbackEvents[]");
  const call = startCall(core, {
    id: hexId(),
    provider: "exotel",
    to: tenDigits(from),
    from: callerId,
    status: "queued",
    voiceUrl: null,
    statusCallback: form.get("StatusCallback"),
    keyUrl: null,
    // Without StatusCallbackEvents Exotel still sends the terminal callback.
    events: events.length === 0 ? ["terminal"] : events,
    customField: form.get("CustomField"),
    answeredAt: null,
  });
  core.play(() => answer(core, call));
  return {
    status: 200,
    body: {
      Call: {
        Sid: call.record.id,
        ParentCallSid: null,
        DateCreated: created,
        DateUpdated: created,
        AccountSid: accountSid,
        To: callerId,
        From: from,
        PhoneNumberSid: callerId,
        Status: "in-progress",
        StartTime: created,
        EndTime: null,
        Duration: null,
        Price: null,
        Direction: "outbound-api",
        AnsweredBy: null,
        ForwardedFrom: null,
        CallerName: null,
        Uri: `/v1/Accounts/${accountSid}/Calls/${call.record.id}.json`,
        RecordingUrl: null,
      },
    },
  };
}

/** A farmer's SMS to our ExoPhone, as the inbound SMS webhook of Exotel's SMS settings delivers it. */
export async function exotelInboundSms(core: SimCore, from: string, text: string): Promise<Response | null> {
  core.log(`SMS from ${spacedNumber(from)} to us: ${text}`);
  return sendWebhook(core, flowUrl(core, "inbound-sms"), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ SmsSid: hexId(), From: `0${from}`, To: core.ourNumber, Body: text }),
  });
}

/**
 * A missed call to one of our ExoPhones: its flow's Passthru applet reports it, then hangs up.
 * Each number's flow names its line in the Passthru URL (`line=start`; none for the stop number).
 */
export async function exotelMissedCall(core: SimCore, from: string, line: "stop" | "start" = "stop") {
  core.log(`Missed call from ${spacedNumber(from)} to the ${line} number`);
  return sendWebhook(
    core,
    flowUrl(core, "inbound-call", {
      ...(line === "start" ? { line } : {}),
      CallSid: hexId(),
      CallFrom: `0${from}`,
      CallTo: core.lineNumbers?.[line] ?? core.ourNumber,
      Direction: "incoming",
      CallType: "call-attempt",
    }),
    { method: "GET" },
  );
}

function menuQuery(call: CallState): Record<string, string> {
  return {
    CallSid: call.record.id,
    CallFrom: `0${call.record.from}`,
    CallTo: call.record.to,
    Direction: "incoming",
    CurrentTime: exotelTime(),
  };
}

/** The menu's flow asks its question: the greeting reads it from our URL, the Gather waits for a key. */
async function askExotelMenu(core: SimCore, call: CallState) {
  const text = await greetingText(core, flowUrl(core, "voice", { step: "prompt", ...menuQuery(call) }));
  if (text) call.record.spoken.push(text);
  call.record.waitingForKey = true;
  core.log(`  «${text || "(silence)"}»`);
  core.log(`  waiting for a key: type "press 1" (or "press 1 ${call.record.id}")`);
}

/**
 * A farmer calls our voice menu's ExoPhone. Its flow (docs/telephony.md, "Exotel's call flow"):
 * Passthru `inbound-call?line=menu` (302: ask; 200: hang up), Greeting `voice?step=prompt`, Gather,
 * Passthru `keypress?menu=1` (302: ask again; 200: Greeting `voice?step=outcome`, then Hangup).
 */
export async function exotelMenuCall(core: SimCore, from: string): Promise<CallState> {
  const call = startCall(core, {
    id: hexId(),
    provider: "exotel",
    to: core.ourNumber,
    from,
    status: "in-progress",
    voiceUrl: null,
    statusCallback: null,
    keyUrl: flowUrl(core, "keypress", { menu: "1" }),
    events: [],
    customField: null,
    answeredAt: Date.now(),
  });
  core.log(`Call from ${spacedNumber(from)} to the voice menu (${call.record.id})`);
  const entry = await sendWebhook(core, flowUrl(core, "inbound-call", { line: "menu", ...menuQuery(call) }), {
    method: "GET",
    redirect: "manual",
  });
  if (entry?.status !== 302) {
    call.record.status = "completed";
    core.log("  hung up by the flow");
    return call;
  }
  await askExotelMenu(core, call);
  return call;
}

/** A key on the menu: the Passthru acts on it, then the flow asks again (302) or says the outcome and hangs up (200). */
async function pressExotelMenu(core: SimCore, call: CallState, digits: string, keyUrl: string): Promise<void> {
  const url = new URL(keyUrl);
  for (const [name, value] of Object.entries({ ...menuQuery(call), digits: `"${digits}"` }))
    url.searchParams.set(name, value);
  const passthru = await sendWebhook(core, url.toString(), { method: "GET", redirect: "manual" });
  core.log(`  ${digits} pressed on ${call.record.id}`);
  if (passthru?.status === 302) return askExotelMenu(core, call);
  const closing =
    (await greetingText(core, flowUrl(core, "voice", { step: "outcome", ...menuQuery(call) }))) || EXOTEL_FLOW_CLOSING;
  call.record.spoken.push(closing);
  core.log(`  «${closing}»`);
  call.record.status = "completed";
}
