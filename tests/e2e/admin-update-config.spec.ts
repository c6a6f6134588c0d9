// /admin/users/{id}/update-config: read-only number, three required numbers in steps of 0.1,
// the voltage limits in the box's kind's ranges; the change reaches the box and the config
// history names the admin and what changed; a change that weakens protection asks first, with
// script and without.
import { expect } from "@playwright/test";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { adminLogIn, DEMO_ADMIN, farmerWithDevice, indianNumber, test, texts } from "./admin-support.ts";
import { fitsTheScreen } from "./support.ts";

test("an admin's config change reaches the box and is recorded with who and what (English)", async ({
  page,
  english: t,
  adminWithFarmer,
}) => {
  const { farmer, device } = await adminWithFarmer(t, (farmer) => `/admin/users/${farmer.id}`);
  await page.getByRole("link", { name: t["admin.user.updateConfig"] }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/users/${farmer.id}/update-config$`));
  await expect(page.getByRole("heading", { name: t["admin.config.title"] })).toBeVisible();

  const mobile = page.getByLabel(t["admin.config.mobileNo"]);
  await expect(mobile).toHaveValue(farmer.mobileNo);
  await expect(mobile).toHaveAttribute("readonly", "");
  const current = page.getByLabel(t["admin.config.defaultCurrent"]);
  const dryRun = page.getByLabel(t["admin.config.dryRunThreshold"]);
  const overCurrent = page.getByLabel(t["admin.config.overCurrentThreshold"]);
  for (const field of [current, dryRun, overCurrent]) {
    await expect(field).toHaveAttribute("type", "number");
    await expect(field).toHaveAttribute("step", "0.1");
    await expect(field).toHaveAttribute("required", "");
  }
  await expect(current).toHaveValue("1");
  await expect(dryRun).toHaveValue("30");

  // The browser refuses an empty field and a value between steps; nothing is sent.
  type Validity = { validity: { valueMissing: boolean; stepMismatch: boolean } };
  const validity = () =>
    current.evaluate((input) => {
      const { valueMissing, stepMismatch } = (input as unknown as Validity).validity;
      return { valueMissing, stepMismatch };
    });
  const submit = page.getByRole("button", { name: t["admin.config.submit"] });
  await current.fill("");
  await submit.click();
  expect((await validity()).valueMissing).toBe(true);
  await current.fill("8.95");
  await submit.click();
  expect((await validity()).stepMismatch).toBe(true);
  expect(device.config.defaultCurrent).toBe(1);

  await current.fill("8.9");
  await dryRun.fill("25.5");
  await overCurrent.fill("40");
  await submit.click();
  await expect(page.getByTestId("toast").filter({ hasText: t["admin.config.updated"] })).toBeVisible();
  // It reached the box.
  await expect
    .poll(() => device.config)
    .toMatchObject({ defaultCurrent: 8.9, dryRunThreshold: 25.5, overCurrentThreshold: 40 });

  await page.getByRole("link", { name: t["admin.common.back"] }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/users/${farmer.id}$`));
  await expect(page.getByTestId("detail-default-current")).toHaveText(`${indianNumber(8.9, "en")} A`);
  const history = page.getByTestId("config-history");
  await expect(history.locator("tbody tr")).toHaveCount(1);
  await expect(history).toContainText(
    `Admin ${DEMO_ADMIN.mobileNo}: default current 1 → 8.9 A, dry run threshold 30 → 25.5 %, over current threshold 30 → 40 %`,
  );
  await expect(history.locator("tbody tr").first()).toContainText(DEMO_ADMIN.mobileNo);
});

test("an offline box gets the change later; an unknown user shows the spec's message (Hindi)", async ({
  page,
  request,
}) => {
  const t = texts.hi;
  const { farmer, device } = await farmerWithDevice(request);
  await device.stop();
  await adminLogIn(page, t);
  await page.goto(`/admin/users/${farmer.id}/update-config`);
  await page.getByLabel(t["admin.config.defaultCurrent"]).fill("12");
  await page.getByRole("button", { name: t["admin.config.submit"] }).click();
  await expect(page.getByTestId("toast").filter({ hasText: t["admin.config.notDelivered"] })).toBeVisible();
  device.start();
  await device.waitUntilConnected(CONDITION_LIMIT_MS);
  await expect.poll(() => device.config.defaultCurrent).toBe(12);
  await device.stop();

  const response = await page.goto("/admin/users/987654321/update-config");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("load-error")).toHaveText(t["admin.config.fetchFailed"]);
});

test("a change that weakens protection asks first, old → new, then saves when confirmed (English, 360 px)", async ({
  page,
  english: t,
  adminWithFarmer,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const { farmer, device } = await adminWithFarmer(t, (farmer) => `/admin/users/${farmer.id}/update-config`);
  // The box's kind's ranges, as the server holds them.
  const overVoltage = page.getByLabel(t["admin.config.overVoltage"]);
  await expect(overVoltage).toHaveAttribute("max", "495");
  await expect(page.locator("label", { has: overVoltage })).toContainText("allowed 430 to 495");
  await page.getByLabel(t["admin.config.dryRunThreshold"]).fill("90");
  await page.getByRole("button", { name: t["admin.config.submit"] }).click();
  const step = page.getByTestId("config-weaker");
  await expect(step).toContainText(t["admin.config.weakerTitle"]);
  await expect(step.getByRole("listitem")).toHaveText([`${t["admin.config.dryRunThreshold"]}: 30 → 90`]);
  expect(await fitsTheScreen(page)).toBe(true);
  expect(device.config.dryRunThreshold).toBe(30);
  await step.getByRole("button", { name: t["admin.config.weakerSave"] }).click();
  await expect(page.getByTestId("toast").filter({ hasText: t["admin.config.updated"] })).toBeVisible();
  await expect.poll(() => device.config.dryRunThreshold).toBe(90);

  await page.goto(`/admin/users/${farmer.id}`);
  await expect(page.getByTestId("config-history")).toContainText(
    "weaker protection confirmed: dry run threshold 30 → 90 %",
  );
});

test("without JavaScript the form saves, and a weakening change comes back as a confirm step (Hindi)", async ({
  browser,
  request,
}) => {
  const t = texts.hi;
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const { farmer, device } = await farmerWithDevice(request);
  try {
    await adminLogIn(page, t);
    await page.goto(`/admin/users/${farmer.id}/update-config`);
    await page.getByLabel(t["admin.config.defaultCurrent"]).fill("9.5");
    await page.getByRole("button", { name: t["admin.config.submit"] }).click();
    await expect(page.getByTestId("config-result")).toHaveText(t["admin.config.updated"]);
    await expect.poll(() => device.config.defaultCurrent).toBe(9.5);

    await page.getByLabel(t["admin.config.underVoltage"]).fill("300");
    await page.getByRole("button", { name: t["admin.config.submit"] }).click();
    const step = page.getByTestId("config-weaker");
    await expect(step.getByRole("listitem")).toHaveText([`${t["admin.config.underVoltage"]}: 340 → 300`]);
    expect(device.config.underVoltage).toBe(340);
    await step.getByRole("button", { name: t["admin.config.weakerSave"] }).click();
    await expect(page.getByTestId("config-result")).toHaveText(t["admin.config.updated"]);
    await expect.poll(() => device.config.underVoltage).toBe(300);
  } finally {
    await device.stop();
    await context.close();
  }
});
