// The environment's three numbers for switching a pump without data (docs/telephony.md, "The
// numbers"): where an SMS command goes, the missed call that stops, the one that starts. Read
// from wrangler.toml's vars here alone, so pages, the printable card and the API agree. A value
// that is not an E.164 number (empty, or a placeholder an operator has not filled in) is
// treated as not configured and shown nowhere, rather than as a wrong number to call.
import { z } from "../../common/zod.ts";

const e164 = z.string().regex(/^\+[1-9][0-9]{7,14}$/);
const configured = e164.nullable().catch(null);

const phoneNumbersSchema = z.object({
  PHONE_SMS_NUMBER: z.preprocess((value) => value ?? null, configured),
  PHONE_STOP_NUMBER: z.preprocess((value) => value ?? null, configured),
  PHONE_START_NUMBER: z.preprocess((value) => value ?? null, configured),
});

/** Each number as E.164 (`+918000000001`), or null when this environment has none. */
export type PhoneNumbers = { sms: string | null; stop: string | null; start: string | null };

/** The three vars as wrangler.toml sets them (any string: a placeholder too). */
type PhoneNumberVars = Partial<Record<"PHONE_SMS_NUMBER" | "PHONE_STOP_NUMBER" | "PHONE_START_NUMBER", string>>;

export function phoneNumbersOf(env: PhoneNumberVars): PhoneNumbers {
  const parsed = phoneNumbersSchema.parse(env);
  return { sms: parsed.PHONE_SMS_NUMBER, stop: parsed.PHONE_STOP_NUMBER, start: parsed.PHONE_START_NUMBER };
}
