// What Twilio's webhooks say, read into our events, and the TwiML that answers them.
import type { CallStatus, SmsStatus } from "../../common/telephony-events.ts";
import {
  type InboundWebhook,
  referenceFrom,
  requiredParams,
  type WebhookKind,
  type WebhookReading,
  xml,
} from "./provider.ts";
import type { SmsLanguage } from "./sms-templates.ts";
import { twilioFieldsProblem } from "./twilio-fields.ts";
import { alertCallText, isPhoneAlertKind, voiceText } from "./voice-scripts.ts";
import { eventReading, type ProviderFields, readSharedWebhook, SHARED_CALL_STATUSES } from "./webhook-readings.ts";

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

export const CALL_STATUSES: Record<string, CallStatus> = { ...SHARED_CALL_STATUSES, initiated: "queued" };

export function twiml(...verbs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${verbs.join("")}</Response>`;
}

export function say(language: SmsLanguage, text: string): string {
  return `<Say language="${SAY_LANGUAGE[language]}" voice="${VOICE}">${xml(text)}</Say>`;
}

function languageOf(value: string | null): SmsLanguage {
  return value === "en" ? "en" : "hi";
}

const FIELDS: ProviderFields = {
  provider: "twilio",
  call: { id: "CallSid", status: "CallStatus", detail: "CallDuration", statuses: CALL_STATUSES },
  caller: ["From"],
  sms: { id: "MessageSid", status: "MessageStatus", detail: "ErrorCode", statuses: SMS_STATUSES },
};

export function readTwilioWebhook(kind: WebhookKind, webhook: InboundWebhook): WebhookReading {
  const problem = twilioFieldsProblem(kind, webhook);
  if (problem) return { ok: false, problem };
  const query = new URL(webhook.url).searchParams;
  const language = languageOf(query.get("lang"));
  const reference = referenceFrom(query.get("ref"), query.get("at"));
  const empty = { status: 204, contentType: null, body: "" } as const;
  const xmlReply = (body: string) => ({ status: 200, contentType: "text/xml; charset=utf-8", body }) as const;

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
      const fields = requiredParams(webhook, "CallSid", "Digits");
      if (!fields) return { ok: false, problem: "CallSid and Digits are required" };
      const [callId, digits] = fields as [string, string];
      if (!/^[0-9*#]{1,8}$/.test(digits)) return { ok: false, problem: "Digits are not keys" };
      // A voice menu's key names the question it answers (menuReply's action URL).
      const menu = query.get("menu");
      const menuStep = menu !== null && /^[0-9]{1,2}$/.test(menu) ? Number(menu) : null;
      return eventReading(
        { type: "keypress", provider: "twilio", callId, digits, reference, menu: menuStep !== null, menuStep },
        `keypress:${callId}:${digits}${menuStep === null ? "" : `:menu${menuStep}`}`,
        xmlReply(twiml(say(language, voiceText("keypressReceived", language, { digit: digits })), "<Hangup/>")),
      );
    }
    case "call-status":
    case "sms-status":
    case "inbound-sms":
      return readSharedWebhook(kind, FIELDS, webhook, reference, kind === "inbound-sms" ? xmlReply(twiml()) : empty);
    case "inbound-call":
      // Rejected while it rings (the caller pays nothing and hears busy), unless the voice
      // menu answers it: the number's webhook URL says which line it is.
      return readSharedWebhook(kind, FIELDS, webhook, reference, xmlReply(twiml('<Reject reason="busy"/>')));
  }
}
