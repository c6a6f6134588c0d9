// Logout asks first, in a dialog with JavaScript and on a page of its own without, at 360 px with
// every control of the question at least 44 × 44 px (touch-targets.ts; every farmer page's own
// controls are measured where it is opened for its look, screens.spec.ts).
import { type Browser, expect, test } from "@playwright/test";
import { farmerWithDevice } from "./admin-support.ts";
import { en, hi, logIn, useLanguage } from "./support.ts";
import { smallTargets } from "./touch-targets.ts";

/** A 360 px phone of its own (the language is set on it before its first page). */
function phone(browser: Browser, javaScriptEnabled = true) {
  return browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled });
}

test("logout asks first: Cancel keeps the farmer in, Yes logs out (Hindi, 360 px)", async ({ browser, request }) => {
  const { farmer, device } = await farmerWithDevice(request);
  await device.stop();
  const context = await phone(browser);
  await useLanguage(context, "hi");
  const page = await context.newPage();
  await logIn(page, farmer.mobileNo, farmer.password);
  const logout = page.getByRole("button", { name: hi["shell.logout"], exact: true });
  const box = await logout.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);

  await logout.click();
  const dialog = page.getByRole("dialog", { name: hi["logout.title"] });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(hi["logout.question"]);
  expect(await smallTargets(page)).toEqual([]);
  await dialog.getByRole("button", { name: hi["logout.cancel"] }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page).toHaveURL(/\/motor-control$/);

  await logout.click();
  await page.getByRole("button", { name: hi["logout.confirm"], exact: true }).click();
  await expect(page).toHaveURL(/\/\?loggedOut=1$/);
  await page.goto("/motor-control");
  await expect(page).not.toHaveURL(/\/motor-control$/);
  await context.close();
});

test("without JavaScript logout asks on a page of its own; from /logs, Yes ends at /login and No goes back (English)", async ({
  browser,
  request,
}) => {
  const { farmer, device } = await farmerWithDevice(request);
  await device.stop();
  const context = await phone(browser, false);
  await useLanguage(context, "en");
  const page = await context.newPage();
  await logIn(page, farmer.mobileNo, farmer.password, en);
  await page.goto("/logs");
  await page.getByRole("button", { name: en["shell.logout"], exact: true }).click();
  await expect(page).toHaveURL(/\/logout\?from=%2Flogs$/);
  await expect(page.getByRole("heading", { name: en["logout.title"] })).toBeVisible();
  expect(await smallTargets(page)).toEqual([]);
  await page.getByRole("link", { name: en["logout.cancel"] }).click();
  await expect(page).toHaveURL(/\/logs$/);

  await page.getByRole("button", { name: en["shell.logout"], exact: true }).click();
  await page.getByRole("button", { name: en["logout.confirm"], exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/logs");
  await expect(page).toHaveURL(/\/$/);
  // Nobody is asked without a session: the question page sends them home.
  await page.goto("/logout");
  await expect(page).toHaveURL(/\/$/);
  await context.close();
});
