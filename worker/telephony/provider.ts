// The one small interface every telephony provider is used through (docs/telephony.md): send an
// SMS from a DLT template, place a call that speaks a script and takes one key, and check and
// read the provider's webhooks. Adapters call the providers' REST APIs with `fetch` (their SDKs
// are written for Node, not Workers) and are plain modules: the Worker, the Node tests and the
// local provider's tests use them alike.

import type { PhoneAlertKind } from "../../common/alert-channels.ts";
import type {
  CallReference,
  CallStatus,
  SmsStatus,
  TelephonyEvent,
  TelephonyProviderName,
} from "../../common/telephony-events.ts";
import type { z } from "../../common/zod.ts";
import type { SmsLanguage, SmsTemplateCode, SmsValues } from "./sms-templates.ts";

export type SmsRequest<Code extends SmsTemplateCode = SmsTemplateCode> = {
  /** A 10-digit Indian mobile number. */
  to: string;
  template: Code;
  language: SmsLanguage;
  values: SmsValues<Code>;
  /** An alert's: what its status callbacks bring back, in the URL we give the provider for them. */
  reference?: CallReference;
};

export type SentSms = {
  provider: TelephonyProviderName;
  messageId: string;
  status: SmsStatus;
  /** SMS the text goes as, by our count (sms-segments.ts). */
  segments: number;
};

/**
 * An alert's call: the kind's opening naming the pump, then the `stopOffer`, whose one key is
 * reported to the keypress webhook (worker/telephony/voice-scripts.ts).
 */
export type CallRequest = {
  to: string;
  language: SmsLanguage;
  kind: PhoneAlertKind;
  pumpName: string;
  reference: CallReference;
};

export type PlacedCall = { provider: TelephonyProviderName; callId: string; status: CallStatus };

/** The webhooks a provider sends us, by the last segment of their path (/api/telephony/<provider>/<kind>). */
export const WEBHOOK_KINDS = ["voice", "keypress", "call-status", "sms-status", "inbound-sms", "inbound-call"] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** A webhook as it arrived: the URL it was sent to, its headers, and its parameters (form body, JSON or query). */
export type InboundWebhook = {
  method: string;
  url: string;
  headers: Headers;
  params: [string, string][];
};

/**
 * What the provider is answered: TwiML, a greeting's text, or nothing. 302 only to Exotel's
 * Passthru applet, whose flow branches on 200 or 302 (docs/telephony.md, "Exotel's call flow").
 */
export type WebhookReply = { status: 200 | 204 | 302; contentType: string | null; body: string };

/**
 * What the voice menu of a call to us answers (worker/phone-control/voice-menu.ts): reject the
 * call while it rings (nobody we know), ask a question and wait for one key (`step`: the keys
 * taken so far, brought back with the key where the provider can), or say something and end.
 */
export type MenuAnswer =
  | { kind: "reject" }
  | { kind: "ask"; language: SmsLanguage; text: string; step: number }
  | { kind: "end"; language: SmsLanguage; text: string };

export type WebhookReading =
  | {
      ok: true;
      /** Null for a webhook that only reads (the call's script). */
      event: TelephonyEvent | null;
      /** What makes a delivery of this event the same event: a replay has the same key. */
      replayKey: string | null;
      reply: WebhookReply;
      /**
       * A webhook that asks what a call's key did (Exotel's closing greeting): the call's id.
       * The route answers it with `spokenReply` from what it recorded (worker/alerts/call-keys.ts).
       */
      outcomeOfCall?: { callId: string; reference: CallReference | null };
      /** A webhook that asks what the voice menu of a call asks now (Exotel's menu greeting): the call's id. */
      promptOfCall?: string;
    }
  | { ok: false; problem: string };

export interface TelephonyProvider {
  readonly name: TelephonyProviderName;
  sendSms<Code extends SmsTemplateCode>(request: SmsRequest<Code>): Promise<SentSms>;
  placeCall(request: CallRequest): Promise<PlacedCall>;
  /** Whether the webhook comes from the provider (a signature, or the secret in its URL). */
  verifyWebhook(kind: WebhookKind, webhook: InboundWebhook): Promise<boolean>;
  /** The event in a verified webhook, its replay key and the answer the provider expects. */
  readWebhook(kind: WebhookKind, webhook: InboundWebhook): WebhookReading;
  /** What a call says next and last, as the provider's answer to its keypress or greeting webhook. */
  spokenReply(language: SmsLanguage, text: string): WebhookReply;
  /**
   * What a call is answered after an event: the voice menu's answer to a call to us
   * (`inbound-call`) or to one of its keys, or (`end`) the words after an alert call's key.
   */
  menuReply(answer: MenuAnswer): WebhookReply;
}

/** A provider's API refused or failed a request: its HTTP status and its own error code. */
export class TelephonyError extends Error {
  readonly provider: TelephonyProviderName;
  readonly status: number;
  readonly providerCode: string | null;

  constructor(provider: TelephonyProviderName, status: number, providerCode: string | null, message: string) {
    super(`${provider} ${status}${providerCode ? ` (${providerCode})` : ""}: ${message}`);
    this.name = "TelephonyError";
    this.provider = provider;
    this.status = status;
    this.providerCode = providerCode;
  }
}

/** A 10-digit number as the providers want it: E.164. */
export function e164(mobileNo: string): string {
  if (!/^[1-9][0-9]{9}$/.test(mobileNo)) throw new Error("Not a 10-digit mobile number.");
  return `+91${mobileNo}`;
}

/** Basic authorization for a provider's REST API. */
export function basicAuthorization(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** What a provider's error answer says: its own code and message, where it gives them. */
export type ProviderRefusal = { code: string | null; message: string | null };

/**
 * How an adapter calls its provider's REST API: a form POSTed below `accountPath` with Basic
 * `authorization`, the JSON answer read by `schema`; a refusal, or an answer of another shape,
 * throws a TelephonyError with what `readRefusal` finds in the error answer.
 */
export function restPoster(
  provider: TelephonyProviderName,
  fetcher: typeof fetch,
  accountPath: string,
  authorization: string,
  readRefusal: (body: unknown) => ProviderRefusal,
) {
  return async function post<Schema extends z.ZodType>(path: string, form: URLSearchParams, schema: Schema) {
    const response = await fetcher(`${accountPath}/${path}`, {
      method: "POST",
      headers: {
        Authorization: authorization,
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: form,
    });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const refusal = readRefusal(body);
      throw new TelephonyError(provider, response.status, refusal.code, refusal.message || "the request was refused");
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new TelephonyError(provider, response.status, null, "an answer of an unknown shape");
    return parsed.data as z.infer<Schema>;
  };
}

/** One of our webhook URLs, as we give it to `provider`, with `query` in it. */
export function webhookUrl(
  origin: string,
  provider: TelephonyProviderName,
  kind: WebhookKind,
  query: Record<string, string> = {},
): string {
  const url = new URL(`/api/telephony/${provider}/${kind}`, origin);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** The first value of a parameter, or null. */
export function param(webhook: InboundWebhook, name: string): string | null {
  return webhook.params.find(([key]) => key === name)?.[1] ?? null;
}

/** The named parameters, each present and not empty, or null. */
export function requiredParams(webhook: InboundWebhook, ...names: string[]): string[] | null {
  const values = names.map((name) => param(webhook, name));
  return values.every((value): value is string => value !== null && value !== "") ? values : null;
}

/** A call's reference as we write it into the URLs we give a provider (`ref`, `at`), or null. */
export function referenceFrom(code: string | null, placedAt: string | null): CallReference | null {
  if (!code || !placedAt || !/^[0-9]{1,15}$/.test(placedAt)) return null;
  if (!/^[A-Za-z0-9:._-]{1,64}$/.test(code)) return null;
  return { code, placedAt: Number(placedAt) };
}

/** XML text and attribute values, escaped. */
export function xml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
