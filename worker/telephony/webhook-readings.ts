// What every provider's webhooks carry alike, read once: a call's progress, an SMS's delivery,
// an SMS to us and a call to us. Each adapter names its own fields and answers its own way.
import {
  type CallReference,
  type CallStatus,
  caller,
  type SmsStatus,
  type TelephonyEvent,
  type TelephonyProviderName,
} from "../../common/telephony-events.ts";
import { type InboundWebhook, param, requiredParams, type WebhookReading, type WebhookReply } from "./provider.ts";

/** The words for a call's status that Twilio's call resource and Exotel's (modelled on it) share. */
export const SHARED_CALL_STATUSES: Readonly<Record<string, CallStatus>> = {
  queued: "queued",
  ringing: "ringing",
  "in-progress": "answered",
  completed: "completed",
  busy: "busy",
  "no-answer": "noAnswer",
  failed: "failed",
  canceled: "canceled",
};

/** A webhook that brings an event: its replay key and what the provider is answered. */
export function eventReading(event: TelephonyEvent, replayKey: string, reply: WebhookReply): WebhookReading {
  return { ok: true, event, replayKey, reply };
}

/** How a provider names a status callback's fields, and what its statuses are to us. */
type StatusFields<Status> = {
  id: string;
  status: string;
  /** The field with a call's seconds answered, or an SMS's error code. */
  detail: string;
  statuses: Readonly<Record<string, Status>>;
};

/** A provider's status callbacks; an SMS or a call to us has the same id field as their status callbacks. */
export type ProviderFields = {
  provider: TelephonyProviderName;
  call: StatusFields<CallStatus>;
  sms: StatusFields<SmsStatus>;
  /** Where a call to us names the caller: the first of these fields that is not empty. */
  caller: readonly string[];
};

type StatusCallback<Status> = { id: string; providerStatus: string; status: Status; detail: string | null };

function readStatus<Status>(webhook: InboundWebhook, fields: StatusFields<Status>): StatusCallback<Status> | string {
  const values = requiredParams(webhook, fields.id, fields.status);
  if (!values) return `${fields.id} and ${fields.status} are required`;
  const [id, providerStatus] = values as [string, string];
  const status = fields.statuses[providerStatus];
  if (!status) return `unknown ${fields.status} ${providerStatus}`;
  return { id, providerStatus, status, detail: param(webhook, fields.detail) };
}

/** The webhooks every provider sends alike: a call's progress, an SMS's delivery, an SMS or a call to us. */
export function readSharedWebhook(
  kind: "call-status" | "sms-status" | "inbound-sms" | "inbound-call",
  fields: ProviderFields,
  webhook: InboundWebhook,
  reference: CallReference | null,
  reply: WebhookReply,
): WebhookReading {
  if (kind === "call-status") return callStatusReading(fields, webhook, reference, reply);
  if (kind === "sms-status") return smsStatusReading(fields, webhook, reference, reply);
  if (kind === "inbound-sms") return inboundSmsReading(fields, webhook, reply);
  return inboundCallReading(fields, webhook, reply);
}

function callStatusReading(
  fields: ProviderFields,
  webhook: InboundWebhook,
  reference: CallReference | null,
  reply: WebhookReply,
): WebhookReading {
  const read = readStatus(webhook, fields.call);
  if (typeof read === "string") return { ok: false, problem: read };
  const duration = Number(read.detail ?? Number.NaN);
  const durationSeconds = Number.isSafeInteger(duration) && duration >= 0 ? duration : null;
  const { provider } = fields;
  const event: TelephonyEvent = {
    type: "callStatus",
    provider,
    callId: read.id,
    status: read.status,
    durationSeconds,
    reference,
  };
  return eventReading(event, `call:${read.id}:${read.providerStatus}`, reply);
}

function smsStatusReading(
  fields: ProviderFields,
  webhook: InboundWebhook,
  reference: CallReference | null,
  reply: WebhookReply,
): WebhookReading {
  const read = readStatus(webhook, fields.sms);
  if (typeof read === "string") return { ok: false, problem: read };
  const errorCode = read.detail?.slice(0, 32) || null;
  const event: TelephonyEvent = {
    type: "smsStatus",
    provider: fields.provider,
    messageId: read.id,
    status: read.status,
    errorCode,
    reference,
  };
  return eventReading(event, `sms:${read.id}:${read.providerStatus}`, reply);
}

/** `From` and `Body` for every provider. */
function inboundSmsReading(fields: ProviderFields, webhook: InboundWebhook, reply: WebhookReply): WebhookReading {
  const values = requiredParams(webhook, fields.sms.id, "From");
  if (!values) return { ok: false, problem: `${fields.sms.id} and From are required` };
  const [messageId, from] = values as [string, string];
  const text = (param(webhook, "Body") ?? "").slice(0, 2000);
  const event = { type: "inboundSms", provider: fields.provider, messageId, from: caller(from), text } as const;
  return eventReading(event, `inbound-sms:${messageId}`, reply);
}

/**
 * A call to one of our numbers: the voice menu's (`line=menu` in the URL the provider was given
 * for that number), or a missed call to the start or (any other line) the stop number.
 */
function inboundCallReading(fields: ProviderFields, webhook: InboundWebhook, reply: WebhookReply): WebhookReading {
  const callId = param(webhook, fields.call.id);
  const from = fields.caller.map((name) => param(webhook, name)).find(Boolean);
  if (!callId || !from) return { ok: false, problem: `${fields.call.id} and ${fields.caller[0]} are required` };
  const { provider } = fields;
  const line = new URL(webhook.url).searchParams.get("line");
  if (line === "menu") {
    return eventReading({ type: "menuCall", provider, callId, from: caller(from) }, `menu-call:${callId}`, reply);
  }
  return eventReading(
    { type: "missedCall", provider, callId, from: caller(from), line: line === "start" ? "start" : "stop" },
    `inbound-call:${callId}`,
    reply,
  );
}
