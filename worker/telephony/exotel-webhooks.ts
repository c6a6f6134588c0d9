// What Exotel's webhooks and its call flow's applets say, read into our events.
import type { CallStatus, SmsStatus } from "../../common/telephony-events.ts";
import {
  type InboundWebhook,
  param,
  referenceFrom,
  requiredParams,
  type WebhookKind,
  type WebhookReading,
  type WebhookReply,
} from "./provider.ts";
import type { SmsLanguage } from "./sms-templates.ts";
import { alertCallText, isPhoneAlertKind } from "./voice-scripts.ts";
import { eventReading, type ProviderFields, readSharedWebhook, SHARED_CALL_STATUSES } from "./webhook-readings.ts";

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

export const CALL_STATUSES: Record<string, CallStatus> = { ...SHARED_CALL_STATUSES };

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

const FIELDS: ProviderFields = {
  provider: "exotel",
  call: { id: "CallSid", status: "Status", detail: "ConversationDuration", statuses: CALL_STATUSES },
  // The Passthru applet names the caller CallFrom (From in its older form).
  caller: ["CallFrom", "From"],
  sms: { id: "SmsSid", status: "Status", detail: "DetailedStatusCode", statuses: SMS_STATUSES },
};

export function readExotelWebhook(kind: WebhookKind, webhook: InboundWebhook): WebhookReading {
  const context = callContext(param(webhook, "CustomField"));
  const reference = referenceFrom(context.ref, context.at);
  const ok: WebhookReply = { status: 200, contentType: "text/plain; charset=utf-8", body: "" };

  switch (kind) {
    case "voice": {
      // The flow's closing greeting reads what the key did from the same URL with step=outcome;
      // the voice menu's greeting reads its question with step=prompt.
      const step = new URL(webhook.url).searchParams.get("step");
      if (step === "outcome" || step === "prompt") {
        const callId = param(webhook, "CallSid");
        if (!callId) return { ok: false, problem: "CallSid is required" };
        const asks = step === "outcome" ? { outcomeOfCall: { callId, reference } } : { promptOfCall: callId };
        return { ok: true, event: null, replayKey: null, reply: ok, ...asks };
      }
      if (!context.pumpName) return { ok: false, problem: "the call's CustomField names no pump" };
      if (!isPhoneAlertKind(context.kind)) return { ok: false, problem: "the call's CustomField names no alert" };
      const text = alertCallText(context.kind, context.language, context.pumpName).join(" ");
      return { ok: true, event: null, replayKey: null, reply: { ...ok, body: text } };
    }
    case "keypress": {
      const fields = requiredParams(webhook, "CallSid", "digits");
      if (!fields) return { ok: false, problem: "CallSid and digits are required" };
      const [callId, quoted] = fields as [string, string];
      // Exotel wraps the gathered digits in double quotes ("1").
      const digits = quoted.replace(/^"|"$/g, "");
      if (!/^[0-9*#]{1,8}$/.test(digits)) return { ok: false, problem: "digits are not keys" };
      // The voice menu's Passthru URL carries menu=1. Its flow cannot bring back which question
      // a key answers, and the same key may answer two: Exotel's CurrentTime tells them apart.
      if (new URL(webhook.url).searchParams.has("menu")) {
        const at = (param(webhook, "CurrentTime") ?? "").slice(0, 32);
        return eventReading(
          { type: "keypress", provider: "exotel", callId, digits, reference, menu: true, menuStep: null },
          `keypress:${callId}:${digits}:${at}`,
          ok,
        );
      }
      return eventReading(
        { type: "keypress", provider: "exotel", callId, digits, reference, menu: false, menuStep: null },
        `keypress:${callId}:${digits}`,
        ok,
      );
    }
    case "sms-status": {
      // An SMS has no CustomField: an alert's reference is in the status callback's URL.
      const query = new URL(webhook.url).searchParams;
      return readSharedWebhook(kind, FIELDS, webhook, referenceFrom(query.get("ref"), query.get("at")), ok);
    }
    case "call-status":
    case "inbound-sms":
    // Which of our numbers was called: its flow's Passthru URL says (line=menu, start, or stop).
    case "inbound-call":
      return readSharedWebhook(kind, FIELDS, webhook, reference, ok);
  }
}
