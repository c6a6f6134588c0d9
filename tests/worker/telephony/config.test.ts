// The environment's provider as the Worker builds it from its vars and secrets: the REST API is
// the provider's own host, never another; only local mode's loopback TELEPHONY_LOCAL_URL sends it
// to the local provider; an incomplete configuration makes no provider at all.
// (tests/scripts/telephony-config.test.ts checks staging's and production's vars.)
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { isLocalProviderUrl, type TelephonyEnv, telephonyProvider } from "../../../worker/telephony/config.ts";

/** A production-like Exotel environment, filled in. */
const EXOTEL = {
  ...env,
  TELEPHONY_PROVIDER: "exotel",
  TELEPHONY_ACCOUNT_SID: "sinchai1",
  TELEPHONY_API_KEY: "key",
  TELEPHONY_API_HOST: "api.in.exotel.com",
  TELEPHONY_SMS_SENDER: "SINCHI",
  TELEPHONY_CALLER_ID: "08047112233",
  TELEPHONY_CALL_FLOW: "926",
  TELEPHONY_WEBHOOK_ORIGIN: "https://pump.example.in",
  TELEPHONY_LOCAL_URL: "",
} as unknown as TelephonyEnv;

/** Where a provider made from `vars` sends an SMS. */
async function smsGoesTo(vars: Partial<Record<keyof TelephonyEnv, unknown>>): Promise<string> {
  const made = telephonyProvider({ ...EXOTEL, ...vars } as TelephonyEnv, async (input) => {
    throw new Error(`fetch ${new Request(input).url}`);
  });
  if (!made.ok) return `refused: ${made.problem}`;
  const failure = await made.provider
    .sendSms({ to: "9876543210", template: "signInCode", language: "hi", values: { code: "123456" } })
    .catch((error: Error) => error.message);
  return String(failure)
    .replace(/^fetch /, "")
    .replace(/\/v1\/.*|\/2010-04-01\/.*/, "");
}

describe("the telephony configuration", () => {
  it("sends to the provider's own API host, whichever of its hosts is configured", async () => {
    expect(await smsGoesTo({})).toBe("https://api.in.exotel.com");
    expect(await smsGoesTo({ TELEPHONY_API_HOST: "api.exotel.com" })).toBe("https://api.exotel.com");
    expect(await smsGoesTo({ TELEPHONY_PROVIDER: "twilio", TELEPHONY_API_HOST: "api.twilio.com" })).toBe(
      "https://api.twilio.com",
    );
  });

  it("refuses any other host, and a provider's host for the other provider", async () => {
    for (const host of ["api.twilio.com", "api.exotel.com.evil.example", "127.0.0.1:8789", ""]) {
      expect(await smsGoesTo({ TELEPHONY_API_HOST: host })).toMatch(/^refused: TELEPHONY_API_HOST must be one of/);
    }
    expect(await smsGoesTo({ TELEPHONY_PROVIDER: "twilio" })).toMatch(/^refused: TELEPHONY_API_HOST/);
    expect(await smsGoesTo({ TELEPHONY_PROVIDER: "REPLACE-ME with exotel or twilio" })).toMatch(
      /^refused: TELEPHONY_PROVIDER/,
    );
  });

  it("reaches the local provider only at a loopback http:// address with a port", async () => {
    expect(await smsGoesTo({ TELEPHONY_LOCAL_URL: "http://127.0.0.1:8789" })).toBe("http://127.0.0.1:8789");
    expect(await smsGoesTo({ TELEPHONY_LOCAL_URL: "http://localhost:45123" })).toBe("http://localhost:45123");
    for (const url of [
      "https://127.0.0.1:8789",
      "http://10.0.0.5:8789",
      "http://phone-sim.example:8789",
      "http://127.0.0.1",
      "http://127.0.0.1:8789/api",
      "http://user:pass@127.0.0.1:8789",
      "http://127.0.0.1.evil.example:8789",
      "not a url",
    ]) {
      expect(isLocalProviderUrl(url), url).toBe(false);
      expect(await smsGoesTo({ TELEPHONY_LOCAL_URL: url }), url).toMatch(/^refused: TELEPHONY_LOCAL_URL/);
    }
  });

  it("makes no provider without its secrets or with a template id that is not one", async () => {
    expect(await smsGoesTo({ TELEPHONY_API_TOKEN: "" })).toMatch(/TELEPHONY_API_TOKEN is not set/);
    expect(await smsGoesTo({ TELEPHONY_WEBHOOK_SECRET: "short" })).toMatch(
      /TELEPHONY_WEBHOOK_SECRET must be at least 32/,
    );
    expect(await smsGoesTo({ TELEPHONY_DLT_TEMPLATES: { "signInCode.hi": "REPLACE-ME" } })).toMatch(
      /TELEPHONY_DLT_TEMPLATES/,
    );
    expect(await smsGoesTo({ TELEPHONY_WEBHOOK_ORIGIN: "REPLACE-ME with this environment's https:// origin" })).toMatch(
      /TELEPHONY_WEBHOOK_ORIGIN/,
    );
  });

  it("in local mode (these tests' wrangler.toml top level) is Twilio's API at the local provider", async () => {
    const made = telephonyProvider(env);
    expect(made.ok && made.provider.name).toBe("twilio");
    expect(env.TELEPHONY_LOCAL_URL).toBe("http://127.0.0.1:8789");
  });
});
