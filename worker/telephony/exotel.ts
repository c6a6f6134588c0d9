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
import { z } from "../../common/zod.ts";
import { CALL_STATUSES, readExotelWebhook, SMS_STATUSES } from "./exotel-webhooks.ts";
import {
  basicAuthorization,
  type CallRequest,
  e164,
  type InboundWebhook,
  type MenuAnswer,
  type PlacedCall,
  type ProviderRefusal,
  restPoster,
  type SentSms,
  type SmsRequest,
  type TelephonyProvider,
  type WebhookKind,
  type WebhookReply,
  webhookUrl,
} from "./provider.ts";
import { fillSmsTemplate, type SmsLanguage, type SmsTemplateCode, templateIdKey } from "./sms-templates.ts";

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

const encoder = new TextEncoder();

/** What an error answer says. */
function refusalOf(body: unknown): ProviderRefusal {
  const error = errorSchema.safeParse(body);
  const detail = error.success ? error.data.RestException : null;
  return { code: detail?.Code != null ? String(detail.Code) : null, message: detail?.Message ?? null };
}

export function exotelProvider(config: ExotelConfig, fetcher: typeof fetch = fetch): TelephonyProvider {
  const accountPath = `${config.apiBase}/v1/Accounts/${encodeURIComponent(config.accountSid)}`;
  const webhook = (kind: WebhookKind, query: Record<string, string> = {}) =>
    webhookUrl(config.webhookOrigin, "exotel", kind, { token: config.webhookSecret, ...query });

  const authorization = basicAuthorization(config.apiKey, config.apiToken);
  const post = restPoster("exotel", fetcher, accountPath, authorization, refusalOf);

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
        // An alert's SMS: its reference comes back in the URL, as an SMS has no CustomField.
        StatusCallback: webhook(
          "sms-status",
          request.reference ? { ref: request.reference.code, at: String(request.reference.placedAt) } : {},
        ),
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

    readWebhook: readExotelWebhook,
  };
}
