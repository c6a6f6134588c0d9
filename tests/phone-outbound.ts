// The worker tests' phone: what the Worker under test sends to wrangler.toml's TELEPHONY_LOCAL_URL
// (miniflare's outboundService, in Node) reaches a local provider (telephony-sim/) started in
// this process on a free port, never whatever may listen at that address on this machine (a
// developer's `npm run phone-sim`). Tests read what it received at the same address, through
// telephony-sim/client.ts, as the integration and e2e tests read theirs.
import { type LocalProvider, startLocalProvider } from "../telephony-sim/local-provider.ts";

/** wrangler.toml's local mode: where the Worker's adapters send SMS and calls. */
export const TEST_PHONE_URL = "http://127.0.0.1:8789";
/** The test-only secrets vitest.config.ts binds; the local provider checks the adapters' credentials with them. */
export const TEST_TELEPHONY_SECRETS = {
  TELEPHONY_API_TOKEN: "worker-tests-only-telephony-token",
  TELEPHONY_WEBHOOK_SECRET: "worker-tests-only-webhook-secret-0123456789",
};

let phone: Promise<LocalProvider> | null = null;

/** The answer for a request to the test phone, or null for any other address. */
export async function phoneTestOutbound(request: Request): Promise<Response | null> {
  const url = new URL(request.url);
  if (url.origin !== TEST_PHONE_URL) return null;
  phone ??= startLocalProvider({
    credentials: {
      accountSid: "AC00000000000000000000000000000000",
      apiKey: "",
      apiToken: TEST_TELEPHONY_SECRETS.TELEPHONY_API_TOKEN,
      webhookSecret: TEST_TELEPHONY_SECRETS.TELEPHONY_WEBHOOK_SECRET,
    },
    // The Worker under test has no address: the provider's webhooks go to the discard port.
    workerOrigin: "http://127.0.0.1:9",
    ourNumber: "+918000000001",
    inboundProvider: "twilio",
    keepProcessAlive: false,
  });
  const { url: base } = await phone;
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
  return fetch(`${base}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body });
}
