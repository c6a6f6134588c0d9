// What the local payment gateway keeps and how it sends webhooks, shared by its REST half
// (razorpay-api.ts), its checkout page (checkout-page.ts) and its server (local-gateway.ts).
// Webhooks go as Razorpay sends them (docs/payments.md, "Webhooks"): a JSON POST to the
// Worker's webhook URL, signed with the webhook secret (`X-Razorpay-Signature`, hex HMAC-SHA256
// of the raw body), named by `X-Razorpay-Event-Id`, and sent again after any answer but a 2xx
// (up to `RETRIES` times, backing off). A capture's three events can be delivered in order,
// reversed or shuffled, and each more than once at the same time, as real gateways do.
import { createHmac, randomBytes } from "node:crypto";

export type GatewayCredentials = { keyId: string; keySecret: string; webhookSecret: string };

export type SimLink = {
  id: string;
  orderId: string;
  amount: number;
  referenceId: string;
  description: string;
  contact: string | null;
  notes: Record<string, string>;
  callbackUrl: string | null;
  status: "created" | "paid" | "cancelled";
  createdAt: number;
  /** What the tester did last on its page. */
  lastAction: "none" | "paid" | "failed" | "abandoned";
};

export type SimPayment = {
  id: string;
  linkId: string;
  orderId: string;
  amount: number;
  status: "captured" | "failed";
  method: "upi";
  vpa: string;
  errorDescription: string | null;
  amountRefunded: number;
  createdAt: number;
};

export type SimRefund = { id: string; paymentId: string; amount: number; createdAt: number };

export type SimEvent = {
  id: string;
  event: string;
  body: string;
  /** Every delivery's answer from the Worker (a status, or "error: ..."). */
  deliveries: (number | string)[];
};

/** An extra line for the settlement report: what the gateway settled that we may not know. */
export type SimSettlementItem = {
  type: "payment" | "refund";
  entityId: string;
  paymentId: string | null;
  orderId: string | null;
  amount: number;
  day: string;
};

export type DeliveryMode = { order: "inOrder" | "reversed" | "shuffled"; copies: number };

export type GatewayCore = {
  credentials: GatewayCredentials;
  /** Where the gateway's webhooks go (configured once at the gateway, as on Razorpay's dashboard). */
  webhookUrl: string;
  /** Where the checkout pages are served: the gateway's own address. */
  payPageBase: string;
  links: Map<string, SimLink>;
  payments: Map<string, SimPayment>;
  refunds: Map<string, SimRefund>;
  events: SimEvent[];
  extraSettlements: SimSettlementItem[];
  delivery: DeliveryMode;
  log: (line: string) => void;
  /** Runs `work` in the background; `settled()` waits for it. */
  play: (work: () => Promise<void>) => void;
};

/** An id as Razorpay writes them: a prefix and 14 letters and digits. */
export function gatewayId(prefix: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return `${prefix}_${[...randomBytes(14)].map((byte) => alphabet[byte % alphabet.length]).join("")}`;
}

export function sign(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

/** India's day (YYYY-MM-DD) of a time: the settlement report is by India's days. */
export function indiaDay(time: number): string {
  return new Date(time + 5.5 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

const RETRIES = 4;
const BACKOFF_MS = [50, 200, 500, 1000];

export function paymentEntity(payment: SimPayment) {
  return {
    id: payment.id,
    entity: "payment",
    amount: payment.amount,
    currency: "INR",
    status: payment.status,
    order_id: payment.orderId,
    invoice_id: null,
    international: false,
    method: payment.method,
    amount_refunded: payment.amountRefunded,
    refund_status: payment.amountRefunded === 0 ? null : payment.amountRefunded < payment.amount ? "partial" : "full",
    captured: payment.status === "captured",
    description: null,
    vpa: payment.vpa,
    error_code: payment.errorDescription ? "BAD_REQUEST_ERROR" : null,
    error_description: payment.errorDescription,
    fee: payment.status === "captured" ? Math.round(payment.amount * 0.02) : 0,
    tax: payment.status === "captured" ? Math.round(payment.amount * 0.02 * 0.18) : 0,
    created_at: Math.floor(payment.createdAt / 1000),
  };
}

export function linkEntity(link: SimLink) {
  return {
    id: link.id,
    entity: "payment_link",
    amount: link.amount,
    amount_paid: link.status === "paid" ? link.amount : 0,
    currency: "INR",
    accept_partial: false,
    description: link.description,
    reference_id: link.referenceId,
    order_id: link.orderId,
    short_url: "",
    status: link.status,
    upi_link: true,
    notes: link.notes,
    customer: { contact: link.contact },
    created_at: Math.floor(link.createdAt / 1000),
  };
}

/** A webhook event's body, as Razorpay builds one. */
export function eventBody(event: string, payload: Record<string, unknown>, contains: string[]): string {
  return JSON.stringify({
    entity: "event",
    account_id: "acc_SinchaiLocal01",
    event,
    contains,
    payload,
    created_at: Math.floor(Date.now() / 1000),
  });
}

/** Sends `bodies` as new events, in the core's delivery order and number of copies. */
export function emit(core: GatewayCore, bodies: { event: string; body: string }[]): SimEvent[] {
  const events = bodies.map(({ event, body }) => ({ id: gatewayId("evt"), event, body, deliveries: [] }));
  core.events.push(...events);
  const ordered = order(events, core.delivery.order);
  core.play(async () => {
    for (const event of ordered) {
      await Promise.all(Array.from({ length: core.delivery.copies }, () => deliver(core, event)));
    }
  });
  return events;
}

/** Sends an event already sent once more, as the gateway's dashboard "resend" does. */
export function redeliver(core: GatewayCore, eventId: string): SimEvent {
  const event = core.events.find((candidate) => candidate.id === eventId);
  if (!event) throw new Error(`No event ${eventId}.`);
  core.play(() => deliver(core, event));
  return event;
}

async function deliver(core: GatewayCore, event: SimEvent): Promise<void> {
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS[attempt - 1]));
    let answer: number | string;
    try {
      const response = await fetch(core.webhookUrl, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Razorpay-Signature": sign(core.credentials.webhookSecret, event.body),
          "X-Razorpay-Event-Id": event.id,
          "User-Agent": "Razorpay-Webhook/v1",
        },
        body: event.body,
      });
      await response.arrayBuffer();
      answer = response.status;
    } catch (error) {
      answer = `error: ${error instanceof Error ? error.message : String(error)}`;
    }
    event.deliveries.push(answer);
    core.log(`webhook ${event.event} ${event.id} → ${answer}`);
    if (typeof answer === "number" && answer >= 200 && answer < 300) return;
  }
}

function order<T>(items: T[], how: DeliveryMode["order"]): T[] {
  switch (how) {
    case "inOrder":
      return [...items];
    case "reversed":
      return [...items].reverse();
    case "shuffled": {
      const shuffled = [...items];
      for (let index = shuffled.length - 1; index > 0; index--) {
        const other = randomBytes(1)[0]! % (index + 1);
        [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
      }
      return shuffled;
    }
  }
}
