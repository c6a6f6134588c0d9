// The real local Worker with the local telephony provider (telephony-sim/) as its Twilio and as the
// farmers' phones, as `npm start` runs them, on a fresh database; and a webhook posted to the
// Worker straight, signed as Twilio signs it (a replay, a retry or a forgery).
import { twilioSignature } from "../../common/twilio-signature.ts";
import { type LocalProvider, startLocalProvider } from "../../telephony-sim/local-provider.ts";
import { freePort, freshPersistDir, type LocalWorker, startLocalWorker } from "./local-worker.ts";

/** wrangler.toml's local mode (top level): the provider's account and our number. */
export const ACCOUNT_SID = "AC00000000000000000000000000000000";
export const OUR_NUMBER = "+918000000001";

/** This run's secrets, shared by the Worker and the provider. */
export type PhoneSecrets = { token: string; webhookSecret: string };

/** Starts the provider, then the Worker pointed at it; `log` gets what the provider prints. */
export async function startWorkerWithPhone(
  secrets: PhoneSecrets,
  log?: (line: string) => void,
): Promise<{ worker: LocalWorker; phone: LocalProvider }> {
  const persistTo = await freshPersistDir();
  const port = await freePort();
  const phone = await startLocalProvider({
    credentials: { accountSid: ACCOUNT_SID, apiKey: "", apiToken: secrets.token, webhookSecret: secrets.webhookSecret },
    workerOrigin: `http://localhost:${port}`,
    ourNumber: OUR_NUMBER,
    inboundProvider: "twilio",
    log,
  });
  try {
    const worker = await startLocalWorker(persistTo, port, {
      TELEPHONY_API_TOKEN: secrets.token,
      TELEPHONY_WEBHOOK_SECRET: secrets.webhookSecret,
      TELEPHONY_LOCAL_URL: phone.url,
      TELEPHONY_WEBHOOK_ORIGIN: `http://localhost:${port}`,
    });
    return { worker, phone };
  } catch (error) {
    await phone.stop();
    throw error;
  }
}

/** A Twilio webhook to the Worker at `url`: a form POST signed with `token`, as Twilio signs the URL it posts to. */
export async function signedTwilioPost(url: string, fields: Record<string, string>, token: string): Promise<Response> {
  const form = { AccountSid: ACCOUNT_SID, ...fields };
  return fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Twilio-Signature": await twilioSignature(token, url, Object.entries(form)),
    },
    body: new URLSearchParams(form),
  });
}
