// Answers of /api/push/* and /api/alerts/* (common/api-responses/refusals.ts says how these are used).

import { ALERT_CHANNELS } from "../alert-channels.ts";
import { ALERT_KINDS } from "../alerts.ts";
import { z } from "../zod-mini.ts";
import { successSchema } from "./refusals.ts";

/** A browser's subscription as the settings screen sees it: never its keys. */
const subscriptionViewSchema = z.object({
  endpoint: z.string(),
  kinds: z.array(z.enum(ALERT_KINDS)),
  language: z.enum(["hi", "en"]),
  lastSentAt: z.nullable(z.number()),
});

/** GET /api/push/subscriptions?endpoint=: null when this browser gets no alerts. */
export const subscriptionResponseSchema = successSchema({
  subscription: z.nullable(subscriptionViewSchema),
});

/** PUT /api/push/subscriptions (DELETE and POST /api/push/test answer messageResponseSchema). */
export const subscriptionSavedResponseSchema = successSchema({
  message: z.string(),
  subscription: subscriptionViewSchema,
});

/** POST /api/push/subscriptions/renew. */
export const subscriptionRenewedResponseSchema = successSchema({
  subscription: subscriptionViewSchema,
});

// ─── Alerts by SMS and call: /api/alerts/channels ───────────────────────────────────────────

const channelSchema = z.enum(ALERT_CHANNELS);

/** Each phone kind's channel, and what the account may use and has used today. */
const alertChannelsViewSchema = z.object({
  channels: z.object({
    dryRun: channelSchema,
    phaseFault: channelSchema,
    voltageTrip: channelSchema,
    offlineWhileOn: channelSchema,
    powerBack: channelSchema,
    scheduleMissed: channelSchema,
    tamper: channelSchema,
    cableCut: channelSchema,
  }),
  /** The language the account's SMS and calls speak. */
  language: z.enum(["hi", "en"]),
  /** SMS and calls go only to a verified number: until then every kind stays in the app. */
  numberVerified: z.boolean(),
  /** SMS and calls today (IST), and the day's caps. */
  today: z.object({ sms: z.number(), call: z.number() }),
  caps: z.object({ sms: z.number(), call: z.number() }),
});

/** GET /api/alerts/channels. */
export const alertChannelsResponseSchema = z.extend(alertChannelsViewSchema, { success: z.literal(true) });

/** PUT /api/alerts/channels. */
export const alertChannelsSavedResponseSchema = z.extend(alertChannelsViewSchema, {
  success: z.literal(true),
  message: z.string(),
});
