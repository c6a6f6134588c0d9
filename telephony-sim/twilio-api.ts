// The local provider's Twilio: the REST calls our adapter makes (Messages and Calls, 2010-04-01),
// answered in Twilio's documented shapes, and the webhooks Twilio then sends, signed with the
// account's token (common/twilio-signature.ts): SMS status, the call's TwiML fetched from its
// Url, the key posted to the Gather's action, call progress, and inbound SMS and calls to our
// number. Field names as in https://www.twilio.com/docs/messaging/guides/webhook-request and
// https://www.twilio.com/docs/voice/twiml#request-parameters.
import { twilioSignature } from "../common/twilio-signature.ts";
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
import { readTwiml } from "./twiml.ts";

function twilioError(status: number, code: number, message: string): RestAnswer {
  return { status, body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

/** A Twilio webhook: a form POST signed with the account's Auth Token. */
async function postSigned(core: SimCore, url: string, fields: Record<string, string>): Promise<Response | null> {
  const form = { AccountSid: core.credentials.accountSid, ApiVersion: "2010-04-01", ...fields };
  return sendWebhook(core, url, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Twilio-Signature": await twilioSignature(core.credentials.apiToken, url, Object.entries(form)),
    },
    body: new URLSearchParams(form),
  });
}

function callFields(call: CallState, status: string): Record<string, string> {
  return {
    CallSid: call.record.id,
    From: call.record.from,
    To: `+91${call.record.to}`,
    CallStatus: status,
    Direction: "outbound-api",
  };
}

async function progress(
  core: SimCore,
  call: CallState,
  event: string,
  status: string,
  extra: Record<string, string> = {},
) {
  call.record.status = status;
  if (!call.statusCallback || !call.events.includes(event)) return;
  await postSigned(core, call.statusCallback, {
    ...callFields(call, status),
    CallbackSource: "call-progress-events",
    Timestamp: new Date().toUTCString(),
    ...extra,
  });
}

/** Answers the phone (or lets it ring out): fetches the call's TwiML and says it. */
async function answer(core: SimCore, call: CallState, voiceUrl: string) {
  await progress(core, call, "initiated", "initiated");
  await progress(core, call, "ringing", "ringing");
  const unanswered = core.unanswered.get(call.record.to);
  if (unanswered) {
    // Twilio reports a call nobody took in its "completed" event, with that final status.
    await progress(core, call, "completed", unanswered, { CallDuration: "0" });
    core.log(`Call to ${spacedNumber(call.record.to)} (${call.record.id}) rang: ${unanswered}`);
    return;
  }
  call.answeredAt = Date.now();
  await progress(core, call, "answered", "in-progress");
  const response = await postSigned(core, voiceUrl, callFields(call, "in-progress"));
  const twiml = response?.ok ? await response.text() : "";
  const { spoken, prompt, gather } = readTwiml(twiml);
  const said = gather ? prompt : spoken;
  call.record.spoken.push(...said);
  call.keyUrl = gather?.action ?? null;
  call.record.waitingForKey = gather !== null;
  core.log(`Call to ${spacedNumber(call.record.to)} (${call.record.id}): «${said.join(" ") || "(silence)"}»`);
  if (gather) core.log(`  waiting for a key: type "press 1" (or "press 1 ${call.record.id}")`);
  else await hangUp(core, call);
}

export async function hangUp(core: SimCore, call: CallState): Promise<void> {
  if (isOver(call)) return;
  call.record.waitingForKey = false;
  const duration = call.answeredAt === null ? 0 : Math.max(1, Math.round((Date.now() - call.answeredAt) / 1000));
  await progress(core, call, "completed", "completed", { CallDuration: String(duration) });
  core.log(`  call ${call.record.id} ended`);
}

/**
 * The person on the call presses `digits`: Twilio posts them to the Gather's action. An answer
 * with another Gather (the voice menu's next question) waits for the next key; any other ends.
 */
export async function pressTwilio(core: SimCore, call: CallState, digits: string): Promise<void> {
  if (!call.record.waitingForKey || !call.keyUrl) throw new Error(`Call ${call.record.id} is not waiting for a key.`);
  call.record.waitingForKey = false;
  call.record.pressed.push(digits);
  const response = await postSigned(core, call.keyUrl, {
    ...callFields(call, "in-progress"),
    Digits: digits,
    FinishedOnKey: "",
  });
  const { spoken, prompt, gather } = readTwiml(response?.ok ? await response.text() : "");
  const said = gather ? prompt : spoken;
  call.record.spoken.push(...said);
  core.log(`  ${digits} pressed on ${call.record.id}: «${said.join(" ") || "(silence)"}»`);
  if (gather) {
    call.keyUrl = gather.action;
    call.record.waitingForKey = true;
    core.log(`  waiting for a key: type "press 1" (or "press 1 ${call.record.id}")`);
    return;
  }
  await hangUp(core, call);
}

/** POST /2010-04-01/Accounts/{AccountSid}/(Messages|Calls).json */
export function twilioRest(core: SimCore, request: RestRequest, path: string, body: string): RestAnswer | null {
  const match = /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)\.json$/.exec(path);
  if (!match || request.method !== "POST") return null;
  const { accountSid } = core.credentials;
  if (!isAuthorized(core, request, accountSid, match[1]!)) return twilioError(401, 20003, "Authenticate");
  const form = new URLSearchParams(body);
  const to = form.get("To") ?? "";
  if (!to) return twilioError(400, 21604, "A 'To' phone number is required.");
  if (!/^\+91[1-9][0-9]{9}$/.test(to))
    return twilioError(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
  const created = new Date().toUTCString();

  if (match[2] === "Messages") {
    const text = form.get("Body") ?? "";
    const from = form.get("From") ?? form.get("MessagingServiceSid") ?? "";
    if (!text) return twilioError(400, 21602, "Message body is required.");
    if (!from) return twilioError(400, 21603, "A 'From' phone number is required.");
    const sms = {
      id: `SM${hexId()}`,
      provider: "twilio" as const,
      to: tenDigits(to),
      from,
      text,
      dlt: null,
      status: "queued",
      at: Date.now(),
    };
    core.sms.push(sms);
    core.log(`SMS to ${spacedNumber(sms.to)}: ${text}`);
    const statusCallback = form.get("StatusCallback");
    core.play(async () => {
      for (const status of ["sent", "delivered"]) {
        sms.status = status;
        if (statusCallback) {
          await postSigned(core, statusCallback, {
            MessageSid: sms.id,
            SmsSid: sms.id,
            MessageStatus: status,
            SmsStatus: status,
            From: from,
            To: to,
          });
        }
      }
    });
    return {
      status: 201,
      body: {
        sid: sms.id,
        account_sid: accountSid,
        to,
        from,
        body: text,
        status: "queued",
        num_segments: "1",
        direction: "outbound-api",
        date_created: created,
        error_code: null,
        error_message: null,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sms.id}.json`,
      },
    };
  }

  const from = form.get("From") ?? "";
  const url = form.get("Url");
  if (!from) return twilioError(400, 21213, "No 'From' number is specified.");
  if (!url && !form.get("Twiml")) return twilioError(400, 21205, "Url parameter is required.");
  const call = startCall(core, {
    id: `CA${hexId()}`,
    provider: "twilio",
    to: tenDigits(to),
    from,
    status: "queued",
    voiceUrl: url,
    statusCallback: form.get("StatusCallback"),
    keyUrl: null,
    events: form.getAll("StatusCallbackEvent").flatMap((events) => events.split(" ")),
    customField: null,
    answeredAt: null,
  });
  if (url) core.play(() => answer(core, call, url));
  return {
    status: 201,
    body: {
      sid: call.record.id,
      account_sid: accountSid,
      to,
      from,
      status: "queued",
      direction: "outbound-api",
      date_created: created,
      uri: `/2010-04-01/Accounts/${accountSid}/Calls/${call.record.id}.json`,
    },
  };
}

/** An SMS from a farmer's phone to our number, as Twilio delivers it to the number's webhook. */
export async function twilioInboundSms(core: SimCore, from: string, text: string): Promise<Response | null> {
  const id = `SM${hexId()}`;
  core.log(`SMS from ${spacedNumber(from)} to us: ${text}`);
  return postSigned(core, `${core.workerOrigin}/api/telephony/twilio/inbound-sms`, {
    MessageSid: id,
    SmsSid: id,
    From: `+91${from}`,
    To: core.ourNumber,
    Body: text,
    NumMedia: "0",
    NumSegments: "1",
  });
}

/**
 * A farmer's missed call to one of our numbers: Twilio asks the number's voice webhook while it
 * rings. Each number's webhook URL says which line it is (`?line=start`; none for the stop number).
 */
export async function twilioMissedCall(core: SimCore, from: string, line: "stop" | "start" = "stop") {
  core.log(`Missed call from ${spacedNumber(from)} to the ${line} number`);
  const query = line === "start" ? "?line=start" : "";
  return postSigned(core, `${core.workerOrigin}/api/telephony/twilio/inbound-call${query}`, {
    CallSid: `CA${hexId()}`,
    From: `+91${from}`,
    To: core.lineNumbers?.[line] ?? core.ourNumber,
    CallStatus: "ringing",
    Direction: "inbound",
  });
}

/**
 * A farmer calls our voice menu number: Twilio asks its voice webhook (`?line=menu`), says the
 * TwiML's question and waits for a key, or the call is rejected while it rings.
 */
export async function twilioMenuCall(core: SimCore, from: string): Promise<CallState> {
  const call = startCall(core, {
    id: `CA${hexId()}`,
    provider: "twilio",
    to: tenDigits(core.ourNumber),
    from,
    status: "ringing",
    voiceUrl: `${core.workerOrigin}/api/telephony/twilio/inbound-call?line=menu`,
    statusCallback: null,
    keyUrl: null,
    events: [],
    customField: null,
    answeredAt: null,
  });
  core.log(`Call from ${spacedNumber(from)} to the voice menu (${call.record.id})`);
  const response = await postSigned(core, call.record.voiceUrl!, {
    CallSid: call.record.id,
    From: `+91${from}`,
    To: core.ourNumber,
    CallStatus: "ringing",
    Direction: "inbound",
  });
  const xml = response?.ok ? await response.text() : "";
  const { prompt, gather } = readTwiml(xml);
  if (!gather) {
    call.record.status = /<Reject/.test(xml) ? "busy" : "completed";
    core.log(`  rejected: ${call.record.status}`);
    return call;
  }
  call.answeredAt = Date.now();
  call.record.status = "in-progress";
  call.record.spoken.push(...prompt);
  call.keyUrl = gather.action;
  call.record.waitingForKey = true;
  core.log(`  «${prompt.join(" ")}»`);
  core.log(`  waiting for a key: type "press 1" (or "press 1 ${call.record.id}")`);
  return call;
}
