// Which fields a Twilio webhook may carry, and the shape of its ids. Twilio's signature is an
// HMAC of the URL followed by every field's name and value with nothing between them
// (common/twilio-signature.ts), so `CallSid=CA…` + `CallStatus=ringing` signs the same text as
// one field `CallSid=CA…CallStatusringing`. A captured request re-split that way keeps its
// signature; only the fields' own shape tells them apart. So every name must be one Twilio
// documents for that webhook, each at most once, and every id must be an id: `CA`, `SM` or
// `MM` and 32 hex digits (AccountSid `AC`). A moved boundary then breaks a name or an id, and
// the replay key an id makes cannot be varied. A field Twilio adds to its webhooks later is
// refused until it is listed here: the problem the Worker logs names it.
import type { InboundWebhook, WebhookKind } from "./provider.ts";

const hex32 = "[0-9a-f]{32}";
const CALL_SID = new RegExp(`^CA${hex32}$`);
const MESSAGE_SID = new RegExp(`^(SM|MM)${hex32}$`);
const ACCOUNT_SID = new RegExp(`^AC${hex32}$`);
const SERVICE_SID = new RegExp(`^MG${hex32}$`);

/** What a place of a caller or callee adds (https://www.twilio.com/docs/usage/webhooks/voice-webhooks). */
const places = (who: string) => ["City", "State", "Zip", "Country"].map((part) => `${who}${part}`);

/** Every voice request's fields: the call's own, as Twilio's voice webhooks document them. */
const CALL_REQUEST = [
  "AccountSid",
  "ApiVersion",
  "CallSid",
  "ParentCallSid",
  "CallToken",
  "From",
  "To",
  "Called",
  "Caller",
  "CallStatus",
  "Direction",
  "ForwardedFrom",
  "CallerName",
  "StirVerstat",
  "StirPassportToken",
  ...["From", "To", "Called", "Caller"].flatMap(places),
];

/** A call's status callback adds these (https://www.twilio.com/docs/voice/api/call-resource#statuscallback). */
const CALL_STATUS = [
  "CallDuration",
  "Duration",
  "Timestamp",
  "CallbackSource",
  "SequenceNumber",
  "SipResponseCode",
  "RecordingUrl",
  "RecordingSid",
  "RecordingDuration",
  "AnsweredBy",
  "MachineDetectionDuration",
  "ErrorCode",
  "ErrorMessage",
];

/** An SMS's fields, to us and in its status callbacks (https://www.twilio.com/docs/messaging/guides/webhook-request). */
const MESSAGE = [
  "AccountSid",
  "ApiVersion",
  "MessageSid",
  "SmsSid",
  "SmsMessageSid",
  "MessagingServiceSid",
  "From",
  "To",
  "SmsStatus",
  ...["From", "To"].flatMap(places),
];

const INBOUND_SMS = [
  ...MESSAGE,
  "Body",
  "NumMedia",
  "NumSegments",
  "ReferralNumMedia",
  "OptOutType",
  "ProfileName",
  "WaId",
  "Forwarded",
  "FrequentlyForwarded",
  "ButtonText",
  "ButtonPayload",
];

const SMS_STATUS = [
  ...MESSAGE,
  "MessageStatus",
  "ErrorCode",
  "ErrorMessage",
  "RawDlrDoneDate",
  "ChannelToAddress",
  "ChannelPrefix",
  "ChannelInstallSid",
  "StructuredMessage",
];

const ALLOWED: Record<WebhookKind, ReadonlySet<string>> = {
  voice: new Set(CALL_REQUEST),
  "inbound-call": new Set(CALL_REQUEST),
  "call-status": new Set([...CALL_REQUEST, ...CALL_STATUS]),
  keypress: new Set([...CALL_REQUEST, "Digits", "FinishedOnKey", "msg"]),
  "inbound-sms": new Set(INBOUND_SMS),
  "sms-status": new Set(SMS_STATUS),
};

/** An MMS to us names each medium by its index. */
const MEDIA_FIELD = /^Media(Url|ContentType)[0-9]{1,2}$/;

/** The ids whose shape is fixed, and that shape. */
const ID_SHAPES: Record<string, RegExp> = {
  AccountSid: ACCOUNT_SID,
  CallSid: CALL_SID,
  ParentCallSid: CALL_SID,
  MessageSid: MESSAGE_SID,
  SmsSid: MESSAGE_SID,
  SmsMessageSid: MESSAGE_SID,
  MessagingServiceSid: SERVICE_SID,
};

/**
 * Why webhook `kind`'s fields are not Twilio's, or null when they are: a name Twilio does not
 * send there, a name twice, an id of the wrong shape, or no AccountSid.
 */
export function twilioFieldsProblem(kind: WebhookKind, webhook: InboundWebhook): string | null {
  const seen = new Set<string>();
  const allowed = ALLOWED[kind];
  for (const [name, value] of webhook.params) {
    if (seen.has(name)) return `${name} is given twice`;
    seen.add(name);
    if (!allowed.has(name) && !(kind === "inbound-sms" && MEDIA_FIELD.test(name))) {
      return `${name} is not a field of Twilio's ${kind} webhook`;
    }
    const shape = ID_SHAPES[name];
    if (shape && !shape.test(value)) return `${name} is not a Twilio id`;
  }
  if (!seen.has("AccountSid")) return "AccountSid is required";
  return null;
}
