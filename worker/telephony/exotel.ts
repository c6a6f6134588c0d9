// Exotel, the Indian provider, through its v1 REST API and a call flow built once in its
// dashboard. Formats matched here, each from Exotel's documentation and checked in
// tests/telephony/exotel.test.ts against fixtures of it and against the local provider:
// - SMS: POST /v1/Accounts/{sid}/Sms/send.json, form fields From (the DLT sender id), To, Body,
//   EncodingType (plain or unicode), DltEntityId, DltTemplateId, SmsType, StatusCallback; the
//   answer {"SMSMessage": {"Sid", "Status", ...}}
//   (https://developer.exotel.com/docs/sms-api/api-reference/send-sms, .../sms-details).
// - Calls: POST /v1/Accounts/{sid}/Calls/connect.json, form fields From (the farmer, called
//   first), CallerId (our ExoPhone), Url (the call flow, http://my.exotel.com/{sid}/exoml/
//   start_voice/{app_id}), CallType=trans, TimeLimit, TimeOut, StatusCallback,
//   StatusCallbackEvents[], CustomField; the answer {"Call": {"Sid", "Status", ...}}
//   (https://developer.exotel.com/docs/voice-v1/api-reference/outgoing-call-to-flow).
// - Errors: {"RestException": {"Status", "Message", "Code"}}
//   (https://developer.exotel.com/docs/sms-support/sms-api-errors).
// - The flow (docs/telephony.md, "Exotel's call flow"): a Greeting applet reads its text from our
//   `voice` URL (a GET with CallSid, From, To and CustomField, answered in text/plain; Exotel
//   first sends a HEAD), a Gather applet takes one key, a Passthru applet reports it to our
//   `keypress` URL (a GET whose `digits` come wrapped in double quotes)
//   (support.exotel.com articles 48285 "Greeting using text from URL", 48283 "Working with
//   Passthru applet", 3000084635 "Working with Gather applet").
// - Status callbacks: a POST with CallSid, Status, DateUpdated (and with StatusCallbackEvents,
//   EventType, ConversationDuration, CustomField) (https://developer.exotel.com/docs/voice-v1/
//   api-reference/status-callback); an SMS's with SmsSid, Status, DetailedStatusCode.
// Exotel signs no webhook (none of its documentation describes a signature). What stands in for
// one: every URL we give Exotel carries our secret, `token` (TELEPHONY_WEBHOOK_SECRET, 32+
// random bytes), compared in constant time; only HTTPS URLs are given out, so the secret
// travels encrypted; and replays are stopped by their event keys (worker/db/telephony-events.ts).
// Where Exotel's own source addresses are published, a Cloudflare WAF rule can add them
// (docs/operations.md).
import { constantTimeEqual } from "../../common/credentials.ts";
import { type CallStatus, caller, type SmsStatus, type TelephonyEvent } from "../../common/telephony-events.ts";
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
} from "./provider.ts";
import { fillSmsTemplate, type SmsLanguage, type SmsTemplateCode, templateIdKey } from "./sms-templates.ts";
import { alertCallText, isPhoneAlertKind } from "./voice-scripts.ts";

/** Exotel's two clusters; an account lives in one (https://developer.exotel.com/docs/references/authentication). */
export const EXOTEL_API_HOSTS = ["api.in.exotel.com", "api.exotel.com"] as const;

export type ExotelConfig = {
  accountSid: string;
  /** The API key and token: Basic authorization's user and password. */
  apiKey: string;
  apiToken: string;
  /** The secret in every webhook URL we give Exotel. */
  webhookSecret: string;
  /** The DLT-registered sender id (header), e.g. SINCHI. */
  smsSender: string;
  /** The ExoPhone calls come from. */
  callerId: string;
  /** The id of the call flow (App Bazaar → My Apps) that speaks our text and takes one key. */
  callFlowId: string;
  /** The principal entity's DLT id and every template's, by "<code>.<language>". */
  dltEntityId: string;
  dltTemplateIds: Readonly<Record<string, string>>;
  /** The REST API's origin: https://api.in.exotel.com, or the local provider's in local mode. */
  apiBase: string;
  /** This Worker's public origin, where Exotel sends webhooks. */
  webhookOrigin: string;
};

const CALL_TIME_LIMIT_SECONDS = 120;
const RING_SECONDS = 30;

const smsAnswerSchema = z.object({ SMSMessage: z.object({ Sid: z.string().min(1).max(64), Status: z.string() }) });
const callAnswerSchema = z.object({ Call: z.object({ Sid: z.string().min(1).max(64), Status: z.string() }) });
const errorSchema = z.object({
  RestException: z.object({ Message: z.string().nullish(), Code: z.union([z.string(), z.number()]).nullish() }),
});

/** https://developer.exotel.com/docs/sms-support/sms-status-codes */
const SMS_STATUSES: Record<string, SmsStatus> = {
  queued: "queued",
  sending: "queued",
  submitted: "queued",
  sent: "sent",
  delivered: "delivered",
  failed: "failed",
  expired: "undelivered",
  undelivered: "undelivered",
};

const CALL_STATUSES: Record<string, CallStatus> = {
  queued: "queued",
  ringing: "ringing",
  "in-progress": "answered",
  completed: "completed",
  busy: "busy",
  "no-answer": "noAnswer",
  failed: "failed",
  canceled: "canceled",
};

/** What we give a call in `CustomField` and get back in each of its webhooks. */
type CallContext = {
  language: SmsLanguage;
  kind: string | null;
  pumpName: string | null;
  ref: string | null;
  at: string | null;
};

function callContext(customField: string | null): CallContext {
  const fields = new URLSearchParams(customField ?? "");
  return {
    language: fields.get("lang") === "en" ? "en" : "hi",
    kind: fields.get("kind"),
    pumpName: fields.get("pumpName"),
    ref: fields.get("ref"),
    at: fields.get("at"),
  };
}

const encoder = new TextEncoder();

export function exotelProvider(config: ExotelConfig, fetcher: typeof fetch = fetch): TelephonyProvider {
  const accountPath = `${config.apiBase}/v1/Accounts/${encodeURIComponent(config.accountSid)}`;
  const webhook = (kind: WebhookKind) => {
    const url = new URL(`/api/telephony/exotel/${kind}`, config.webhookOrigin);
    url.searchParams.set("token", config.webhookSecret);
    return url.toString();
  };

  async function post<Schema extends z.ZodType>(path: string, form: URLSearchParams, schema: Schema) {
    const response = await fetcher(`${accountPath}/${path}`, {
      method: "POST",
      headers: {
        Authorization: basicAuthorization(config.apiKey, config.apiToken),
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: form,
    });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = errorSchema.safeParse(body);
      const detail = error.success ? error.data.RestException : null;
      throw new TelephonyError(
        "exotel",
        response.status,
        detail?.Code != null ? String(detail.Code) : null,
        detail?.Message || "the request was refused",
      );
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new TelephonyError("exotel", response.status, null, "an answer of an unknown shape");
    return parsed.data as z.infer<Schema>;
  }

  return {
    name: "exotel",

    async sendSms<Code extends SmsTemplateCode>(request: SmsRequest<Code>): Promise<SentSms> {
      const sms = fillSmsTemplate(request.template, request.language, request.values);
      const templateId = config.dltTemplateIds[templateIdKey(request.template, request.language)];
      if (!templateId) throw new Error(`No DLT template id for ${templateIdKey(request.template, request.language)}.`);
      const form = new URLSearchParams({
        From: config.smsSender,
        To: e164(request.to),
        Body: sms.text,
        EncodingType: sms.segments.encoding === "ucs2" ? "unicode" : "plain",
        DltEntityId: config.dltEntityId,
        DltTemplateId: templateId,
        SmsType: "transactional",
        StatusCallback: webhook("sms-status"),
      });
      const { SMSMessage: message } = await post("Sms/send.json", form, smsAnswerSchema);
      return {
        provider: "exotel",
        messageId: message.Sid,
        status: SMS_STATUSES[message.Status] ?? "queued",
        segments: sms.segments.segments,
      };
    },

    async placeCall(request: CallRequest): Promise<PlacedCall> {
      const context = new URLSearchParams({
        lang: request.language,
        kind: request.kind,
        pumpName: request.pumpName,
        ref: request.reference.code,
        at: String(request.reference.placedAt),
      });
      const form = new URLSearchParams({
        From: e164(request.to),
        CallerId: config.callerId,
        Url: `http://my.exotel.com/${encodeURIComponent(config.accountSid)}/exoml/start_voice/${encodeURIComponent(config.callFlowId)}`,
        CallType: "trans",
        TimeLimit: String(CALL_TIME_LIMIT_SECONDS),
        TimeOut: String(RING_SECONDS),
        StatusCallback: webhook("call-status"),
        CustomField: context.toString(),
      });
      for (const event of ["answered", "terminal"]) form.append("StatusCallbackEvents[]", event);
      const { Call: call } = await post("Calls/connect.json", form, callAnswerSchema);
      return { provider: "exotel", callId: call.Sid, status: CALL_STATUSES[call.Status] ?? "queued" };
    },

    async verifyWebhook(_kind: WebhookKind, webhook: InboundWebhook): Promise<boolean> {
      const token = new URL(webhook.url).searchParams.get("token");
      if (!token || config.webhookSecret.length < 32) return false;
      return constantTimeEqual(encoder.encode(token), encoder.encode(config.webhookSecret));
    },

    spokenReply(_language: SmsLanguage, text: string): WebhookReply {
      return { status: 200, contentType: "text/plain; charset=utf-8", body: text };
    },

    // The menu's flow (docs/telephony.md, "Exotel's call flow") branches on its Passthru applets'
    // status: 302 asks (to the greeting that reads `voice?step=prompt`, then a Gather), 200 does
    // not (from the first Passthru: hang up; after a key: the greeting reads `voice?step=outcome`).
    menuReply(answer: MenuAnswer): WebhookReply {
      if (answer.kind === "ask") return { status: 302, contentType: "text/plain; charset=utf-8", body: "" };
      return { status: 200, contentType: "text/plain; charset=utf-8", body: answer.kind === "end" ? answer.text : "" };
    },

    readWebhook(kind: WebhookKind, webhook: InboundWebhook): WebhookReading {
      const context = callContext(param(webhook, "CustomField"));
      const reference = referenceFrom(context.ref, context.at);
      const ok: WebhookReply = { status: 200, contentType: "text/plain; charset=utf-8", body: "" };
      const need = (...names: string[]): string[] | null => {
        const values = names.map((name) => param(webhook, name));
        return values.every((value): value is string => value !== null && value !== "") ? values : null;
      };
      const event = (value: TelephonyEvent, replayKey: string): WebhookReading => ({
        ok: true,
        event: value,
        replayKey,
        reply: ok,
      });

      switch (kind) {
        case "voice": {
          // The flow's closing greeting reads what the key did from the same URL with step=outcome;
          // the voice menu's greeting reads its question with step=prompt.
          const step = new URL(webhook.url).searchParams.get("step");
          if (step === "outcome" || step === "prompt") {
            const callId = param(webhook, "CallSid");
            if (!callId) return { ok: false, problem: "CallSid is required" };
            const asks = step === "outcome" ? { outcomeOfCall: callId } : { promptOfCall: callId };
            return { ok: true, event: null, replayKey: null, reply: ok, ...asks };
          }
          if (!context.pumpName) return { ok: false, problem: "the call's CustomField names no pump" };
          if (!isPhoneAlertKind(context.kind)) return { ok: false, problem: "the call's CustomField names no alert" };
          const text = alertCallText(context.kind, context.language, context.pumpName).join(" ");
          return { ok: true, event: null, replayKey: null, reply: { ...ok, body: text } };
        }
        case "keypress": {
          const fields = need("CallSid", "digits");
          if (!fields) return { ok: false, problem: "CallSid and digits are required" };
          const [callId, quoted] = fields as [string, string];
          // Exotel wraps the gathered digits in double quotes ("1").
          const digits = quoted.replace(/^"|"$/g, "");
          if (!/^[0-9*#]{1,8}$/.test(digits)) return { ok: false, problem: "digits are not keys" };
          // The voice menu's Passthru URL carries menu=1. Its flow cannot bring back which question
          // a key answers, and the same key may answer two: Exotel's CurrentTime tells them apart.
          if (new URL(webhook.url).searchParams.has("menu")) {
            const at = (param(webhook, "CurrentTime") ?? "").slice(0, 32);
            return event(
              { type: "keypress", provider: "exotel", callId, digits, reference, menu: true, menuStep: null },
              `keypress:${callId}:${digits}:${at}`,
            );
          }
          return event(
            { type: "keypress", provider: "exotel", callId, digits, reference, menu: false, menuStep: null },
            `keypress:${callId}:${digits}`,
          );
        }
        case "call-status": {
          const fields = need("CallSid", "Status");
          if (!fields) return { ok: false, problem: "CallSid and Status are required" };
          const [callId, providerStatus] = fields as [string, string];
          const status = CALL_STATUSES[providerStatus];
          if (!status) return { ok: false, problem: `unknown Status ${providerStatus}` };
          const duration = Number(param(webhook, "ConversationDuration") ?? Number.NaN);
          return event(
            {
              type: "callStatus",
              provider: "exotel",
              callId,
              status,
              durationSeconds: Number.isSafeInteger(duration) && duration >= 0 ? duration : null,
              reference,
            },
            `call:${callId}:${providerStatus}`,
          );
        }
        case "sms-status": {
          const fields = need("SmsSid", "Status");
          if (!fields) return { ok: false, problem: "SmsSid and Status are required" };
          const [messageId, providerStatus] = fields as [string, string];
          const status = SMS_STATUSES[providerStatus];
          if (!status) return { ok: false, problem: `unknown Status ${providerStatus}` };
          return event(
            {
              type: "smsStatus",
              provider: "exotel",
              messageId,
              status,
              errorCode: param(webhook, "DetailedStatusCode")?.slice(0, 32) || null,
            },
            `sms:${messageId}:${providerStatus}`,
          );
        }
        case "inbound-sms": {
          const fields = need("SmsSid", "From");
          if (!fields) return { ok: false, problem: "SmsSid and From are required" };
          const [messageId, from] = fields as [string, string];
          return event(
            {
              type: "inboundSms",
              provider: "exotel",
              messageId,
              from: caller(from),
              text: (param(webhook, "Body") ?? "").slice(0, 2000),
            },
            `inbound-sms:${messageId}`,
          );
        }
        case "inbound-call": {
          const callId = param(webhook, "CallSid");
          // The Passthru applet names the caller CallFrom (From in its older form).
          const from = param(webhook, "CallFrom") || param(webhook, "From");
          if (!callId || !from) return { ok: false, problem: "CallSid and CallFrom are required" };
          // Which of our numbers was called: its flow's Passthru URL says (line=menu, start, or stop).
          const line = new URL(webhook.url).searchParams.get("line");
          if (line === "menu") {
            return event({ type: "menuCall", provider: "exotel", callId, from: caller(from) }, `menu-call:${callId}`);
          }
          return event(
            {
              type: "missedCall",
              provider: "exotel",
              callId,
              from: caller(from),
              line: line === "start" ? "start" : "stop",
            },
            `inbound-call:${callId}`,
          );
        }
      }
    },
  };
}
