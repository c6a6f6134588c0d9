// The worker tests' telephony provider (miniflare's outboundService, in Node): the Worker's REST
// calls to TELEPHONY_LOCAL_URL (wrangler.toml's local mode, 127.0.0.1:8789) are answered here by
// the local provider's own Twilio and Exotel halves (telephony-sim/), which check the account's
// credentials and keep every SMS and call; GET /__messages lists them as the local provider does.
// No port is opened, so test runs side by side cannot meet. It plays no webhooks: in the workerd
// tests no Worker listens on a port to receive them, so each test sends the provider's webhooks
// itself, signed (tests/worker/telephony-support.ts). tests/integration/ has the whole loop.
import { exotelRest } from "../telephony-sim/exotel-api.ts";
import type { SimCore, SimCredentials } from "../telephony-sim/sim-core.ts";
import { twilioRest } from "../telephony-sim/twilio-api.ts";

export const TELEPHONY_TEST_HOST = "127.0.0.1:8789";

export function telephonyTestOutbound(credentials: SimCredentials): (request: Request) => Promise<Response> | null {
  const core: SimCore = {
    credentials,
    workerOrigin: "http://localhost:8787",
    ourNumber: "+918000000001",
    sms: [],
    calls: new Map(),
    unanswered: new Map(),
    log: () => {},
    play: () => {},
  };
  return (request) => {
    const url = new URL(request.url);
    if (url.host !== TELEPHONY_TEST_HOST) return null;
    return (async () => {
      if (request.method === "GET" && url.pathname === "/__messages") {
        return Response.json({
          sms: core.sms,
          calls: [...core.calls.values()].map(({ record }) => record),
        });
      }
      const rest = {
        method: request.method,
        headers: { authorization: request.headers.get("Authorization") ?? undefined },
      };
      const body = await request.text();
      const answer = twilioRest(core, rest, url.pathname, body) ?? exotelRest(core, rest, url.pathname, body);
      if (!answer) return Response.json({ error: `No ${request.method} ${url.pathname} here.` }, { status: 404 });
      return Response.json(answer.body, { status: answer.status });
    })();
  };
}
