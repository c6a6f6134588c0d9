// Razorpay (docs/decisions/047-payments-razorpay.md), over its REST API with `fetch`:
//   POST /v1/payment_links          a UPI Payment Link for the amount, with our reference and a
//                                   GET callback back to the app (its hosted page shows UPI intent
//                                   on a phone and a QR code on a desktop)
//   GET  /v1/settlements/recon/combined?year&month&day[&count&skip]   a day's settlement report
// Basic authorization with the key id and key secret. Webhooks: `X-Razorpay-Signature` is the
// hex HMAC-SHA256 of the raw body under the webhook secret, checked before anything is read;
// `X-Razorpay-Event-Id` names the event (a retry carries the same one). Events acted on:
// payment.captured, order.paid, payment_link.paid (a capture), payment.failed, refund.processed.
import { z } from "../../common/zod.ts";
import {
  type Checkout,
  type CheckoutRequest,
  type PaymentEvent,
  PaymentGatewayError,
  type PaymentProvider,
  type SettlementItem,
  verifyHmacSha256Hex,
  type WebhookReading,
} from "./provider.ts";

export const RAZORPAY_API_BASE = "https://api.razorpay.com";

export type RazorpayConfig = {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** https://api.razorpay.com, or the local gateway's loopback address in local mode. */
  apiBase: string;
};

const linkSchema = z.object({
  id: z.string().min(1),
  short_url: z.string().url(),
  order_id: z.string().nullish(),
});

const paymentEntitySchema = z.object({
  id: z.string().min(1),
  amount: z.number().int().nonnegative(),
  status: z.string(),
  order_id: z.string().nullish(),
  error_description: z.string().nullish(),
});

const eventSchema = z.object({
  entity: z.literal("event"),
  event: z.string().min(1),
  created_at: z.number().optional(),
  payload: z.object({
    payment: z.object({ entity: paymentEntitySchema }).optional(),
    order: z.object({ entity: z.object({ id: z.string().min(1) }) }).optional(),
    payment_link: z
      .object({
        entity: z.object({ id: z.string().min(1), reference_id: z.string().nullish(), order_id: z.string().nullish() }),
      })
      .optional(),
    refund: z
      .object({
        entity: z.object({
          id: z.string().min(1),
          payment_id: z.string().min(1),
          amount: z.number().int().nonnegative(),
        }),
      })
      .optional(),
  }),
});

const reconSchema = z.object({
  count: z.number().int(),
  items: z.array(
    z.object({
      entity_id: z.string(),
      type: z.string(),
      amount: z.number().int(),
      order_id: z.string().nullish(),
      payment_id: z.string().nullish(),
    }),
  ),
});

const errorSchema = z.object({ error: z.object({ code: z.string().nullish(), description: z.string().nullish() }) });

/** One report page; Razorpay answers up to 1000 items a call. */
const RECON_PAGE = 1000;

export function razorpayProvider(config: RazorpayConfig, fetcher: typeof fetch): PaymentProvider {
  const authorization = `Basic ${btoa(`${config.keyId}:${config.keySecret}`)}`;

  async function call<Schema extends z.ZodType>(method: "GET" | "POST", path: string, body: unknown, schema: Schema) {
    const response = await fetcher(`${config.apiBase}${path}`, {
      method,
      headers: {
        Authorization: authorization,
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const refusal = errorSchema.safeParse(json);
      const code = refusal.success ? (refusal.data.error.code ?? null) : null;
      const message = refusal.success ? (refusal.data.error.description ?? "refused") : "refused";
      throw new PaymentGatewayError("razorpay", response.status, code, message);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new PaymentGatewayError("razorpay", response.status, null, "an answer of an unknown shape");
    return parsed.data as z.infer<Schema>;
  }

  return {
    name: "razorpay",

    async createCheckout(request: CheckoutRequest): Promise<Checkout> {
      const link = await call(
        "POST",
        "/v1/payment_links",
        {
          upi_link: true,
          amount: request.amountPaise,
          currency: "INR",
          accept_partial: false,
          reference_id: request.reference,
          description: request.description,
          customer: { contact: `+91${request.mobileNo}` },
          // We send our own receipt SMS (a DLT template); the gateway sends none.
          notify: { sms: false, email: false },
          reminder_enable: false,
          notes: request.notes,
          callback_url: request.callbackUrl,
          callback_method: "get",
        },
        linkSchema,
      );
      return { linkId: link.id, orderId: link.order_id ?? null, payUrl: link.short_url };
    },

    verifyWebhook(rawBody, headers) {
      const signature = headers.get("X-Razorpay-Signature");
      if (!signature || !config.webhookSecret) return Promise.resolve(false);
      return verifyHmacSha256Hex(config.webhookSecret, rawBody, signature.trim());
    },

    async readWebhook(rawBody, headers): Promise<WebhookReading> {
      const eventId = headers.get("X-Razorpay-Event-Id");
      if (!eventId || !/^[A-Za-z0-9_-]{1,64}$/.test(eventId)) return { ok: false, problem: "no X-Razorpay-Event-Id" };
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        return { ok: false, problem: "a body that is not JSON" };
      }
      const parsed = eventSchema.safeParse(json);
      if (!parsed.success) return { ok: false, problem: "an event of an unknown shape" };
      return { ok: true, eventId, type: parsed.data.event, event: eventOf(parsed.data) };
    },

    async settlementsOn(day) {
      const [year, month, date] = day.split("-");
      const items: SettlementItem[] = [];
      for (let skip = 0; ; skip += RECON_PAGE) {
        const page = await call(
          "GET",
          `/v1/settlements/recon/combined?year=${year}&month=${month}&day=${date}&count=${RECON_PAGE}&skip=${skip}`,
          undefined,
          reconSchema,
        );
        for (const item of page.items) {
          items.push({
            type: item.type === "payment" || item.type === "refund" ? item.type : "other",
            entityId: item.entity_id,
            paymentId: item.payment_id ?? null,
            orderId: item.order_id ?? null,
            amountPaise: item.amount,
          });
        }
        if (page.items.length < RECON_PAGE) return items;
      }
    },
  };
}

function eventOf(event: z.infer<typeof eventSchema>): PaymentEvent {
  const payment = event.payload.payment?.entity;
  const link = event.payload.payment_link?.entity;
  switch (event.event) {
    case "payment.captured":
    case "order.paid":
    case "payment_link.paid":
      if (payment?.status !== "captured") return { type: "ignored" };
      return {
        type: "captured",
        paymentId: payment.id,
        amountPaise: payment.amount,
        linkId: link?.id ?? null,
        orderId: payment.order_id ?? event.payload.order?.entity.id ?? link?.order_id ?? null,
        reference: link?.reference_id ?? null,
      };
    case "payment.failed":
      if (!payment) return { type: "ignored" };
      return {
        type: "failed",
        paymentId: payment.id,
        linkId: null,
        orderId: payment.order_id ?? null,
        reason: payment.error_description ?? null,
      };
    case "refund.processed": {
      const refund = event.payload.refund?.entity;
      if (!refund) return { type: "ignored" };
      return {
        type: "refunded",
        refundId: refund.id,
        paymentId: refund.payment_id,
        amountPaise: refund.amount,
        orderId: payment?.order_id ?? null,
      };
    }
    default:
      return { type: "ignored" };
  }
}
