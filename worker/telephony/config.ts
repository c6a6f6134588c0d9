// The environment's telephony provider, from `wrangler.toml` vars and its two secrets
// (docs/telephony.md, "Configuration"). The provider and its numbers are chosen per environment;
// the REST API's host is one the provider publishes, never anything else, except in local mode:
// there TELEPHONY_LOCAL_URL points both adapters at the local provider (telephony-sim/), and only
// a loopback address is accepted (a deployed Worker could not reach one anyway). Staging and
// production leave it empty (tests/scripts/telephony-config.test.ts).
import { type TelephonyProviderName, telephonyProviderSchema } from "../../common/telephony-events.ts";
import { z } from "../../common/zod.ts";
import { EXOTEL_API_HOSTS, exotelProvider } from "./exotel.ts";
import type { TelephonyProvider } from "./provider.ts";
import { TWILIO_API_BASE, twilioProvider } from "./twilio.ts";

export type TelephonyEnv = Pick<
  Env,
  | "TELEPHONY_PROVIDER"
  | "TELEPHONY_ACCOUNT_SID"
  | "TELEPHONY_API_KEY"
  | "TELEPHONY_API_TOKEN"
  | "TELEPHONY_API_HOST"
  | "TELEPHONY_WEBHOOK_SECRET"
  | "TELEPHONY_WEBHOOK_ORIGIN"
  | "TELEPHONY_SMS_SENDER"
  | "TELEPHONY_CALLER_ID"
  | "TELEPHONY_CALL_FLOW"
  | "TELEPHONY_DLT_ENTITY_ID"
  | "TELEPHONY_DLT_TEMPLATES"
  | "TELEPHONY_LOCAL_URL"
>;

const HOSTS: Record<TelephonyProviderName, readonly string[]> = {
  twilio: [new URL(TWILIO_API_BASE).host],
  exotel: EXOTEL_API_HOSTS,
};

/** The local provider's address: loopback over plain HTTP, with a port. */
export function isLocalProviderUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      url.protocol === "http:" &&
      ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) &&
      url.port !== "" &&
      url.pathname === "/" &&
      url.search === "" &&
      url.username === "" &&
      url.password === ""
    );
  } catch {
    return false;
  }
}

const templateIdsSchema = z.record(z.string(), z.string().regex(/^[0-9]{1,30}$/));

/**
 * The environment's provider for a sender (a code, a notice), or an error that says what is
 * missing: senders run after their answer has gone, and log it.
 */
export function configuredProvider(env: TelephonyEnv): TelephonyProvider {
  const made = telephonyProvider(env);
  if (!made.ok) throw new Error(`No telephony provider: ${made.problem}`);
  return made.provider;
}

/** The provider this environment is configured for, or why none can be made. */
export function telephonyProvider(
  env: TelephonyEnv,
  fetcher: typeof fetch = (input, init) => fetch(input, init),
): { ok: true; provider: TelephonyProvider } | { ok: false; problem: string } {
  const name = telephonyProviderSchema.safeParse(env.TELEPHONY_PROVIDER);
  if (!name.success) return { ok: false, problem: `TELEPHONY_PROVIDER is not one of twilio, exotel` };
  const local = env.TELEPHONY_LOCAL_URL ?? "";
  if (local !== "" && !isLocalProviderUrl(local)) {
    return { ok: false, problem: "TELEPHONY_LOCAL_URL must be empty or a loopback http:// address with a port" };
  }
  if (!HOSTS[name.data].includes(env.TELEPHONY_API_HOST)) {
    return { ok: false, problem: `TELEPHONY_API_HOST must be one of ${HOSTS[name.data].join(", ")}` };
  }
  if (!env.TELEPHONY_API_TOKEN) return { ok: false, problem: "the secret TELEPHONY_API_TOKEN is not set" };
  let webhookOrigin: string;
  try {
    webhookOrigin = new URL(env.TELEPHONY_WEBHOOK_ORIGIN).origin;
  } catch {
    return { ok: false, problem: "TELEPHONY_WEBHOOK_ORIGIN is not an origin" };
  }
  const apiBase = local !== "" ? new URL(local).origin : `https://${env.TELEPHONY_API_HOST}`;
  if (name.data === "twilio") {
    return {
      ok: true,
      provider: twilioProvider(
        {
          accountSid: env.TELEPHONY_ACCOUNT_SID,
          authToken: env.TELEPHONY_API_TOKEN,
          smsSender: env.TELEPHONY_SMS_SENDER,
          callerId: env.TELEPHONY_CALLER_ID,
          apiBase,
          webhookOrigin,
        },
        fetcher,
      ),
    };
  }
  const templateIds = templateIdsSchema.safeParse(env.TELEPHONY_DLT_TEMPLATES);
  if (!templateIds.success) return { ok: false, problem: "TELEPHONY_DLT_TEMPLATES holds something that is not an id" };
  if (!env.TELEPHONY_WEBHOOK_SECRET || env.TELEPHONY_WEBHOOK_SECRET.length < 32) {
    return { ok: false, problem: "the secret TELEPHONY_WEBHOOK_SECRET must be at least 32 characters" };
  }
  return {
    ok: true,
    provider: exotelProvider(
      {
        accountSid: env.TELEPHONY_ACCOUNT_SID,
        apiKey: env.TELEPHONY_API_KEY,
        apiToken: env.TELEPHONY_API_TOKEN,
        webhookSecret: env.TELEPHONY_WEBHOOK_SECRET,
        smsSender: env.TELEPHONY_SMS_SENDER,
        callerId: env.TELEPHONY_CALLER_ID,
        callFlowId: env.TELEPHONY_CALL_FLOW,
        dltEntityId: env.TELEPHONY_DLT_ENTITY_ID,
        dltTemplateIds: templateIds.data,
        apiBase,
        webhookOrigin,
      },
      fetcher,
    ),
  };
}
