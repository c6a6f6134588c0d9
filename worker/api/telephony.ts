// Webhooks of the telephony provider (docs/telephony.md, "Webhooks"): `GET|POST
// /api/telephony/<provider>/<kind>`, where <kind> is voice, keypress, call-status, sms-status,
// inbound-sms or inbound-call. Only the provider this environment is configured for is served
// (any other path: 404). Each request is checked as its provider authenticates it (Twilio's
// signature, Exotel's secret in the URL) before anything is read: a forged one gets 403 and
// changes nothing. A verified event is recorded once under its replay key
// (worker/db/telephony-events.ts): a replay, or the provider's own retry, is answered the same
// and acted on no more. A new event is then acted on (worker/alerts/call-webhooks.ts): an alert
// call's status (and the SMS after one nobody answered), an SMS's status, the stop key, and a
// farmer's SMS command, missed call and voice menu (worker/phone-control/). The answer is what
// the provider expects (TwiML, a greeting's text, a Passthru's 200 or 302, or nothing), never the
// API's JSON, except for refusals; after a key it says what the box confirmed.
//
// Providers send no Origin and no cookies, so the cross-site check lets them through
// (worker/http/cross-site.ts); nothing here trusts a session.
import { type Context, Hono } from "hono";
import { TELEPHONY_PROVIDERS, type TelephonyProviderName } from "../../common/telephony-events.ts";
import { onTelephonyEvent, outcomeOfCall } from "../alerts/call-webhooks.ts";
import { getDb } from "../db/client.ts";
import { recordTelephonyEvent } from "../db/telephony-events.ts";
import { apiError } from "../http/http-error.ts";
import { menuWordsOf } from "../phone-control/voice-menu.ts";
import { telephonyProvider } from "../telephony/config.ts";
import { type InboundWebhook, WEBHOOK_KINDS, type WebhookKind } from "../telephony/provider.ts";
import type { ApiEnv } from "./context.ts";

/** No provider's webhook comes near this; a bigger body is refused unread. */
const MAX_WEBHOOK_BYTES = 16 * 1024;

function isProvider(value: string): value is TelephonyProviderName {
  return (TELEPHONY_PROVIDERS as readonly string[]).includes(value);
}

function isKind(value: string): value is WebhookKind {
  return (WEBHOOK_KINDS as readonly string[]).includes(value);
}

/** The form fields (or JSON members) of a POST, as strings; the query's parameters of anything else. */
async function webhookOf(c: Context<ApiEnv>): Promise<InboundWebhook> {
  const request = c.req.raw;
  const url = new URL(request.url);
  if (request.method !== "POST") {
    return { method: request.method, url: request.url, headers: request.headers, params: [...url.searchParams] };
  }
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_WEBHOOK_BYTES) throw apiError(413, "bodyTooLarge");
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > MAX_WEBHOOK_BYTES) throw apiError(413, "bodyTooLarge");
  const text = new TextDecoder().decode(bytes);
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  let params: [string, string][] = [];
  if (type === "application/json") {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw apiError(400, "invalidJson");
    }
    if (json !== null && typeof json === "object" && !Array.isArray(json)) {
      params = Object.entries(json).flatMap(([name, value]) =>
        typeof value === "string" || typeof value === "number" || typeof value === "boolean"
          ? [[name, String(value)] as [string, string]]
          : [],
      );
    }
  } else if (type === "multipart/form-data") {
    try {
      const form = await new Request(request.url, { method: "POST", headers: request.headers, body: bytes }).formData();
      params = [...form].flatMap(([name, value]) =>
        typeof value === "string" ? [[name, value] as [string, string]] : [],
      );
    } catch {
      throw apiError(400, "invalidInput", { field: "", detail: "The form could not be read." });
    }
  } else {
    params = [...new URLSearchParams(text)];
  }
  return { method: request.method, url: request.url, headers: request.headers, params };
}

export const telephonyRoutes = new Hono<ApiEnv>().on(["GET", "POST"], "/:provider/:kind", async (c) => {
  const { provider: providerName, kind } = c.req.param();
  if (!isProvider(providerName) || !isKind(kind) || providerName !== c.env.TELEPHONY_PROVIDER) {
    throw apiError(404, "notFound");
  }
  const configured = telephonyProvider(c.env);
  if (!configured.ok) {
    console.error(`Telephony webhooks are off: ${configured.problem}`);
    throw apiError(404, "notFound");
  }
  const { provider } = configured;
  const webhook = await webhookOf(c);
  if (!(await provider.verifyWebhook(kind, webhook))) throw apiError(403, "forbidden");
  const reading = provider.readWebhook(kind, webhook);
  if (!reading.ok)
    throw apiError(400, "invalidInput", { field: "", detail: `Webhook not understood: ${reading.problem}.` });
  let { reply } = reading;
  // Exotel asks with HEAD before the greeting's GET; only a GET or POST delivers an event.
  if (reading.event && reading.replayKey && c.req.method !== "HEAD") {
    // A replayed key is not new: it is answered alike and reaches no handler.
    if (await recordTelephonyEvent(getDb(c.env.DB), reading.event, reading.replayKey)) {
      const answer = await onTelephonyEvent(c.env, reading.event);
      if (answer) reply = provider.menuReply(answer);
    }
  }
  if (reading.outcomeOfCall) {
    const words = await outcomeOfCall(c.env, providerName, reading.outcomeOfCall);
    if (words) reply = provider.spokenReply(words.language, words.text);
  }
  if (reading.promptOfCall) {
    const words = await menuWordsOf(c.env, providerName, reading.promptOfCall, "prompt");
    if (words) reply = provider.spokenReply(words.language, words.text);
  }
  return new Response(reply.body === "" ? null : reply.body, {
    status: reply.status,
    headers: reply.contentType ? { "Content-Type": reply.contentType } : {},
  });
});
