// What Twilio's webhooks say, read into our events, and the TwiML that answers them.
import { type CallStatus, caller, type SmsStatus, type TelephonyEvent } from "../../common/telephony-events.ts";
import {
  type InboundWebhook,
  param,
  referenceFrom,
  type WebhookKind,
  type WebhookReading,
  type WebhookReply,
  xml,
} from "./provider.ts";
import type { SmsLanguage } from "./sms-templates.ts";
import { alertCallText, isPhoneAlertKind, voiceText } from "./voice-scripts.ts";

/** Polly's Indian voice speaks Hindi and Indian English (https://www.twilio.com/docs/voice/twiml/say/text-speech). */
const VOICE = "Polly.Aditi";
const SAY_LANGUAGE: Record<SmsLanguage, string> = { hi: "hi-IN", en: "en-IN" };
/** Seconds the call waits for a key after the script. */
export const GATHER_TIMEOUT_SECONDS = 10;

export const SMS_STATUSES: Record<string, SmsStatus> = {
  accepted: "queued",
  scheduled: "queued",
  queued: "queued",
  sending: "queued",
  sent: "sent",
  delivered: "delivered",
  read: "delivered",
  undelivered: "undelivered",
  failed: "failed",
  canceled: "failed",
};

export const CALL_STATUSES: Record<string, CallStatus> = {
  queued: "queued",
  initiated: "queued",
  ringing: "ringing",
  "in-progress": "answered",
  completed: "completed",
  busy: "busy",
  "no-answer": "noAnswer",
  failed: "failed",
  canceled: "canceled",
};

export function twiml(...verbs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${verbs.join("")}</Response>`;
}

export function say(language: SmsLanguage, text: string): string {
  return `<Say language="${SAY_LANGUAGE[language]}" voice="${VOICE}">${xml(text)}</Say>`;
}

function languageOf(value: string | null): SmsLanguage {
  return value === "en" ? "en" : "hi";
}

export function readTwilioWebhook(kind: WebhookKind, webhook: InboundWebhook): WebhookReading {
  const query = new URL(webhook.url).searchParams;
  const language = languageOf(query.get("lang"));
  const reference = referenceFrom(query.get("ref"), query.get("at"));
  const empty = { status: 204, contentType: null, body: "" } as const;
  const xmlReply = (body: string) => ({ status: 200, contentType: "text/xml; charset=utf-8", body }) as const;
  const need = (...names: string[]): string[] | null => {
    const values = names.map((name) => param(webhook, name));
    return values.every((value): value is string => value !== null && value !== "") ? values : null;
  };
  const event = (value: TelephonyEvent, replayKey: string, reply: WebhookReply): WebhookReading => ({
    ok: true,
    event: value,
    replayKey,
    reply,
  });

  switch (kind) {
    case "voice": {
      const pumpName = query.get("pumpName");
      const alertKind = query.get("kind");
      if (!pumpName) return { ok: false, problem: "the call's URL names no pump" };
      if (!isPhoneAlertKind(alertKind)) return { ok: false, problem: "the call's URL names no alert" };
      const keypress = new URL(webhook.url);
      keypress.pathname = keypress.pathname.replace(/\/voice$/, "/keypress");
      keypress.searchParams.delete("pumpName");
      keypress.searchParams.delete("kind");
      const words = alertCallText(alertKind, language, pumpName).map((text) => say(language, text));
      const gather = `<Gather input="dtmf" numDigits="1" timeout="${GATHER_TIMEOUT_SECONDS}" action="${xml(keypress.toString())}" method="POST">${words.join("")}</Gather>`;
      return {
        ok: true,
        event: null,
        replayKey: null,
        reply: xmlReply(twiml(gather, say(language, voiceText("noKeypress", language, {})))),
      };
    }
    case "keypress": {
      const fields = need("CallSid", "Digits");
      if (!fields) return { ok: false, problem: "CallSid and Digits are required" };
      const [callId, digits] = fields as [string, string];
      if (!/^[0-9*#]{1,8}$/.test(digits)) return { ok: false, problem: "Digits are not keys" };
      // A voice menu's key names the question it answers (menuReply's action URL).
      const menu = query.get("menu");
      const menuStep = menu !== null && /^[0-9]{1,2}$/.test(menu) ? Number(menu) : null;
      return event(
        { type: "keypress", provider: "twilio", callId, digits, reference, menu: menuStep !== null, menuStep },
        `keypress:${callId}:${digits}${menuStep === null ? "" : `:menu${menuStep}`}`,
        xmlReply(twiml(say(language, voiceText("keypressReceived", language, { digit: digits })), "<Hangup/>")),
      );
    }
    case "call-status": {
      const fields = need("CallSid", "CallStatus");
      if (!fields) return { ok: false, problem: "CallSid and CallStatus are required" };
      const [callId, providerStatus] = fields as [string, string];
      const status = CALL_STATUSES[providerStatus];
      if (!status) return { ok: false, problem: `unknown CallStatus ${providerStatus}` };
      const duration = Number(param(webhook, "CallDuration") ?? Number.NaN);
      return event(
        {
          type: "callStatus",
          provider: "twilio",
          callId,
          status,
          durationSeconds: Number.isSafeInteger(duration) && duration >= 0 ? duration : null,
          reference,
        },
        `call:${callId}:${providerStatus}`,
        empty,
      );
    }
    case "sms-status": {
      const fields = need("MessageSid", "MessageStatus");
      if (!fields) return { ok: false, problem: "MessageSid and MessageStatus are required" };
      const [messageId, providerStatus] = fields as [string, string];
      const status = SMS_STATUSES[providerStatus];
      if (!status) return { ok: false, problem: `unknown MessageStatus ${providerStatus}` };
      return event(
        {
          type: "smsStatus",
          provider: "twilio",
          messageId,
          status,
          errorCode: param(webhook, "ErrorCode")?.slice(0, 32) || null,
        },
        `sms:${messageId}:${providerStatus}`,
        empty,
      );
    }
    case "inbound-sms": {
      const fields = need("MessageSid", "From");
      if (!fields) return { ok: false, problem: "MessageSid and From are required" };
      const [messageId, from] = fields as [string, string];
      return event(
        {
          type: "inboundSms",
          provider: "twilio",
          messageId,
          from: caller(from),
          text: (param(webhook, "Body") ?? "").slice(0, 2000),
        },
        `inbound-sms:${messageId}`,
        xmlReply(twiml()),
      );
    }
    case "inbound-call": {
      const fields = need("CallSid", "From");
      if (!fields) return { ok: false, problem: "CallSid and From are required" };
      const [callId, from] = fields as [string, string];
      // Rejected while it rings (the caller pays nothing and hears busy), unless the voice
      // menu answers it: the number's webhook URL says which line it is.
      const reject = xmlReply(twiml('<Reject reason="busy"/>'));
      const line = query.get("line");
      if (line === "menu") {
        return event(
          { type: "menuCall", provider: "twilio", callId, from: caller(from) },
          `menu-call:${callId}`,
          reject,
        );
      }
      return event(
        {
          type: "missedCall",
          provider: "twilio",
          callId,
          from: caller(from),
          line: line === "start" ? "start" : "stop",
        },
        `inbound-call:${callId}`,
        reject,
      );
    }
  }
}
