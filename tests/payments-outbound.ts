// The workerd tests' payment gateway (miniflare's outboundService, in Node): the Worker's REST
// calls to PAYMENT_LOCAL_URL (wrangler.toml's local mode, 127.0.0.1:8790) are answered here by
// the local gateway's own Razorpay half (payments-sim/razorpay-api.ts), which checks the key id
// and secret. No port is opened and no webhook is sent: the integration tests have the whole
// loop (tests/integration/payments-against-worker.test.ts).
import type { GatewayCore, GatewayCredentials } from "../payments-sim/gateway-core.ts";
import { razorpayRest } from "../payments-sim/razorpay-api.ts";

export const PAYMENTS_TEST_HOST = "127.0.0.1:8790";

export function paymentsTestOutbound(credentials: GatewayCredentials): (request: Request) => Promise<Response> | null {
  const core: GatewayCore = {
    credentials,
    webhookUrl: "http://localhost:8787/api/payments/razorpay/webhook",
    payPageBase: `http://${PAYMENTS_TEST_HOST}`,
    links: new Map(),
    payments: new Map(),
    refunds: new Map(),
    events: [],
    extraSettlements: [],
    delivery: { order: "inOrder", copies: 1 },
    log: () => {},
    play: () => {},
  };
  return (request) => {
    const url = new URL(request.url);
    if (url.host !== PAYMENTS_TEST_HOST) return null;
    return (async () => {
      const answer = razorpayRest(
        core,
        { method: request.method, authorization: request.headers.get("Authorization") ?? undefined },
        `${url.pathname}${url.search}`,
        await request.text(),
      );
      if (!answer) return Response.json({ error: `No ${request.method} ${url.pathname} here.` }, { status: 404 });
      return Response.json(answer.body, { status: answer.status });
    })();
  };
}
