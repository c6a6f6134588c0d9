// Browsers subscribing to alerts, and what the push service played in Node (tests/push-outbound.ts)
// received, for the Web Push tests of the API and of the DeviceHub.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { ALERT_KINDS, type AlertKind } from "../../common/alerts.ts";
import { readJson } from "../../common/api-client.ts";
import { z } from "../../common/zod.ts";
import { getDb } from "../../worker/db/client.ts";
import { pushSubscriptions } from "../../worker/db/schema.ts";
import { putJson } from "./helpers/http.ts";

/** A browser's keys for a subscription (RFC 8291): its P-256 public key and auth secret. */
export async function browserKeys() {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const base64url = (bytes: Uint8Array) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  return { p256dh: base64url(raw), auth: base64url(crypto.getRandomValues(new Uint8Array(16))) };
}

export type PushRoute = "ok" | "gone" | "hang" | "redirect";

/** PUT /api/push/subscriptions for `endpoint`, as the alerts screen does. */
export async function saveEndpoint(token: string, endpoint: string, kinds: readonly AlertKind[] = ALERT_KINDS) {
  return putJson(
    "/api/push/subscriptions",
    { subscription: { endpoint, keys: await browserKeys() }, kinds, language: "hi" },
    token,
  );
}

/** A new subscription of the test push service, saved for the session of `token`. */
export async function subscribe(token: string, route: PushRoute = "ok", kinds: readonly AlertKind[] = ALERT_KINDS) {
  const id = crypto.randomUUID();
  const endpoint = `https://push.test/${route}/${id}`;
  const response = await saveEndpoint(token, endpoint, kinds);
  expect(response.status).toBe(200);
  return { id, endpoint };
}

const receivedSchema = z.object({ count: z.int(), topics: z.array(z.string().nullable()) });

/** How many messages the push service took for subscription `id`, and their Topic headers. */
export async function received(id: string) {
  return readJson(await fetch(`https://push.test/count/${id}`), receivedSchema);
}

export async function pushesTo(id: string): Promise<number> {
  return (await received(id)).count;
}

/** The addresses outside the test push service the Worker asked, among those containing `text`. */
export async function requestsElsewhere(text: string): Promise<string[]> {
  const response = await fetch(`https://push.test/elsewhere?contains=${encodeURIComponent(text)}`);
  return (await readJson(response, z.object({ addresses: z.array(z.string()) }))).addresses;
}

export async function stored(endpoint: string) {
  return getDb(env.DB).query.pushSubscriptions.findFirst({ where: eq(pushSubscriptions.endpoint, endpoint) });
}
