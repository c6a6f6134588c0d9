// What the alerts API (worker/api/push.ts) accepts. A subscription is what the browser's
// PushManager.subscribe() gives, as its toJSON() writes it.
import { ALERT_KINDS } from "./alerts.ts";
import { z } from "./zod.ts";

const base64url = (bytes: number) =>
  z
    .string({ error: "must be base64url" })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: "must be base64url" })
    .refine((text) => Math.floor((text.replace(/=+$/, "").length * 3) / 4) === bytes, {
      error: `must be ${bytes} bytes`,
    });

/** Push services are reached over https only (RFC 8030 §2); the address is a capability, kept short. */
export const pushEndpointSchema = z
  .string({ error: "must be an https address" })
  .max(1024, { error: "is too long" })
  .refine(
    (text) => {
      try {
        return new URL(text).protocol === "https:";
      } catch {
        return false;
      }
    },
    { error: "must be an https address" },
  );

export const browserSubscriptionSchema = z.object({
  endpoint: pushEndpointSchema,
  keys: z.object({
    /** The browser's P-256 public key, uncompressed: 65 bytes. */
    p256dh: base64url(65),
    /** The authentication secret: 16 bytes. */
    auth: base64url(16),
  }),
});

export const alertKindsSchema = z
  .array(z.enum(ALERT_KINDS, { error: `must be among ${ALERT_KINDS.join(", ")}` }), { error: "must be a list" })
  .max(ALERT_KINDS.length)
  .transform((kinds) => [...new Set(kinds)]);

export const saveSubscriptionSchema = z.object({
  subscription: browserSubscriptionSchema,
  kinds: alertKindsSchema,
  language: z.enum(["hi", "en"], { error: 'must be "hi" or "en"' }),
});

export const endpointRequestSchema = z.object({ endpoint: pushEndpointSchema });
export const endpointQuerySchema = z.object({ endpoint: pushEndpointSchema });

export const renewSubscriptionSchema = z.object({
  oldEndpoint: pushEndpointSchema,
  subscription: browserSubscriptionSchema,
});
