// /admin/recharges: the farmer's requests with the spec's columns; mark paid (the farmer's plan
// grows by the plan's length) or failed only while pending, delete in any status, each after
// the confirmation of SPEC §4; the list reloads. Below them, the payments taken online, with the
// gateway's reference and why one needs a look.
import { expect } from "@playwright/test";
import { readJson } from "../../common/api-client.ts";
import { paymentCheckoutResponseSchema } from "../../common/api-responses/payments.ts";
import { planResponseSchema, rechargeRequestResponseSchema } from "../../common/api-responses/recharges.ts";
import { addMonths } from "../../common/plans.ts";
import { localGatewayClient } from "../../payments-sim/client.ts";
import { E2E_PERSIST_DIR } from "../../playwright.config.ts";
import { readLocalPaymentsUrl } from "../../scripts/lib/local-payments.ts";
import { adminApiToken, adminLogIn, bearer, farmerWithDevice, indianRupees, test, texts } from "./admin-support.ts";
import { en, logIn, useLanguage } from "./support.ts";

// A wide screen: the table with its column headers (phones get one card per row).
test.use({ viewport: { width: 1280, height: 900 } });

test("mark paid extends the farmer's plan; mark failed; delete; only pending can be marked (English)", async ({
  page,
  english: t,
  request,
}) => {
  const { farmer, device } = await farmerWithDevice(request);
  const plan = async () =>
    (await readJson(await request.get("/api/recharge/plan", bearer(farmer.token)), planResponseSchema)).plan;
  // The first hello started the free year.
  await expect.poll(async () => (await plan())?.plan).toBe("free");
  const freeYear = (await plan())!;
  const submit = async (body: object) =>
    (
      await readJson(
        await request.post("/api/recharge/request", { data: body, ...bearer(farmer.token) }),
        rechargeRequestResponseSchema,
      )
    ).request.id;
  const yearly = await submit({ plan: "1year", paymentMethod: "upi" });
  // One pending request per device: a second one waits until the first is decided.
  const second = await request.post("/api/recharge/request", {
    data: { plan: "1month", paymentMethod: "cash" },
    ...bearer(farmer.token),
  });
  expect(second.status()).toBe(409);

  await adminLogIn(page, t);
  await page.goto("/admin/recharges");
  await expect(page.getByRole("heading", { name: t["admin.recharges.title"] })).toBeVisible();
  // The spec's columns as the reader sees them, in order.
  const headers = page.getByTestId("recharges-table").getByRole("columnheader");
  await expect(headers).toHaveText([
    "Mobile No",
    "Plan",
    "Amount",
    "Payment Method",
    "Status",
    "Requested At",
    "Actions",
  ]);
  const yearlyRow = page.getByTestId(`recharge-row-${yearly}`);
  await expect(yearlyRow).toContainText(farmer.mobileNo);
  await expect(yearlyRow).toContainText(t["admin.plan.1year"]);
  await expect(yearlyRow).toContainText(indianRupees(1111, "en"));
  await expect(yearlyRow).toContainText(t["admin.payment.upi"]);
  await expect(yearlyRow.getByTestId("recharge-status")).toHaveText(t["admin.status.pending"]);

  // Cancel changes nothing.
  const dialog = page.getByTestId("confirm-dialog");
  await yearlyRow.getByRole("button", { name: t["admin.recharges.markPaid"] }).click();
  await expect(dialog).toContainText("Are you sure you want to mark as paid this request?");
  await dialog.getByRole("button", { name: t["admin.common.cancel"] }).click();
  await expect(dialog).toBeHidden();
  await expect(yearlyRow.getByTestId("recharge-status")).toHaveText(t["admin.status.pending"]);
  expect((await plan())!.expiresAt).toBe(freeYear.expiresAt);

  // Confirm: paid, the buttons go, and the plan runs a year longer.
  await yearlyRow.getByRole("button", { name: t["admin.recharges.markPaid"] }).click();
  await dialog.getByRole("button", { name: t["admin.common.confirm"] }).click();
  await expect(page.getByTestId("toast")).toContainText(t["admin.recharges.statusUpdated"]);
  await expect(yearlyRow.getByTestId("recharge-status")).toHaveText(t["admin.status.paid"]);
  await expect(yearlyRow.getByRole("button", { name: t["admin.recharges.markPaid"] })).toHaveCount(0);
  await expect(yearlyRow.getByRole("button", { name: t["admin.recharges.markFailed"] })).toHaveCount(0);
  const extended = (await plan())!;
  expect(extended.status).toBe("active");
  expect(extended.expiresAt).toBe(new Date(addMonths(new Date(freeYear.expiresAt).getTime(), 12)).toISOString());
  // The server refuses a second decision too.
  expect(
    (
      await request.put(`/api/recharge/status/${yearly}`, {
        data: { status: "failed" },
        ...bearer(await adminApiToken(request)),
      })
    ).status(),
  ).toBe(409);

  // Decided: the farmer may ask again.
  const monthly = await submit({ plan: "1month", paymentMethod: "cash" });
  await page.reload();
  const monthlyRow = page.getByTestId(`recharge-row-${monthly}`);
  await expect(monthlyRow).toContainText(t["admin.payment.cash"]);
  await monthlyRow.getByRole("button", { name: t["admin.recharges.markFailed"] }).click();
  await expect(dialog).toContainText("Are you sure you want to mark as failed this request?");
  await dialog.getByRole("button", { name: t["admin.common.confirm"] }).click();
  await expect(monthlyRow.getByTestId("recharge-status")).toHaveText(t["admin.status.failed"]);
  expect((await plan())!.expiresAt).toBe(extended.expiresAt);

  // The farmer's own card tells the free year from the paid one that follows it.
  const farmerPage = await page.context().browser()!.newPage();
  await useLanguage(farmerPage.context(), "en");
  await logIn(farmerPage, farmer.mobileNo, farmer.password, en);
  await farmerPage.goto("/recharge");
  const card = farmerPage.getByTestId("plan-card");
  await expect(card.getByTestId("plan-name")).toHaveText(en["plan.name.free"]);
  await expect(card.getByTestId("plan-upcoming")).toHaveCount(1);
  await expect(card.getByTestId("plan-upcoming")).toContainText(en["plan.name.1year"]);
  await farmerPage.close();

  // Delete works in any status.
  await yearlyRow.getByRole("button", { name: t["admin.recharges.delete"] }).click();
  await expect(dialog).toContainText("Are you sure you want to delete this request?");
  await dialog.getByRole("button", { name: t["admin.common.confirm"] }).click();
  await expect(page.getByTestId("toast").filter({ hasText: t["admin.recharges.deleted"] })).toBeVisible();
  await expect(yearlyRow).toHaveCount(0);
  // Deleting a paid request does not shorten the plan (docs/decisions/006).
  expect((await plan())!.expiresAt).toBe(extended.expiresAt);
  await device.stop();
});

test("online payments are listed with the gateway's reference: paid, pending, held with why, and cash marked by hand (Hindi)", async ({
  page,
  request,
}) => {
  const t = texts.hi;
  const { farmer, device } = await farmerWithDevice(request);
  await expect
    .poll(
      async () =>
        (await readJson(await request.get("/api/recharge/plan", bearer(farmer.token)), planResponseSchema)).plan,
    )
    .not.toBeNull();
  const gateway = localGatewayClient(await readLocalPaymentsUrl(E2E_PERSIST_DIR));
  const checkout = async (plan: string) => {
    const answer = await readJson(
      await request.post("/api/payments/checkout", { data: { plan }, ...bearer(farmer.token) }),
      paymentCheckoutResponseSchema,
    );
    return { id: answer.payment.id, linkId: answer.payUrl.split("/").pop()! };
  };
  const paid = await checkout("1year");
  const { paymentId } = await gateway.pay(paid.linkId);
  const held = await checkout("1month");
  await gateway.pay(held.linkId, 100);
  const pending = await checkout("3month");
  await gateway.settled();

  await adminLogIn(page, t);
  await page.goto("/admin/recharges");
  await expect(page.getByTestId("recharges-cash-note")).toHaveText(t["admin.recharges.cashNote"]);
  const section = page.getByTestId("payments-section");
  await expect(section.getByRole("heading", { level: 2 })).toHaveText(t["admin.payments.title"]);
  const paidRow = section.getByTestId(`payment-row-${paid.id}`);
  await expect(paidRow.getByTestId("payment-status")).toHaveText(t["admin.payments.status.paid"]);
  await expect(paidRow.getByTestId("payment-reference")).toHaveText(paymentId);
  await expect(paidRow).toContainText(farmer.mobileNo);
  await expect(paidRow).toContainText(indianRupees(1111, "hi"));
  const heldRow = section.getByTestId(`payment-row-${held.id}`);
  await expect(heldRow.getByTestId("payment-status")).toHaveText(t["admin.payments.status.held"]);
  await expect(heldRow.getByTestId("payment-flag")).toHaveText(
    t["admin.payments.flag.amountMismatch"].replace("{amount}", indianRupees(1, "hi")),
  );
  const pendingRow = section.getByTestId(`payment-row-${pending.id}`);
  await expect(pendingRow.getByTestId("payment-status")).toHaveText(t["admin.payments.status.created"]);
  await expect(pendingRow.getByTestId("payment-reference")).toHaveText(pending.linkId);
  await device.stop();
});
