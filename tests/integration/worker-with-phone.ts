// What the local Worker and the local telephony provider (telephony-sim/) agree on as Twilio, as
// `npm start` runs them (shared-worker.global-setup.ts starts both); and a webhook posted to the
// Worker straight, signed as Twilio signs it (a replay, a retry or a forgery).
import { twilioSignature } from "../../common/twilio-signature.ts";

/** wrangler.toml's local mode (top level): the provider's account and our number. */
export const ACCOUNT_SID = "AC00000000000000000000000000000000";
export const OUR_NUMBER = "+918000000001";

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
