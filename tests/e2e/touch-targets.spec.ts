// Farmer pages at 360 px: every control at least 44 × 44 px and the run-hours chart's labels at
// least 12 px (tests/e2e/touch-targets.ts), in Hindi and English; and logout asks first, in a
// dialog with JavaScript and on a page of its own without.
import { type Browser, expect, type Page, test } from "@playwright/test";
import { motorCommandResponseSchema } from "../../common/api-responses/devices.ts";
import { rechargeRequestResponseSchema } from "../../common/api-responses/recharges.ts";
import { scheduleResponseSchema } from "../../common/api-responses/schedules.ts";
import { farmerWithDevice } from "./admin-support.ts";
import { apiClient, en, hi, logIn, type Texts, useLanguage } from "./support.ts";
import { smallChartText, smallTargets } from "./touch-targets.ts";

const PUBLIC_PAGES = ["/", "/login", "/register", "/login-code", "/forgot-password"];
const USER_PAGES = [
  "/motor-control",
  "/motor-schedule",
  "/recharge",
  "/logs",
  "/change-password",
  "/alerts",
  "/pump-people",
  "/logout",
];

async function checkPage(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  expect(await smallTargets(page), `${path}: controls under 44 px`).toEqual([]);
  expect(await smallChartText(page), `${path}: chart labels under 12 px`).toEqual([]);
}

/** A 360 px phone of its own (the language is set on it before its first page). */
function phone(browser: Browser, javaScriptEnabled = true) {
  return browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled });
}

for (const [language, texts] of [
  ["hi", hi],
  ["en", en],
] as const) {
  test(`no control under 44 px on any farmer page at 360 px, and no chart label under 12 px (${language})`, async ({
    browser,
    request,
  }) => {
    const anonymous = await phone(browser);
    await useLanguage(anonymous, language);
    const signedIn = await phone(browser);
    await useLanguage(signedIn, language);
    const { farmer, device } = await farmerWithDevice(request);
    try {
      // Something in every list: a schedule, a run in the logs and the chart, a recharge request.
      const api = apiClient(request, { token: farmer.token });
      await api.post("/api/schedule", scheduleResponseSchema, {
        time: "6:00 AM",
        action: "ON",
        repeat: "daily",
        durationMinutes: 30,
      });
      await api.post("/api/devices/motor", motorCommandResponseSchema, { action: "on" });
      await api.post("/api/devices/motor", motorCommandResponseSchema, { action: "off" });
      await api.post("/api/recharge/request", rechargeRequestResponseSchema, { plan: "1year", paymentMethod: "upi" });

      const visitor = await anonymous.newPage();
      for (const path of PUBLIC_PAGES) await checkPage(visitor, path);

      const page = await signedIn.newPage();
      await logIn(page, farmer.mobileNo, farmer.password, texts as Texts);
      for (const path of USER_PAGES) await checkPage(page, path);
    } finally {
      await Promise.all([anonymous.close(), signedIn.close(), device.stop()]);
    }
  });
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
