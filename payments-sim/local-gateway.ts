// The local payment gateway: one HTTP server on loopback that answers our Razorpay adapter's
// REST calls as Razorpay does (razorpay-api.ts), serves the checkout page a tester pays on
// (checkout-page.ts), and sends the signed webhooks that follow to the Worker, with retries and
// in the order and number of copies asked for (gateway-core.ts). Its own endpoints, for people
// and tests (client.ts; docs/payments.md, "The local gateway"):
//   GET  /__links                              every payment link, payment, refund and event so far
//   POST /__pay       {linkId, amountPaise?}   the payer pays (at another amount: a mismatch)
//   POST /__fail      {linkId}                 the payer's UPI app declines
//   POST /__abandon   {linkId}                 the payer leaves the page
//   POST /__refund    {paymentId, amountPaise?}  a refund from the dashboard
//   POST /__redeliver {eventId}                an event sent again, as the dashboard's resend
//   POST /__delivery  {order, copies}          how the next events go: inOrder, reversed or shuffled, each copies times at once
//   POST /__settlement {type, entityId, paymentId?, orderId?, amountPaise, day}  a line of the settlement report we may not know
//   POST /__settled                            answers once every webhook under way has been sent
// It needs no network and no account: nothing leaves this machine but requests to the Worker.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "../common/zod.ts";
import { checkoutPage, paidRedirect } from "./checkout-page.ts";
import { type GatewayCore, type GatewayCredentials, redeliver } from "./gateway-core.ts";
import { abandonLink, failLink, payLink, razorpayRest, refundPayment } from "./razorpay-api.ts";

export type LocalGatewayOptions = {
  /** 0 (the default): any free port. */
  port?: number;
  credentials: GatewayCredentials;
  /** The Worker's origin: webhooks go to <origin>/api/payments/razorpay/webhook. */
  workerOrigin: string;
  log?: (line: string) => void;
  /** False: the server does not keep Node running by itself (a test harness's). */
  keepProcessAlive?: boolean;
};

export type LocalGateway = {
  url: string;
  port: number;
  core: GatewayCore;
  settled: () => Promise<void>;
  stop: () => Promise<void>;
};

const linkIdSchema = z.string().regex(/^plink_[A-Za-z0-9]{1,32}$/);
const paySchema = z.object({ linkId: linkIdSchema, amountPaise: z.number().int().positive().optional() });
const linkSchema = z.object({ linkId: linkIdSchema });
const refundSchema = z.object({ paymentId: z.string().min(1), amountPaise: z.number().int().positive().optional() });
const redeliverSchema = z.object({ eventId: z.string().min(1) });
const deliverySchema = z.object({
  order: z.enum(["inOrder", "reversed", "shuffled"]),
  copies: z.number().int().min(1).max(10),
});
const settlementSchema = z.object({
  type: z.enum(["payment", "refund"]),
  entityId: z.string().min(1),
  paymentId: z.string().nullish(),
  orderId: z.string().nullish(),
  amountPaise: z.number().int().positive(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export async function startLocalGateway(options: LocalGatewayOptions): Promise<LocalGateway> {
  const underway = new Set<Promise<void>>();
  const core: GatewayCore = {
    credentials: options.credentials,
    webhookUrl: `${options.workerOrigin.replace(/\/$/, "")}/api/payments/razorpay/webhook`,
    payPageBase: "",
    links: new Map(),
    payments: new Map(),
    refunds: new Map(),
    events: [],
    extraSettlements: [],
    delivery: { order: "inOrder", copies: 1 },
    log: options.log ?? (() => {}),
    play: (work) => {
      const run = (async () => {
        // After the answer that caused it has gone out, as a gateway would.
        await new Promise((resolve) => setImmediate(resolve));
        await work();
      })().catch((error: unknown) => core.log(`! ${error instanceof Error ? error.message : error}`));
      underway.add(run);
      void run.finally(() => underway.delete(run));
    },
  };
  const settled = async () => {
    while (underway.size > 0) await Promise.allSettled([...underway]);
  };

  function records() {
    return {
      links: [...core.links.values()],
      payments: [...core.payments.values()],
      refunds: [...core.refunds.values()],
      events: core.events.map(({ id, event, deliveries }) => ({ id, event, deliveries })),
    };
  }

  async function control(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    switch (path) {
      case "/__pay": {
        const { linkId, amountPaise } = paySchema.parse(body);
        const { payment, events } = payLink(core, linkId, amountPaise);
        return {
          status: 200,
          body: { paymentId: payment.id, orderId: payment.orderId, events: events.map((event) => event.id) },
        };
      }
      case "/__fail": {
        const { payment, events } = failLink(core, linkSchema.parse(body).linkId);
        return { status: 200, body: { paymentId: payment.id, events: events.map((event) => event.id) } };
      }
      case "/__abandon":
        abandonLink(core, linkSchema.parse(body).linkId);
        return { status: 200, body: { ok: true } };
      case "/__refund": {
        const { paymentId, amountPaise } = refundSchema.parse(body);
        const { refundId, events } = refundPayment(core, paymentId, amountPaise);
        return { status: 200, body: { refundId, events: events.map((event) => event.id) } };
      }
      case "/__redeliver":
        redeliver(core, redeliverSchema.parse(body).eventId);
        return { status: 200, body: { ok: true } };
      case "/__delivery":
        core.delivery = deliverySchema.parse(body);
        return { status: 200, body: { ok: true } };
      case "/__settlement": {
        const item = settlementSchema.parse(body);
        core.extraSettlements.push({
          type: item.type,
          entityId: item.entityId,
          paymentId: item.paymentId ?? null,
          orderId: item.orderId ?? null,
          amount: item.amountPaise,
          day: item.day,
        });
        return { status: 200, body: { ok: true } };
      }
      case "/__settled":
        await settled();
        return { status: 200, body: { ok: true } };
      default:
        return { status: 404, body: { error: `No ${path} here.` } };
    }
  }

  /** The checkout page and its three forms. */
  function page(request: IncomingMessage, path: string, response: ServerResponse): boolean {
    const match = /^\/pay\/(plink_[A-Za-z0-9]+)(?:\/(pay|fail|abandon))?$/.exec(path);
    if (!match) return false;
    const link = core.links.get(match[1]!);
    const html = (status: number, text: string) => {
      response.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
      response.end(text);
    };
    if (!link) {
      html(404, "<!doctype html><title>No such link</title><p>No such payment link.</p>");
      return true;
    }
    const action = match[2];
    if (request.method === "GET" && !action) {
      html(200, checkoutPage(link, null));
      return true;
    }
    if (request.method !== "POST" || !action) {
      html(405, "<!doctype html><p>Not here.</p>");
      return true;
    }
    try {
      if (action === "pay") {
        const { payment } = payLink(core, link.id);
        const back = paidRedirect(core, link, payment.id);
        if (back) {
          response.writeHead(303, { Location: back });
          response.end();
        } else html(200, checkoutPage(link, "Paid."));
      } else if (action === "fail") {
        failLink(core, link.id);
        html(200, checkoutPage(link, "The payment failed: the UPI PIN was wrong. Try again."));
      } else {
        abandonLink(core, link.id);
        if (link.callbackUrl) {
          response.writeHead(303, { Location: link.callbackUrl });
          response.end();
        } else html(200, checkoutPage(link, "You left without paying."));
      }
    } catch (error) {
      html(409, checkoutPage(link, error instanceof Error ? error.message : String(error)));
    }
    return true;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", "http://localhost");
    const path = url.pathname;
    const body = await readBody(request);
    if (page(request, path, response)) return;
    let answer: { status: number; body: unknown } | null;
    try {
      if (request.method === "GET" && path === "/__links") answer = { status: 200, body: records() };
      else if (request.method === "POST" && path.startsWith("/__"))
        answer = await control(path, body ? JSON.parse(body) : {});
      else
        answer = razorpayRest(
          core,
          { method: request.method ?? "GET", authorization: request.headers.authorization },
          `${path}${url.search}`,
          body,
        );
    } catch (error) {
      answer = { status: 409, body: { error: error instanceof Error ? error.message : String(error) } };
    }
    answer ??= { status: 404, body: { error: `The local gateway has no ${request.method} ${path}.` } };
    response.writeHead(answer.status, { "Content-Type": "application/json; charset=utf-8" });
    response.end(JSON.stringify(answer.body));
  }

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  if (options.keepProcessAlive === false) server.unref();
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  core.payPageBase = url;
  return {
    url,
    port,
    core,
    settled,
    stop: async () => {
      await settled();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
