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
import { isTwilioSignatureValid } from "../../common/twilio-signature.ts";
import { z } from "../../common/zod.ts";
import {
  basicAuthorization,
  type CallRequest,
  e164,
  type InboundWebhook,
  type MenuAnswer,
  type PlacedCall,
  type ProviderRefusal,
  param,
  restPoster,
  type SentSms,
  type SmsRequest,
  type TelephonyProvider,
  type WebhookKind,
  type WebhookReply,
  webhookUrl,
  xml,
} from "./provider.ts";
import { fillSmsTemplate, type SmsLanguage, type SmsTemplateCode } from "./sms-templates.ts";
import {
  CALL_STATUSES,
  GATHER_TIMEOUT_SECONDS,
  readTwilioWebhook,
  SMS_STATUSES,
  say,
  twiml,
} from "./twilio-webhooks.ts";
import { voiceText } from "./voice-scripts.ts";

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

/** The longest a call may last, and how long it rings. */
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

/** What an error answer says. */
function refusalOf(body: unknown): ProviderRefusal {
  const error = errorSchema.safeParse(body);
  if (!error.success) return { code: null, message: null };
  return { code: error.data.code != null ? String(error.data.code) : null, message: error.data.message ?? null };
}

export function twilioProvider(config: TwilioConfig, fetcher: typeof fetch = fetch): TelephonyProvider {
  const accountPath = `${config.apiBase}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}`;
  const webhook = (kind: WebhookKind, query: Record<string, string> = {}) =>
    webhookUrl(config.webhookOrigin, "twilio", kind, query);

  const authorization = basicAuthorization(config.accountSid, config.authToken);
  const post = restPoster("twilio", fetcher, accountPath, authorization, refusalOf);

  return {
    name: "twilio",

    async sendSms<Code extends SmsTemplateCode>(request: SmsRequest<Code>): Promise<SentSms> {
      const sms = fillSmsTemplate(request.template, request.language, request.values);
      const form = new URLSearchParams({ To: e164(request.to), Body: sms.text });
      form.set(config.smsSender.startsWith("MG") ? "MessagingServiceSid" : "From", config.smsSender);
      const reference = request.reference;
      form.set(
        "StatusCallback",
        webhook("sms-status", reference ? { ref: reference.code, at: String(reference.placedAt) } : {}),
      );
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
      // A signature made with our token for another account's resource is still not ours, and
      // every webhook Twilio sends names the account it comes for.
      return signed && param(webhook, "AccountSid") === config.accountSid;
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

    readWebhook: readTwilioWebhook,
  };
}
