// The installer's visit in chromium at 360 px, in Hindi, against the e2e Worker and its local
// phone provider (docs/user-area.md, "The installer's visit"): an installer with a labelled box
// in stock types the sticker's box id and claim code (no camera here), the farmer's number, then
// the code the farmer got by SMS; the box is linked. Commissioning, with the simulator as the box:
// the supply on every phase, a test run whose suggested current is within 5 % of the motor's,
// the settings sent to the box, and the dry-run check with the pump running dry (the box's own
// protection stops it). The farmer's first page shows who installed it, how to reach
// them and the report; their OK hands it over, and the installer's page says so. The same
// claim code is refused the second time. Without JavaScript the forms work the same.
import { type Browser, expect, type Page, test } from "@playwright/test";
import { installerResponseSchema, stockResponseSchema } from "../../common/api-responses/installers.ts";
import { formatMobileNo } from "../../common/i18n/format.ts";
import { ratedCurrent } from "../../device-sim/motor-model.ts";
import { E2E_PERSIST_DIR } from "../../playwright.config.ts";
import { labelDevice } from "../../scripts/lib/device-admin.ts";
import { groupedClaimCode } from "../../scripts/lib/device-label.ts";
import { adminApiToken, adminLogIn, texts as adminTexts, registerFarmer, startDevice } from "./admin-support.ts";
import { apiClient, codeSentTo, fitsTheScreen, hi, logIn, uniqueMobileNo } from "./support.ts";

type Request = Parameters<typeof registerFarmer>[0];

/** An installer (a verified account the admin made one) with one box in stock, labelled by `npm run device -- label`. */
async function installerWithLabelledBox(request: Request) {
  const installer = await registerFarmer(request);
  const admin = apiClient(request, { token: await adminApiToken(request) });
  const made = await admin.post("/api/admin/installers", installerResponseSchema, {
    mobileNo: installer.mobileNo,
    name: "रमेश इलेक्ट्रिकल्स",
  });
  const box = await admin.provisionDevice("3phase");
  await admin.post(`/api/admin/installers/${made.installer.userId}/stock`, stockResponseSchema, {
    deviceIds: [box.device.id],
  });
  const claimCode = await labelDevice({ remote: false, persistTo: E2E_PERSIST_DIR }, box.device.id);
  return { installer, deviceId: box.device.id, key: box.key, claimCode };
}

async function phone(browser: Browser, javaScript = true) {
  const context = await browser.newContext({ javaScriptEnabled: javaScript });
  return context.newPage();
}

/** The installer types what the sticker says, and the farmer's number, and then the farmer's code. */
async function linkByTyping(page: Page, box: { deviceId: string; claimCode: string }, farmerMobileNo: string) {
  await page.getByLabel(hi["installer.deviceId"]).fill(box.deviceId.toLowerCase());
  // As printed: two groups of five.
  await page.getByLabel(hi["installer.claimCode"]).fill(groupedClaimCode(box.claimCode));
  await page.getByLabel(hi["installer.farmerMobileNo"]).fill(farmerMobileNo);
  const since = Date.now();
  await page.getByRole("button", { name: hi["installer.sendCode"] }).click();
  await expect(page.getByTestId("code-sent")).toContainText(formatMobileNo(farmerMobileNo));
  const code = await codeSentTo(farmerMobileNo, since);
  await page.getByLabel(hi["code.label"]).fill(code);
  await page.getByRole("button", { name: hi["installer.confirm"] }).click();
  await expect(page.getByTestId("installer-linked")).toContainText(box.deviceId);
}

test("an installer links a box by typing its sticker, the farmer sees who installed it and takes it over (Hindi, 360 px)", async ({
  browser,
  request,
}) => {
  const box = await installerWithLabelledBox(request);
  const installerPage = await phone(browser);
  await logIn(installerPage, box.installer.mobileNo, box.installer.password);
  await installerPage.goto("/installer");
  await expect(installerPage.getByRole("heading", { level: 1 })).toHaveText(hi["installer.title"]);
  await expect(installerPage.getByTestId("stock-list")).toContainText(box.deviceId);
  // Chromium on Linux reads no QR codes itself: no scan button, the typed code is the way.
  await expect(installerPage.getByTestId("scan")).toHaveCount(0);
  expect(await fitsTheScreen(installerPage)).toBe(true);

  const farmer = await registerFarmer(request);
  await linkByTyping(installerPage, box, farmer.mobileNo);
  await expect(installerPage.getByTestId(`installed-${box.deviceId}`)).toContainText(hi["installer.handOver"]);
  expect(await fitsTheScreen(installerPage)).toBe(true);

  // Commissioning, each step confirmed by the box (the simulator: a 5 HP 3-phase motor).
  const device = await startDevice(box.deviceId, box.key);
  try {
    const steps = installerPage.getByTestId("commissioning");
    await expect(steps.getByRole("heading", { level: 2 })).toHaveText(
      hi["commission.title"].replace("{deviceId}", box.deviceId),
    );
    await steps.getByRole("button", { name: hi["commission.checkSupply"] }).click();
    await expect(installerPage.getByTestId("commission-supply")).toContainText("R 4");
    await installerPage.getByTestId("commissioning").getByRole("button", { name: hi["commission.runTest"] }).click();
    await expect(installerPage.getByTestId("commission-measured")).toBeVisible();
    const suggested = Number(await installerPage.getByTestId("commission-current").inputValue());
    expect(Math.abs(suggested - ratedCurrent("3phase", 5)) / ratedCurrent("3phase", 5)).toBeLessThanOrEqual(0.05);
    await expect(installerPage.getByTestId("commission-stopped")).toHaveText(hi["commission.stopped"]);
    expect(device.relay).toBe("off");
    await installerPage.getByTestId("commission-feeder").fill("रामपुर 11 kV");
    await installerPage.getByRole("button", { name: hi["commission.save"] }).click();
    await expect(installerPage.getByTestId("commission-done")).toBeVisible();
    expect(device.config.defaultCurrent).toBe(suggested);
    expect(await fitsTheScreen(installerPage)).toBe(true);

    // The dry-run check the installer chooses: they close the valve, the pump runs dry (45 % of
    // its current), and the box's own protection stops it at the limit of the settings just set.
    await expect(steps.getByRole("heading", { name: hi["commission.dryRunStep"] })).toBeVisible();
    device.inject("dryRun");
    await steps.getByRole("button", { name: hi["commission.runDryRunCheck"] }).click();
    const dryRun = installerPage.getByTestId("commission-dry-run");
    await expect(dryRun).toBeVisible();
    await expect(dryRun).toContainText(hi["commission.dryRunTripped"].split(":")[0]!);
    expect(device.relay).toBe("off");
    device.inject("normal");
    await expect(installerPage.getByTestId(`installed-${box.deviceId}`).getByTestId("report-dry-run")).toContainText(
      hi["commission.reportDryRunTripped"].split(":")[0]!,
    );
    expect(await fitsTheScreen(installerPage)).toBe(true);
  } finally {
    await device.stop();
  }

  // The same sticker a second time, for anyone: refused.
  await installerPage.getByLabel(hi["installer.deviceId"]).fill(box.deviceId);
  await installerPage.getByLabel(hi["installer.claimCode"]).fill(box.claimCode);
  await installerPage.getByLabel(hi["installer.farmerMobileNo"]).fill(uniqueMobileNo());
  await installerPage.getByRole("button", { name: hi["installer.sendCode"] }).click();
  await expect(installerPage.getByTestId("installer-error")).toHaveText(hi["installer.error.claimCodeUsed"]);

  const farmerPage = await phone(browser);
  await logIn(farmerPage, farmer.mobileNo, farmer.password);
  const card = farmerPage.getByTestId("hand-over-card");
  await expect(card).toContainText("रमेश इलेक्ट्रिकल्स");
  // Off the screen's edges at 360 px, as the page's own cards are.
  const cardBox = (await card.boundingBox())!;
  expect(cardBox.x).toBeGreaterThanOrEqual(8);
  expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(farmerPage.viewportSize()!.width - 8);
  await expect(card).toContainText(formatMobileNo(box.installer.mobileNo));
  await expect(farmerPage.getByTestId("hand-over-report")).toBeVisible();
  // The farmer reads the dry-run check too: the box stopped the pump running dry.
  await expect(card.getByTestId("report-dry-run")).toContainText(hi["commission.reportDryRunTripped"].split(":")[0]!);
  await expect(card.getByRole("link", { name: hi["handover.call"] })).toHaveAttribute(
    "href",
    `tel:+91${box.installer.mobileNo}`,
  );
  expect(await fitsTheScreen(farmerPage)).toBe(true);
  // The pump has no name: the card says what it is called meanwhile, and offers to name it.
  await expect(card.getByText(hi["handover.nameHint"].replace("{id}", box.deviceId))).toBeVisible();
  await card.getByLabel(hi["handover.nameLabel"]).fill("कुएँ वाला पंप");
  await card.getByRole("button", { name: hi["handover.ok"] }).click();
  await expect(farmerPage.getByTestId("hand-over-card")).toHaveCount(0);
  await farmerPage.goto("/pump-people");
  await expect(farmerPage.getByTestId("pump-name")).toHaveValue("कुएँ वाला पंप");

  // An admin sees the installation and its report on the farmer's page.
  const adminPage = await phone(browser);
  await adminLogIn(adminPage);
  await adminPage.goto(`/admin/users/${farmer.id}`);
  await expect(adminPage.getByTestId("installation-card")).toContainText("रमेश इलेक्ट्रिकल्स");
  await expect(adminPage.getByTestId("installation-report")).toContainText(
    adminTexts.hi["admin.user.commissioningSet"].split(":")[0]!,
  );
  await expect(adminPage.getByTestId("installation-card")).toContainText("रामपुर 11 kV");
  await expect(adminPage.getByTestId("installation-dry-run")).toContainText(
    adminTexts.hi["admin.user.dryRunTripped"].split("{time}")[0]!,
  );

  await installerPage.goto("/installer");
  const installed = installerPage.getByTestId(`installed-${box.deviceId}`);
  await expect(installed).not.toContainText(hi["installer.handOver"]);
  await expect(installed).toContainText(hi["installer.handedOverOn"].split(":")[0]!);
});

test("the installer's forms work without JavaScript, and a farmer's account is told it is no installer's", async ({
  browser,
  request,
}) => {
  const box = await installerWithLabelledBox(request);
  const page = await phone(browser, false);
  await logIn(page, box.installer.mobileNo, box.installer.password);
  await page.goto("/installer");
  await linkByTyping(page, box, uniqueMobileNo());
  await page.getByRole("button", { name: hi["installer.handOver"] }).click();
  await expect(page.getByTestId("installer-handed-over")).toHaveText(hi["installer.handedOver"]);

  const farmer = await registerFarmer(request);
  const farmerPage = await phone(browser, false);
  await logIn(farmerPage, farmer.mobileNo, farmer.password);
  await farmerPage.goto("/installer");
  await expect(farmerPage.getByTestId("not-installer")).toHaveText(hi["installer.notInstaller"]);
});

test("a confirmation sent twice on a slow line reads as the one link it made: no 'claim code used' beside it (Hindi, 360 px, without JavaScript)", async ({
  browser,
  request,
}) => {
  const box = await installerWithLabelledBox(request);
  const page = await phone(browser, false);
  await page.setViewportSize({ width: 360, height: 740 });
  await logIn(page, box.installer.mobileNo, box.installer.password);
  await page.goto("/installer");
  const farmerMobileNo = uniqueMobileNo();
  await linkByTyping(page, box, farmerMobileNo);
  // The same form with the same code, sent again (the first answer was slow to come).
  await page.goBack();
  await expect(page.getByLabel(hi["code.label"])).toBeVisible();
  const code = await codeSentTo(farmerMobileNo, 0);
  await page.getByLabel(hi["code.label"]).fill(code);
  await page.getByRole("button", { name: hi["installer.confirm"] }).click();
  await expect(page.getByTestId("installer-linked")).toContainText(box.deviceId);
  await expect(page.getByTestId("installer-error")).toHaveCount(0);
  await expect(page.getByText(hi["installer.error.claimCodeUsed"])).toHaveCount(0);
});
