// Recharges paid online, end to end: the real Worker under `wrangler dev` (workerd, local D1)
// creates its payment links through our Razorpay adapter at the local gateway (payments-sim/),
// as `npm start` runs them; the gateway "pays" as a farmer would and sends its signed webhooks
// back to the Worker, with its retries, in the order and number of copies each test asks for.
// A capture extends the plan once whatever order and however many times its three events
// arrive; a forged or tampered webhook changes nothing; an amount that is not the plan's is
// held; a refund is shown and undoes nothing.
import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiClient } from "../../common/api-client.ts";
import {
  adminPaymentListResponseSchema,
  adminPaymentResponseSchema,
  paymentCheckoutResponseSchema,
  paymentResponseSchema,
} from "../../common/api-responses/payments.ts";
import { planResponseSchema } from "../../common/api-responses/recharges.ts";
import { formatDate } from "../../common/i18n/format.ts";
import { addMonths, type Plan } from "../../common/plans.ts";
import { pumpsOnSharedWorker } from "./simulated-pumps.ts";

const suite = pumpsOnSharedWorker();
const { worker, gateway, phone } = suite;

afterEach(() => gateway.delivery("inOrder", 1));

async function farmerWithPlan() {
  const { farmer, mobileNo } = await suite.pumps.farmerWithPump();
  // The box's first hello starts its free year.
  await expect.poll(async () => (await farmer.get("/api/recharge/plan", planResponseSchema)).plan).not.toBeNull();
  const { plan } = await farmer.get("/api/recharge/plan", planResponseSchema);
  return { farmer, mobileNo, freeYearEnds: Date.parse(plan!.expiresAt) };
}

async function checkout(farmer: ApiClient, plan: Plan = "1year") {
  const answer = await farmer.post("/api/payments/checkout", paymentCheckoutResponseSchema, { plan });
  const linkId = /\/pay\/(plink_[A-Za-z0-9]+)$/.exec(answer.payUrl)?.[1];
  if (!linkId) throw new Error(`Not a local checkout page: ${answer.payUrl}`);
  return { payment: answer.payment, payUrl: answer.payUrl, linkId };
}

async function paymentOf(farmer: ApiClient, id: number) {
  return farmer.get(`/api/payments/${id}`, paymentResponseSchema);
}

/** Waits for the gateway to have delivered everything, then for the payment to reach `status`. */
async function settledAs(farmer: ApiClient, id: number, status: string) {
  await gateway.settled();
  await expect.poll(async () => (await paymentOf(farmer, id)).payment.status).toBe(status);
  return paymentOf(farmer, id);
}

/** A webhook as the gateway would send it, signed with `secret`. */
function webhook(body: string, secret: string, eventId = `evt_Forged${Date.now()}`) {
  return fetch(`${worker.url}/api/payments/razorpay/webhook`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Razorpay-Signature": createHmac("sha256", secret).update(body).digest("hex"),
      "X-Razorpay-Event-Id": eventId,
    },
    body,
  });
}

function capturedBody(paymentId: string, orderId: string, amount: number) {
  return JSON.stringify({
    entity: "event",
    event: "payment.captured",
    contains: ["payment"],
    payload: { payment: { entity: { id: paymentId, amount, status: "captured", order_id: orderId, currency: "INR" } } },
    created_at: Math.floor(Date.now() / 1000),
  });
}

describe("recharges paid at the local gateway, against the real Worker", () => {
  it("a paid recharge extends the plan by the plan's length from the end of the free year, with GST split", async () => {
    const { farmer, mobileNo, freeYearEnds } = await farmerWithPlan();
    const { payment, linkId } = await checkout(farmer);
    expect(payment).toMatchObject({
      status: "created",
      amountPaise: 111100,
      gst: { taxablePaise: 94153, cgstPaise: 8473, sgstPaise: 8474 },
    });
    await gateway.pay(linkId);
    const paid = await settledAs(farmer, payment.id, "paid");
    expect(paid.plan?.expiresAt).toBe(new Date(addMonths(freeYearEnds, 12)).toISOString());
    expect(paid.plan?.upcoming).toHaveLength(1);
    // The receipt (a DLT template, in the checkout's language: English here) with the new end.
    const receipt = await phone.waitForSms(mobileNo, (sms) => sms.text.includes("receipt"));
    expect(receipt.text).toBe(
      `Sinchai: received ₹1,111, receipt sinchai-${payment.id}. The plan of pump ${receipt.text.match(/pump (\S+) now/)?.[1]} now runs until ${formatDate(paid.plan!.expiresAt, "en")}.`,
    );
  });

  it("a forged webhook (wrong secret, or a tampered body) is refused and changes nothing", async () => {
    const { farmer } = await farmerWithPlan();
    const { payment, linkId } = await checkout(farmer);
    const link = (await gateway.records()).links.find((candidate) => candidate.id === linkId)!;
    const body = capturedBody("pay_Forged00000001", link.orderId, 111100);
    expect((await webhook(body, "not-the-webhook-secret-0123456789abcdef")).status).toBe(403);
    const signed = createHmac("sha256", suite.razorpayWebhookSecret).update(body).digest("hex");
    const tampered = await fetch(`${worker.url}/api/payments/razorpay/webhook`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Razorpay-Signature": signed,
        "X-Razorpay-Event-Id": "evt_Tampered1",
      },
      body: body.replace("111100", "111101"),
    });
    expect(tampered.status).toBe(403);
    const unsigned = await fetch(`${worker.url}/api/payments/razorpay/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Razorpay-Event-Id": "evt_Unsigned1" },
      body,
    });
    expect(unsigned.status).toBe(403);
    expect((await paymentOf(farmer, payment.id)).payment.status).toBe("created");
  });

  it("a capture's events replayed, and delivered five times at once, extend the plan once and send one receipt", async () => {
    const { farmer, mobileNo, freeYearEnds } = await farmerWithPlan();
    const { payment, linkId } = await checkout(farmer, "1month");
    await gateway.delivery("inOrder", 5);
    const { events } = await gateway.pay(linkId);
    await settledAs(farmer, payment.id, "paid");
    for (const eventId of events) await gateway.redeliver(eventId);
    await gateway.settled();
    const { plan } = await paymentOf(farmer, payment.id);
    expect(plan?.upcoming).toHaveLength(1);
    expect(plan?.expiresAt).toBe(new Date(addMonths(freeYearEnds, 1)).toISOString());
    // Every delivery was answered 200: the gateway stops retrying a replay.
    const delivered = (await gateway.records()).events.filter((event) => events.includes(event.id));
    expect(delivered.flatMap((event) => event.deliveries).every((answer) => answer === 200)).toBe(true);
    await phone.waitForSms(mobileNo, (sms) => sms.text.includes("receipt"));
    await phone.settled();
    expect(
      (await phone.records()).sms.filter((sms) => sms.to === mobileNo && sms.text.includes("receipt")),
    ).toHaveLength(1);
  });

  it("a capture's events out of order extend the plan once", async () => {
    for (const order of ["reversed", "shuffled"] as const) {
      const { farmer, freeYearEnds } = await farmerWithPlan();
      const { payment, linkId } = await checkout(farmer, "1month");
      await gateway.delivery(order, 2);
      await gateway.pay(linkId);
      const { plan } = await settledAs(farmer, payment.id, "paid");
      expect(plan?.upcoming, order).toHaveLength(1);
      expect(plan?.expiresAt, order).toBe(new Date(addMonths(freeYearEnds, 1)).toISOString());
    }
  });

  it("an amount that is not the plan's is held for an admin and extends nothing", async () => {
    const { farmer, freeYearEnds } = await farmerWithPlan();
    const { payment, linkId } = await checkout(farmer);
    await gateway.pay(linkId, 100);
    const { plan } = await settledAs(farmer, payment.id, "held");
    expect(plan?.expiresAt).toBe(new Date(freeYearEnds).toISOString());
    const admin = await suite.admin.get("/api/admin/payments", adminPaymentListResponseSchema);
    expect(admin.data.find((row) => row.id === payment.id)).toMatchObject({
      status: "held",
      flag: "amountMismatch",
      capturedPaise: 100,
      amountPaise: 111100,
    });
  });

  it("a refund after the capture is shown to the admin and does not take the plan back", async () => {
    const { farmer, freeYearEnds } = await farmerWithPlan();
    const { payment, linkId } = await checkout(farmer, "1month");
    const { paymentId } = await gateway.pay(linkId);
    await settledAs(farmer, payment.id, "paid");
    await gateway.refund(paymentId);
    const { plan } = await settledAs(farmer, payment.id, "refunded");
    expect(plan?.expiresAt).toBe(new Date(addMonths(freeYearEnds, 1)).toISOString());
    // Its audit trail: every verified webhook about it, in order, and what each did.
    const trail = await suite.admin.get(`/api/admin/payments/${payment.id}`, adminPaymentResponseSchema);
    expect(trail.events.map((event) => [event.type, event.outcome])).toEqual([
      ["payment.captured", "applied"],
      ["order.paid", "unchanged"],
      ["payment_link.paid", "unchanged"],
      ["refund.processed", "flagged"],
    ]);
    const admin = await suite.admin.get("/api/admin/payments", adminPaymentListResponseSchema);
    expect(admin.data.find((row) => row.id === payment.id)).toMatchObject({
      status: "refunded",
      flag: "refunded",
      refundedPaise: 39900,
      gatewayPaymentId: paymentId,
    });
  });

  it("a failure reported after the capture is flagged for the admin and takes nothing back", async () => {
    const { farmer, freeYearEnds } = await farmerWithPlan();
    const { payment, linkId } = await checkout(farmer, "1month");
    const { paymentId, orderId } = await gateway.pay(linkId);
    await settledAs(farmer, payment.id, "paid");
    const failed = JSON.stringify({
      entity: "event",
      event: "payment.failed",
      contains: ["payment"],
      payload: { payment: { entity: { id: paymentId, amount: 39900, status: "failed", order_id: orderId } } },
    });
    const answer = await webhook(failed, suite.razorpayWebhookSecret, `evt_LateFail${Date.now()}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true, outcome: "flagged" });
    const after = await paymentOf(farmer, payment.id);
    expect(after.payment.status).toBe("paid");
    expect(after.plan?.expiresAt).toBe(new Date(addMonths(freeYearEnds, 1)).toISOString());
    const admin = await suite.admin.get("/api/admin/payments", adminPaymentListResponseSchema);
    expect(admin.data.find((row) => row.id === payment.id)?.flag).toBe("failedAfterCapture");
  });

  it("a failed attempt leaves the link payable, and paying it then extends the plan", async () => {
    const { farmer } = await farmerWithPlan();
    const { payment, linkId } = await checkout(farmer, "1month");
    await gateway.fail(linkId);
    const failed = await settledAs(farmer, payment.id, "failed");
    expect(failed.payment.payUrl).not.toBeNull();
    await gateway.pay(linkId);
    await settledAs(farmer, payment.id, "paid");
  });

  it("the same plan asked for again while unpaid is the same checkout; a paid one is not reused", async () => {
    const { farmer } = await farmerWithPlan();
    const first = await checkout(farmer, "6month");
    const again = await checkout(farmer, "6month");
    expect(again.payment.id).toBe(first.payment.id);
    expect(again.payUrl).toBe(first.payUrl);
    const other = await checkout(farmer, "3month");
    expect(other.payment.id).not.toBe(first.payment.id);
    await gateway.pay(first.linkId);
    await settledAs(farmer, first.payment.id, "paid");
    expect((await checkout(farmer, "6month")).payment.id).not.toBe(first.payment.id);
  });

  it("a farmer cannot read another farmer's payment", async () => {
    const { farmer } = await farmerWithPlan();
    const { farmer: other } = await farmerWithPlan();
    const { payment } = await checkout(farmer, "1month");
    const answer = await other.request("GET", `/api/payments/${payment.id}`, paymentResponseSchema);
    expect(answer.status).toBe(404);
  });
});

describe("the daily reconciliation against the gateway's settlement report", () => {
  it("flags a settled payment unknown here, one never paid here, one at another amount and an unknown refund; a match is not flagged", async () => {
    const { farmer } = await farmerWithPlan();
    const matched = await checkout(farmer, "1month");
    const { paymentId } = await gateway.pay(matched.linkId);
    await settledAs(farmer, matched.payment.id, "paid");
    const unpaid = await checkout(farmer, "1month");
    const link = (await gateway.records()).links.find((candidate) => candidate.id === unpaid.linkId)!;
    const today = new Date(Date.now() + 5.5 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const unknown = `pay_Unknown${Date.now()}`;
    await gateway.settlement({
      type: "payment",
      entityId: unknown,
      orderId: "order_Elsewhere0001",
      amountPaise: 5000,
      day: today,
    });
    await gateway.settlement({
      type: "payment",
      entityId: `pay_Missed${Date.now()}`,
      orderId: link.orderId,
      amountPaise: 39900,
      day: today,
    });
    await gateway.settlement({ type: "payment", entityId: paymentId, amountPaise: 100, day: today });
    const refund = `rfnd_Unknown${Date.now()}`;
    await gateway.settlement({ type: "refund", entityId: refund, paymentId, amountPaise: 39900, day: today });

    // The cron of tomorrow reads today's report (wrangler dev's scheduled handler, at a given time).
    const tomorrow = Date.now() + 24 * 60 * 60 * 1000;
    const cron = await fetch(`${worker.url}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*&time=${tomorrow}`);
    expect(cron.status).toBe(200);
    const flags = async () => (await suite.admin.get("/api/admin/payments", adminPaymentListResponseSchema)).reconFlags;
    await expect
      .poll(async () => (await flags()).filter((flag) => flag.day === today).length)
      .toBeGreaterThanOrEqual(4);
    const ofToday = (await flags()).filter((flag) => flag.day === today);
    expect(ofToday.find((flag) => flag.gatewayRef === unknown)?.kind).toBe("unknownPayment");
    expect(ofToday.find((flag) => flag.kind === "notPaidHere" && flag.paymentId === unpaid.payment.id)).toBeDefined();
    expect(ofToday.find((flag) => flag.gatewayRef === paymentId)).toMatchObject({
      kind: "amountMismatch",
      paymentId: matched.payment.id,
    });
    expect(ofToday.find((flag) => flag.gatewayRef === refund)?.kind).toBe("unknownRefund");
    // The capture that matches its line is not flagged as such: only the extra line at 100 paise is.
    expect(ofToday.filter((flag) => flag.gatewayRef === paymentId)).toHaveLength(1);
    // Once a day: the same day's cron again reads nothing more.
    expect((await fetch(`${worker.url}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*&time=${tomorrow}`)).status).toBe(200);
  });
});

describe("an outside client written from docs/payments.md alone", () => {
  it("logs in, pays a plan at the local gateway and reads the plan's new validity, with plain fetch", async () => {
    const { mobileNo, freeYearEnds } = await farmerWithPlan();
    // What the docs say these answers carry, and nothing of the project's own code.
    type Answer = {
      token: string;
      payUrl: string;
      payment: { id: number; status: string };
      plan: { expiresAt: string };
    };
    const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as Answer });
    const login = await json(
      await fetch(`${worker.url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ mobileNo, password: "integration-password" }),
      }),
    );
    expect(login.status).toBe(200);
    const auth = { Authorization: `Bearer ${login.body.token}`, "Content-Type": "application/json" };
    const checkout = await json(
      await fetch(`${worker.url}/api/payments/checkout`, { method: "POST", headers: auth, body: '{"plan":"1year"}' }),
    );
    expect(checkout.status).toBe(201);
    const linkId = new URL(checkout.body.payUrl).pathname.split("/").pop();
    const paid = await fetch(`${suite.gatewayUrl}/__pay`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ linkId }),
    });
    expect(paid.status).toBe(200);
    await expect
      .poll(
        async () =>
          (await json(await fetch(`${worker.url}/api/payments/${checkout.body.payment.id}`, { headers: auth }))).body
            .payment.status,
      )
      .toBe("paid");
    const read = await json(await fetch(`${worker.url}/api/payments/${checkout.body.payment.id}`, { headers: auth }));
    expect(read.body.plan.expiresAt).toBe(new Date(addMonths(freeYearEnds, 12)).toISOString());
  });
});
