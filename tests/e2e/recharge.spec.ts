// My Plan: the device's plan as the server knows it, a plan paid by UPI at the payment gateway
// (the local gateway of `npm start`) and its new validity once the server knows the capture, a
// recharge request for cash or a bank transfer with the spec's messages, and the farmer's own
// requests and payments.
import { expect, test } from "@playwright/test";
import { readJson } from "../../common/api-client.ts";
import { rechargeListResponseSchema } from "../../common/api-responses/recharges.ts";
import type { SimulatedDevice } from "../../device-sim/simulated-device.ts";
import { adminApiToken } from "./admin-support.ts";
import { wrongScript } from "./page-words.ts";
import {
  DEMO_USER,
  en,
  hi,
  logIn,
  registerAndLogIn,
  startDemoDevice,
  toast,
  useLanguage,
  VIEWPORTS,
} from "./support.ts";

let device: SimulatedDevice;

test.beforeEach(async ({ request }) => {
  // Its first hello starts the free year: the demo pump's plan exists whatever ran before.
  device = await startDemoDevice();
  // One pending request per device: an earlier test's request is taken off the demo pump.
  const admin = { headers: { Authorization: `Bearer ${await adminApiToken(request)}` } };
  const listed = await readJson(await request.get("/api/admin/recharge-requests", admin), rechargeListResponseSchema);
  for (const pending of listed.data.filter((row) => row.mobileNo === DEMO_USER.mobileNo && row.status === "pending")) {
    expect((await request.delete(`/api/recharge/${pending.id}`, admin)).ok()).toBe(true);
  }
});

test.afterEach(async () => {
  await device.stop();
});

test("the free plan is active, and a 1-year plan paid by UPI at the gateway shows its new validity (Hindi, 360 px)", async ({
  page,
}) => {
  await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password);
  await page.getByRole("link", { name: hi["nav.plan"] }).click();
  await expect(page).toHaveURL(/\/recharge$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(hi["plan.title"]);
  const card = page.getByTestId("plan-card");
  await expect(card.getByTestId("plan-name")).toHaveText(hi["plan.name.free"]);
  const badge = card.getByTestId("plan-status");
  await expect(badge).toHaveText(hi["plan.active"]);
  expect(await badge.evaluate((element) => getComputedStyle(element).color)).toBe("rgb(31, 111, 67)"); // green
  // Indian dates: day, month, year.
  await expect(card.getByTestId("plan-activated")).toHaveText(/^\d{1,2} \S+ \d{4}$/);
  const before = await card.getByTestId("plan-expires").textContent();

  await page.getByTestId("plan-renew").click();
  await expect(page.getByRole("radio", { name: new RegExp(hi["plan.name.1year"]) })).toBeChecked();
  await expect(page.getByText(hi["plan.bestValue"])).toBeVisible();
  await expect(page.getByRole("radio", { name: hi["plan.method.upi"] })).toBeChecked();
  await expect(page.getByTestId("plan-upi-online")).toHaveText(hi["plan.upiOnline"]);
  await expect(page.getByText(DEMO_USER.mobileNo, { exact: true })).toBeVisible();
  await page.getByRole("button", { name: hi["plan.submit"] }).click();

  // The gateway's page (the local gateway, as Razorpay's): the server's price, paid by UPI.
  await expect(page.getByTestId("gateway-amount")).toHaveText("₹1111.00");
  await expect(page.getByRole("link", { name: "Pay with a UPI app" })).toBeVisible(); // a phone: the app's intent
  await page.getByTestId("gateway-pay").click();

  // Back on My Plan: the validity the server knows once the gateway's webhook confirmed the capture.
  await expect(page).toHaveURL(/\/recharge\?payment=\d+/);
  const paid = page.getByTestId("plan-payment");
  await expect(paid).toHaveAttribute("data-status", "paid");
  const expires = page.getByTestId("plan-card").getByTestId("plan-expires");
  await expect(expires).not.toHaveText(before!);
  const validity = await expires.textContent();
  await expect(paid.getByTestId("plan-payment-paid")).toHaveText(hi["plan.payment.paid"].replace("{date}", validity!));
  await expect(page.getByTestId("plan-upcoming")).toContainText(hi["plan.name.1year"]);
  const first = page.getByTestId("payment-item").first();
  await expect(first).toContainText(hi["plan.name.1year"]);
  await expect(first).toContainText("₹1,111");
  await expect(first).toContainText(hi["plan.paymentStatus.paid"]);
  expect(await wrongScript(page, "hi")).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test("a 1-month request by cash at a dealer is filed for an admin, one at a time (Hindi)", async ({ page }) => {
  await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password);
  await page.goto("/recharge?renew");
  await page.getByRole("radio", { name: new RegExp(hi["plan.name.1month"]) }).check();
  await page.getByRole("radio", { name: hi["plan.method.cash"] }).check();
  await page.getByRole("button", { name: hi["plan.submit"] }).click();
  await expect(toast(page, hi["plan.submitted"])).toBeVisible();
  await expect(page.getByTestId("plan-next-steps")).toContainText(hi["plan.contactSoon"]);
  const first = page.getByTestId("request-item").first();
  await expect(first).toContainText(hi["plan.name.1month"]);
  await expect(first).toContainText("₹399");
  await expect(first).toContainText(hi["plan.request.pending"]);
  // One request at a time: no second form until this one is decided, and the page says why.
  await page.reload();
  await expect(page.getByTestId("plan-pending-note")).toHaveText(hi["plan.alreadyPending"]);
  await expect(page.getByTestId("plan-renew")).toHaveCount(0);
});

test.describe("in English on a wide screen", () => {
  test.use({ viewport: VIEWPORTS.desktop });

  test("a 3-month bank transfer request shows the loading toast, then the request", async ({ page, context }) => {
    await useLanguage(context, "en");
    await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password, en);
    await page.goto("/recharge");
    await page.getByTestId("plan-renew").click();
    await page.getByRole("radio", { name: new RegExp(en["plan.name.3month"]) }).check();
    await page.getByRole("radio", { name: en["plan.method.bank"] }).check();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The form posts to the page's own action (as data when the page's script runs).
    await page.route(/\/recharge(\.data)?(\?.*)?$/, async (route) => {
      if (route.request().method() === "POST") await released; // hold the real request back a moment
      await route.continue();
    });
    await page.getByRole("button", { name: en["plan.submit"] }).click();
    await expect(toast(page, en["plan.submitting"])).toBeVisible();
    await expect(page.getByRole("button", { name: en["plan.submittingButton"] })).toBeDisabled();
    release();
    await expect(toast(page, en["plan.submitted"])).toBeVisible();
    await expect(toast(page, en["plan.submitting"])).toHaveCount(0);
    await expect(page.getByTestId("upi-link")).toHaveCount(0);
    await expect(page.getByTestId("plan-next-steps")).toContainText(en["plan.contactSoon"]);
    const first = page.getByTestId("request-item").first();
    await expect(first).toContainText(en["plan.name.3month"]);
    await expect(first).toContainText("₹777");
    await expect(first).toContainText(en["plan.method.bank"]);
    await expect(first).toContainText(en["plan.request.pending"]);
  });
});

test("a farmer without a device cannot recharge and is told why", async ({ page, context }) => {
  await useLanguage(context, "en");
  await registerAndLogIn(page, en);
  await page.goto("/recharge");
  await expect(page.getByTestId("plan-none")).toHaveText(en["motor.noDevice"]);
  await page.getByTestId("plan-renew").click();
  await page.getByRole("button", { name: en["plan.submit"] }).click();
  await expect(page.getByTestId("plan-error")).toHaveText(`${en["plan.submitFailed"]} ${en["motor.noDevice"]}`);
  await expect(page.getByTestId("request-item")).toHaveCount(0);
});
