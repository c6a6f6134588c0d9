// What the alert channels API accepts (worker/api/alerts.ts, docs/telephony.md).
import { ALERT_CHANNELS, PHONE_ALERT_KINDS, type PhoneAlertKind } from "./alert-channels.ts";
import { z } from "./zod.ts";

const alertChannelSchema = z.enum(ALERT_CHANNELS, { error: `must be one of ${ALERT_CHANNELS.join(", ")}` });

/** PUT /api/alerts/channels: each kind's channel (a kind left out keeps its own), and the language SMS and calls speak. */
export const saveAlertChannelsSchema = z.strictObject({
  channels: z.strictObject(
    Object.fromEntries(PHONE_ALERT_KINDS.map((kind) => [kind, alertChannelSchema.optional()])) as Record<
      PhoneAlertKind,
      z.ZodOptional<typeof alertChannelSchema>
    >,
  ),
  language: z.enum(["hi", "en"], { error: "must be hi or en" }),
});
export type SaveAlertChannels = z.infer<typeof saveAlertChannelsSchema>;
