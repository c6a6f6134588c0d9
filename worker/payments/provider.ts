// The one small interface every payment gateway is used through (docs/payments.md), as the
// telephony layer has its own (worker/telephony/provider.ts): open a checkout for an amount,
// check and read the gateway's webhooks, and read a day's settlement report. Adapters call the
// gateway's REST API with `fetch` (its SDKs are written for Node, not Workers) and are plain
// modules: the Worker, the Node tests and the local gateway's tests use them alike. A second
// gateway (Cashfree, PhonePe) is one more adapter of these four methods.

export type PaymentProviderName = "razorpay";

export type CheckoutRequest = {
  /** Our payment's id: the gateway keeps it as its reference and gives it back in webhooks. */
  reference: string;
  amountPaise: number;
  description: string;
  /** A 10-digit Indian mobile number, for the gateway's page (never for its own SMS). */
  mobileNo: string;
  /** Where the farmer's browser comes back to after paying (a GET). */
  callbackUrl: string;
  notes: Record<string, string>;
};

export type Checkout = {
  /** The gateway's id of what the farmer pays (Razorpay: the payment link, plink_...). */
  linkId: string;
  /** The gateway's order behind it, where the answer already names it. */
  orderId: string | null;
  /** The gateway's page where the farmer pays by UPI: intent on a phone, a QR code on a desktop. */
  payUrl: string;
};

/** What a verified webhook says happened, in the gateway's ids. */
export type PaymentEvent =
  | {
      type: "captured";
      paymentId: string;
      amountPaise: number;
      linkId: string | null;
      orderId: string | null;
      reference: string | null;
    }
  | { type: "failed"; paymentId: string; linkId: string | null; orderId: string | null; reason: string | null }
  | { type: "refunded"; refundId: string; paymentId: string; amountPaise: number; orderId: string | null }
  | { type: "ignored" };

export type WebhookReading =
  | {
      ok: true;
      /** The gateway's id of this event: a replay or a retry carries the same one. */
      eventId: string;
      /** The gateway's name of the event (payment.captured, ...). */
      type: string;
      event: PaymentEvent;
    }
  | { ok: false; problem: string };

/** One line of a day's settlement report: a payment or a refund the gateway settled. */
export type SettlementItem = {
  type: "payment" | "refund" | "other";
  /** The payment's or the refund's id. */
  entityId: string;
  /** For a refund: the payment it gives back. */
  paymentId: string | null;
  orderId: string | null;
  amountPaise: number;
};

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** Whether the webhook's raw body carries the gateway's signature. Nothing is read before this. */
  verifyWebhook(rawBody: string, headers: Headers): Promise<boolean>;
  /** What a verified webhook says. */
  readWebhook(rawBody: string, headers: Headers): Promise<WebhookReading>;
  /** Everything settled on `day` (YYYY-MM-DD, India time), every page of it. */
  settlementsOn(day: string): Promise<SettlementItem[]>;
}

/** A gateway's API refused or failed a request: its HTTP status and its own error code. */
export class PaymentGatewayError extends Error {
  readonly provider: PaymentProviderName;
  readonly status: number;
  readonly gatewayCode: string | null;

  constructor(provider: PaymentProviderName, status: number, gatewayCode: string | null, message: string) {
    super(`${provider} ${status}${gatewayCode ? ` (${gatewayCode})` : ""}: ${message}`);
    this.name = "PaymentGatewayError";
    this.provider = provider;
    this.status = status;
    this.gatewayCode = gatewayCode;
  }
}

/** Whether `signatureHex` is the HMAC-SHA256 of `message` under `secret`, checked in constant time by WebCrypto. */
export async function verifyHmacSha256Hex(secret: string, message: string, signatureHex: string): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/i.test(signatureHex)) return false;
  const bytes = new Uint8Array(32);
  for (let index = 0; index < 32; index++)
    bytes[index] = Number.parseInt(signatureHex.slice(index * 2, index * 2 + 2), 16);
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  return crypto.subtle.verify("HMAC", key, bytes, new TextEncoder().encode(message));
}
