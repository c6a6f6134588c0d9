// What the local provider received and did: every SMS and call, as its tests and `GET /__messages`
// read them (parsed with these schemas on both sides), and as its terminal prints them.
import { z } from "../common/zod.ts";

/** What every SMS and call the provider handled has: its id, which provider, and between which numbers. */
const simRecordFields = {
  /** The provider's id for it (Twilio SM… or CA…, Exotel a hex string). */
  id: z.string(),
  provider: z.enum(["twilio", "exotel"]),
  /** The 10-digit number it went to. */
  to: z.string(),
  from: z.string(),
};

export const simSmsSchema = z.object({
  ...simRecordFields,
  text: z.string(),
  /** The DLT fields it came with (Exotel), or null (Twilio takes none). */
  dlt: z.object({ entityId: z.string(), templateId: z.string(), encoding: z.string() }).nullable(),
  status: z.string(),
  at: z.number(),
});
export type SimSms = z.infer<typeof simSmsSchema>;

export const simCallSchema = z.object({
  ...simRecordFields,
  /** queued, ringing, in-progress (answered), completed. */
  status: z.string(),
  /** Every sentence the call said, in order, as the Worker gave it. */
  spoken: z.array(z.string()),
  /** The keys pressed, in order. */
  pressed: z.array(z.string()),
  /** Whether the call waits for a key now. */
  waitingForKey: z.boolean(),
  /** Where the provider was told to fetch the call's script (Twilio's Url; null for Exotel's flow). */
  voiceUrl: z.string().nullable(),
  /** Where the provider sends the call's progress. */
  statusCallback: z.string().nullable(),
  at: z.number(),
});
export type SimCall = z.infer<typeof simCallSchema>;

export const simRecordsSchema = z.object({ sms: z.array(simSmsSchema), calls: z.array(simCallSchema) });
export type SimRecords = z.infer<typeof simRecordsSchema>;

/** A 10-digit number the way people read it: 98765 43210. */
export function spacedNumber(mobileNo: string): string {
  return /^[0-9]{10}$/.test(mobileNo) ? `${mobileNo.slice(0, 5)} ${mobileNo.slice(5)}` : mobileNo;
}

/** The 10 digits of a +91 number, 0-prefixed number or bare 10 digits; anything else as it is. */
export function tenDigits(number: string): string {
  const match = /^(?:\+91|0)?([0-9]{10})$/.exec(number.replace(/\s/g, ""));
  return match ? match[1]! : number;
}
