// What Exotel's webhooks and its call flow's applets say, read into our events.
import { type CallStatus, caller, type SmsStatus, type TelephonyEvent } from "../../common/telephony-events.ts";
import {
  type InboundWebhook,
  param,
  referenceFrom,
  type WebhookKind,
  type WebhookReading,
  type WebhookReply,
} from "./provider.ts";
import type { SmsLanguage } from "./sms-templates.ts";
import { alertCallText, isPhoneAlertKind } from "./voice-scripts.ts";

/** https://developer.exotel.com/docs/sms-support/sms-status-codes */
export const SMS_STATUSES: Record<string, SmsStatus> = {
  queued: "queued",
  sending: "queued",
  submitted: "queued",
  sent: "sent",
  delivered: "delivered",
  failed: "failed",
  expired: "undelivered",
  undelivered: "undelivered",
};

export const CALL_STATUSES: Record<string, CallStatus> = {
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

export function readExotelWebhook(kind: WebhookKind, webhook: InboundWebhook): WebhookReading {
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
}
