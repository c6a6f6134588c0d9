// What the local provider (telephony-sim/) must share with the local Worker: the account and
// number of wrangler.toml's top level (local mode) and the token and webhook secret of .dev.vars.
import type { SimCredentials } from "../../telephony-sim/sim-core.ts";
import { localSettings } from "./local-settings.ts";

export type LocalTelephony = {
  credentials: SimCredentials;
  ourNumber: string;
  /** The stop and start numbers of wrangler.toml's top level (PHONE_STOP_NUMBER, PHONE_START_NUMBER), when set. */
  lineNumbers: { stop?: string; start?: string };
  /** Whose webhooks the Worker serves in local mode (TELEPHONY_PROVIDER). */
  provider: "twilio" | "exotel";
};

const optional = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

export async function localTelephony(devVarsPath = ".dev.vars"): Promise<LocalTelephony> {
  const { text, vars } = await localSettings(devVarsPath);
  return {
    credentials: {
      accountSid: text("TELEPHONY_ACCOUNT_SID"),
      apiKey: text("TELEPHONY_API_KEY"),
      apiToken: text("TELEPHONY_API_TOKEN"),
      webhookSecret: text("TELEPHONY_WEBHOOK_SECRET"),
    },
    ourNumber: text("TELEPHONY_CALLER_ID"),
    lineNumbers: { stop: optional(vars.PHONE_STOP_NUMBER), start: optional(vars.PHONE_START_NUMBER) },
    provider: text("TELEPHONY_PROVIDER") === "exotel" ? "exotel" : "twilio",
  };
}
