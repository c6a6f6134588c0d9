// The Razorpay adapter (worker/payments/razorpay.ts) against the local gateway (payments-sim/) over
// loopback HTTP, with a stand-in for the Worker's webhook route that checks every webhook with the
// adapter before reading it (the real route, with D1, is tests/integration/payments-against-worker.test.ts).
// The gateway takes the adapter's payment link as Razorpay documents it, refuses a wrong key, pays,
// fails and refunds with the events Razorpay sends (signed, named, retried after a refusal), and
// settles the day's payments in its report.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localGatewayClient } from "../../payments-sim/client.ts";
import { indiaDay } from "../../payments-sim/gateway-core.ts";
import { type LocalGateway, startLocalGateway } from "../../payments-sim/local-gateway.ts";
import { type PaymentEvent, PaymentGatewayError, type PaymentProvider } from "../../worker/payments/provider.ts";
import { razorpayProvider } from "../../worker/payments/razorpay.ts";

const CREDENTIALS = {
  keyId: "rzp_test_adaptertest",
  keySecret: "adapter-test-key-secret-0123456789",
  webhookSecret: "adapter-test-webhook-secret-0123456789abcdef",
};

let worker: Server;
let gateway: LocalGateway;
let adapter: PaymentProvider;
/** What the stand-in route read from verified webhooks, by event id; and how many it refused. */
const read = new Map<string, { type: string; event: PaymentEvent }>();
let refusedOnce = false;
let refusals = 0;

beforeAll(async () => {
  worker = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = new Headers(request.headers as Record<string, string>);
      // The first delivery of all is answered 500, as a Worker without D1 would: the gateway retries.
      if (!refusedOnce) {
        refusedOnce = true;
        response.writeHead(500).end();
        return;
      }
      if (!(await adapter.verifyWebhook(body, headers))) {
        refusals++;
        response.writeHead(403).end();
        return;
      }
      const reading = await adapter.readWebhook(body, headers);
      if (reading.ok) read.set(reading.eventId, { type: reading.type, event: reading.event });
      response.writeHead(reading.ok ? 200 : 400).end();
    });
  });
  await new Promise<void>((resolve) => worker.listen(0, "127.0.0.1", resolve));
  const { port } = worker.address() as AddressInfo;
  gateway = await startLocalGateway({ credentials: CREDENTIALS, workerOrigin: `http://127.0.0.1:${port}` });
  adapter = razorpayProvider({ ...CREDENTIALS, apiBase: gateway.url }, fetch);
});

afterAll(async () => {
  await gateway?.stop();
  await new Promise((resolve) => worker?.close(resolve));
});

const request = (reference: string) => ({
  reference,
  amountPaise: 39900,
  description: "Sinchai 1month plan",
  mobileNo: "9876543210",
  callbackUrl: "http://localhost:8787/recharge?payment=1",
  notes: { plan: "1month" },
});

describe("the Razorpay adapter against the local gateway", () => {
  it("creates a UPI payment link with our reference, priced in paise; a wrong key is refused as Razorpay refuses it", async () => {
    const checkout = await adapter.createCheckout(request("sinchai-1"));
    expect(checkout.linkId).toMatch(/^plink_/);
    expect(checkout.orderId).toMatch(/^order_/);
    expect(checkout.payUrl).toBe(`${gateway.url}/pay/${checkout.linkId}`);
    const wrong = razorpayProvider({ ...CREDENTIALS, keySecret: "not-the-secret", apiBase: gateway.url }, fetch);
    const refused = await wrong.createCheckout(request("sinchai-2")).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PaymentGatewayError);
    expect((refused as PaymentGatewayError).status).toBe(401);
  });

  it("reads a capture's three events, signed and named, after a refused delivery was retried", async () => {
    const checkout = await adapter.createCheckout(request("sinchai-3"));
    const client = localGatewayClient(gateway.url);
    const { paymentId, events } = await client.pay(checkout.linkId);
    await gateway.settled();
    expect(refusals).toBe(0);
    expect(events.map((id) => read.get(id)?.type)).toEqual(["payment.captured", "order.paid", "payment_link.paid"]);
    for (const id of events) {
      expect(read.get(id)?.event).toMatchObject({
        type: "captured",
        paymentId,
        amountPaise: 39900,
        orderId: checkout.orderId,
      });
    }
    expect(read.get(events[2]!)?.event).toMatchObject({ linkId: checkout.linkId, reference: "sinchai-3" });
    // The first delivery (500) was sent again.
    const first = (await client.records()).events.find((event) => event.id === events[0]);
    expect(first?.deliveries).toEqual([500, 200]);

    const { refundId, events: refunded } = await client.refund(paymentId, 10000);
    await gateway.settled();
    expect(read.get(refunded[0]!)).toEqual({
      type: "refund.processed",
      event: { type: "refunded", refundId, paymentId, amountPaise: 10000, orderId: checkout.orderId },
    });
    const settled = await adapter.settlementsOn(indiaDay(Date.now()));
    expect(settled).toEqual(
      expect.arrayContaining([
        { type: "payment", entityId: paymentId, paymentId: null, orderId: checkout.orderId, amountPaise: 39900 },
        { type: "refund", entityId: refundId, paymentId, orderId: checkout.orderId, amountPaise: 10000 },
      ]),
    );
  });

  it("reads a failed attempt, and takes no event whose body or signature was changed", async () => {
    const checkout = await adapter.createCheckout(request("sinchai-4"));
    const { paymentId, events } = await localGatewayClient(gateway.url).fail(checkout.linkId);
    await gateway.settled();
    expect(read.get(events[0]!)?.event).toMatchObject({ type: "failed", paymentId, orderId: checkout.orderId });
    const body = '{"entity":"event","event":"payment.captured","payload":{}}';
    const headers = new Headers({ "X-Razorpay-Event-Id": "evt_x", "X-Razorpay-Signature": "0".repeat(64) });
    expect(await adapter.verifyWebhook(body, headers)).toBe(false);
    expect(await adapter.verifyWebhook(body, new Headers({ "X-Razorpay-Event-Id": "evt_x" }))).toBe(false);
  });
});
