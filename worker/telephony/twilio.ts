// Twilio, through its REST API (2010-04-01) and TwiML. Every format matched here is Twilio's
// documented one, checked in tests/telephony/twilio.test.ts against fixtures of it and
// against the local provider:
// - SMS: POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form fields To, From (or
//   MessagingServiceSid), Body, StatusCallback; 201 with the Message resource as JSON
//   (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource).
// - Calls: POST /2010-04-01/Accounts/{AccountSid}/Calls.json, form fields To, From, Url, Method,
//   StatusCallback, StatusCallbackEvent (repeated), StatusCallbackMethod, Timeout, TimeLimit;
//   201 with the Call resource (https://www.twilio.com/docs/voice/api/call-resource#create-a-call-resource).
// - Errors: 4xx/5xx with JSON {code, message, more_info, status} (https://www.twilio.com/docs/usage/twilios-response).
// - The call speaks TwiML `<Gather numDigits="1">` around `<Say language="hi-IN">`; Twilio posts
//   the key as `Digits` to the Gather's action URL (https://www.twilio.com/docs/voice/twiml/gather).
// - Webhooks are signed: `X-Twilio-Signature` over the URL and sorted form fields
//   (common/twilio-signature.ts). Twilio signs no time, so replays are stopped by their event
//   keys (worker/db/telephony-events.ts).
// India: Twilio takes no DLT fields (it matches the registered templates itself) and supports no
// two-way SMS there, so inbound SMS reach us only from other providers (docs/telephony.md).
import { type CallStatus, caller, type SmsStatus, type TelephonyEvent } from "../../common/telephony-events.ts";
import { isTwilioSignatureValid } from "../../common/twilio-signature.ts";
import { z } from "../../common/zod.ts";
import {
  basicAuthorization,
  type CallRequest,
  e164,
  type InboundWebhook,
  type MenuAnswer,
  type PlacedCall,
  param,
  referenceFrom,
  type SentSms,
  type SmsRequest,
  TelephonyError,
  type TelephonyProvider,
  type WebhookKind,
  type WebhookReading,
  type WebhookReply,
  xml,
} from "./provider.ts";
import { fillSmsTemplate, type SmsLanguage, type SmsTemplateCode } from "./sms-templates.ts";
import { alertCallText, isPhoneAlertKind, voiceText } from "./voice-scripts.ts";

export const TWILIO_API_BASE = "https://api.twilio.com";

export type TwilioConfig = {
  /** AC followed by 32 hex digits. */
  accountSid: string;
  /** The account's Auth Token: the REST API's password and the key of every webhook signature. */
  authToken: string;
  /** What SMS come from: a Twilio number (E.164) or a Messaging Service (MG…). */
  smsSender: string;
  /** The Twilio number calls come from (E.164). */
  callerId: string;
  /** The REST API's origin: TWILIO_API_BASE, or the local provider's in local mode (config.ts). */
  apiBase: string;
  /** This Worker's public origin, where Twilio sends webhooks. */
  webhookOrigin: string;
};

/** Polly's Indian voice speaks Hindi and Indian English (https://www.twilio.com/docs/voice/twiml/say/text-speech). */
const VOICE = "Polly.Aditi";
const SAY_LANGUAGE: Record<SmsLanguage, string> = { hi: "hi-IN", en: "en-IN" };
/** Seconds the call waits for a key after the script, and the longest a call may last. */
const GATHER_TIMEOUT_SECONDS = 10;
const CALL_TIME_LIMIT_SECONDS = 120;
const RING_SECONDS = 30;

const messageResourceSchema = z.object({
  sid: z.string().regex(/^(SM|MM)[0-9a-fA-F]{32}$/),
  status: z.string(),
});
const callResourceSchema = z.object({
  sid: z.string().regex(/^CA[0-9a-fA-F]{32}$/),
  status: z.string(),
});
const errorSchema = z.object({ code: z.number().nullish(), message: z.string().nullish() });

const SMS_STATUSES: Record<string, SmsStatus> = {
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

const CALL_STATUSES: Record<string, CallStatus> = {
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

function twiml(...verbs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${verbs.join("")}</Response>`;
}

function say(language: SmsLanguage, text: string): string {
  return `<Say language="${SAY_LANGUAGE[language]}" voice="${VOICE}">${xml(text)}</Say>`;
}

function languageOf(value: string | null): SmsLanguage {
  return value === "en" ? "en" : "hi";
}

export function twilioProvider(config: TwilioConfig, fetcher: typeof fetch = fetch): TelephonyProvider {
  const accountPath = `${config.apiBase}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}`;
  const webhook = (kind: WebhookKind, query: Record<string, string> = {}) => {
    const url = new URL(`/api/telephony/twilio/${kind}`, config.webhookOrigin);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url.toString();
  };

  async function post<Schema extends z.ZodType>(path: string, form: URLSearchParams, schema: Schema) {
    const response = await fetcher(`${accountPath}/${path}`, {
      method: "POST",
      headers: {
        Authorization: basicAuthorization(config.accountSid, config.authToken),
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: form,
    });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = errorSchema.safeParse(body);
      throw new TelephonyError(
        "twilio",
        response.status,
        error.success && error.data.code != null ? String(error.data.code) : null,
        (error.success && error.data.message) || "the request was refused",
      );
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new TelephonyError("twilio", response.status, null, "an answer of an unknown shape");
    return parsed.data as z.infer<Schema>;
  }

  return {
    name: "twilio",

    async sendSms<Code extends SmsTemplateCode>(request: SmsRequest<Code>): Promise<SentSms> {
      const sms = fillSmsTemplate(request.template, request.language, request.values);
      const form = new URLSearchParams({ To: e164(request.to), Body: sms.text });
      form.set(config.smsSender.startsWith("MG") ? "MessagingServiceSid" : "From", config.smsSender);
      form.set("StatusCallback", webhook("sms-status"));
      const message = await post("Messages.json", form, messageResourceSchema);
      return {
        provider: "twilio",
        messageId: message.sid,
        status: SMS_STATUSES[message.status] ?? "queued",
        segments: sms.segments.segments,
      };
    },

    async placeCall(request: CallRequest): Promise<PlacedCall> {
      const reference = { ref: request.reference.code, at: String(request.reference.placedAt) };
      const form = new URLSearchParams({
        To: e164(request.to),
        From: config.callerId,
        Url: webhook("voice", {
          lang: request.language,
          kind: request.kind,
          pumpName: request.pumpName,
          ...reference,
        }),
        Method: "POST",
        StatusCallback: webhook("call-status", reference),
        StatusCallbackMethod: "POST",
        Timeout: String(RING_SECONDS),
        TimeLimit: String(CALL_TIME_LIMIT_SECONDS),
      });
      for (const event of ["initiated", "ringing", "answered", "completed"]) form.append("StatusCallbackEvent", event);
      const call = await post("Calls.json", form, callResourceSchema);
      return { provider: "twilio", callId: call.sid, status: CALL_STATUSES[call.status] ?? "queued" };
    },

    async verifyWebhook(_kind: WebhookKind, webhook: InboundWebhook): Promise<boolean> {
      const signed = await isTwilioSignatureValid(
        config.authToken,
        webhook.headers.get("X-Twilio-Signature"),
        webhook.url,
        webhook.method === "POST" ? webhook.params : [],
      );
      // A signature made with our token for another account's resource is still not ours.
      const account = param(webhook, "AccountSid");
      return signed && (account === null || account === config.accountSid);
    },

    spokenReply(language: SmsLanguage, text: string): WebhookReply {
      return { status: 200, contentType: "text/xml; charset=utf-8", body: twiml(say(language, text), "<Hangup/>") };
    },

    menuReply(answer: MenuAnswer): WebhookReply {
      const xmlReply = (body: string) => ({ status: 200, contentType: "text/xml; charset=utf-8", body }) as const;
      if (answer.kind === "reject") return xmlReply(twiml('<Reject reason="busy"/>'));
      if (answer.kind === "end") return this.spokenReply(answer.language, answer.text);
      // The key comes back to the keypress webhook with the question it answers, in the signed URL.
      const action = webhook("keypress", { menu: String(answer.step), lang: answer.language });
      const gather = `<Gather input="dtmf" numDigits="1" timeout="${GATHER_TIMEOUT_SECONDS}" action="${xml(action)}" method="POST">${say(answer.language, answer.text)}</Gather>`;
      return xmlReply(twiml(gather, say(answer.language, voiceText("noKeypress", answer.language, {}))));
    },

    readWebhook(kind: WebhookKind, webhook: InboundWebhook): WebhookReading {
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
    },
  };
}
