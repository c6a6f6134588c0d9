// What a telephony provider's webhooks tell us, once verified and read by that provider's adapter
// (worker/telephony/): one union on `type`, whichever provider sent it, stored as is in D1
// (`telephony_events`) and read by the local provider's tests. Codes, never sentences: a status
// is one of ours, mapped from the provider's own words by its adapter (docs/telephony.md).
import { MOBILE_NO_PATTERN } from "./constants.ts";
import { z } from "./zod.ts";

export const TELEPHONY_PROVIDERS = ["twilio", "exotel"] as const;
export const telephonyProviderSchema = z.enum(TELEPHONY_PROVIDERS);
export type TelephonyProviderName = z.infer<typeof telephonyProviderSchema>;

/** Where a call is: the provider's statuses, in one vocabulary. */
export const CALL_STATUSES = [
  "queued",
  "ringing",
  "answered",
  "completed",
  "busy",
  "noAnswer",
  "failed",
  "canceled",
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** Where an SMS is; `failed` and `undelivered` are final, as is `delivered`. */
export const SMS_STATUSES = ["queued", "sent", "delivered", "undelivered", "failed"] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

/**
 * What we asked the call to be about, as we gave it to the provider: a short code of ours
 * (`stop:SNC-AB12CD34`) and when the call was placed (ms since the epoch). Handlers refuse a
 * keypress for a call placed too long ago, which no replay can change.
 */
export const callReferenceSchema = z.object({
  code: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9:._-]+$/),
  placedAt: z.number().int().nonnegative(),
});
export type CallReference = z.infer<typeof callReferenceSchema>;

/** A number as the provider wrote it, and the 10-digit Indian mobile number it is, when it is one. */
const callerSchema = z.object({ raw: z.string().max(32), mobileNo: z.string().regex(MOBILE_NO_PATTERN).nullable() });

const providerId = z.string().min(1).max(64);

/** Our missed-call numbers: a call to the stop number stops the caller's pump, to the start number starts it. */
export const PHONE_LINES = ["stop", "start"] as const;

export const telephonyEventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("callStatus"),
    provider: telephonyProviderSchema,
    callId: providerId,
    status: z.enum(CALL_STATUSES),
    durationSeconds: z.number().int().nonnegative().nullable(),
    reference: callReferenceSchema.nullable(),
  }),
  z.object({
    type: z.literal("keypress"),
    provider: telephonyProviderSchema,
    callId: providerId,
    digits: z.string().regex(/^[0-9*#]{1,8}$/),
    reference: callReferenceSchema.nullable(),
    /**
     * A key on the voice menu of a call to us (worker/phone-control/voice-menu.ts), not on an
     * alert's call; `menuStep`: how many keys the menu had taken when it asked for this one, when
     * the provider brings it back (Twilio, in the signed URL), so a key answers only its question.
     */
    menu: z.boolean().default(false),
    menuStep: z.number().int().nonnegative().nullable().default(null),
  }),
  z.object({
    type: z.literal("smsStatus"),
    provider: telephonyProviderSchema,
    messageId: providerId,
    status: z.enum(SMS_STATUSES),
    errorCode: z.string().max(32).nullable(),
    /** An alert's SMS: the reference we put in its status callback's URL. */
    reference: callReferenceSchema.nullable().default(null),
  }),
  z.object({
    type: z.literal("inboundSms"),
    provider: telephonyProviderSchema,
    messageId: providerId,
    from: callerSchema,
    text: z.string().max(2000),
  }),
  /**
   * A call to one of our missed-call numbers, rejected unanswered: `line` is which one, as the
   * number's webhook URL at the provider says (`?line=start`; the stop number otherwise).
   */
  z.object({
    type: z.literal("missedCall"),
    provider: telephonyProviderSchema,
    callId: providerId,
    from: callerSchema,
    line: z.enum(PHONE_LINES).default("stop"),
  }),
  /** A call to our voice menu number (`?line=menu`): answered only for a verified owner or operator. */
  z.object({
    type: z.literal("menuCall"),
    provider: telephonyProviderSchema,
    callId: providerId,
    from: callerSchema,
  }),
]);
export type TelephonyEvent = z.infer<typeof telephonyEventSchema>;

/** The 10-digit mobile number in `raw` (+91 98765 43210, 09876543210, 919876543210), or null. */
export function indianMobileNo(raw: string): string | null {
  const digits = raw.replace(/[\s()-]/g, "");
  const match = /^(?:\+91|0091|91|0)?([0-9]{10})$/.exec(digits);
  return match && MOBILE_NO_PATTERN.test(match[1]!) ? match[1]! : null;
}

/** A caller as the events carry it. */
export function caller(raw: string): z.infer<typeof callerSchema> {
  return { raw: raw.slice(0, 32), mobileNo: indianMobileNo(raw) };
}
