/// <reference lib="dom" />
// The installer's settings live on their own page, the owner's alone (/pump-settings): the
// motor's protection settings saved only after the owner saw old → new, the box's details and
// its firmware, and whether a missed call to the start number may start the motor (turned on
// only after a confirm step). The dashboard keeps one line about the box, which greys out when
// the box is offline. At 360 px in Hindi; every test has its own farmer and box.
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { formatMobileNo, formatNumber } from "../../common/i18n/format.ts";
import {
  bearer,
  devicesStoppedAfterEach,
  type Farmer,
  farmerWithDevice,
  openOwnPump,
  RATED_CONFIG,
  registerFarmer,
} from "./admin-support.ts";
import { fitsTheScreen, hi, logIn, toast } from "./support.ts";

const devices = devicesStoppedAfterEach();

/** A new farmer the owner shares the pump with as `role`, who accepted. */
async function memberOf(request: APIRequestContext, owner: Farmer, deviceId: string, role: "operator" | "viewer") {
  const member = await registerFarmer(request);
  const invited = await request.post(`/api/pumps/${deviceId}/members`, {
    data: { mobileNo: member.mobileNo, role, label: role },
    ...bearer(owner.token),
  });
  expect(invited.status()).toBe(201);
  const accepted = await request.post(`/api/pumps/${deviceId}/invitation`, {
    data: { answer: "accept" },
    ...bearer(member.token),
  });
  expect(accepted.status()).toBe(200);
  return member;
}

const healthLine = (page: Page) => page.getByTestId("health-line");

test("the dashboard keeps one line about the box; the owner's settings page saves a change only after old → new is confirmed", async ({
  page,
  request,
}) => {
  const { device } = await openOwnPump(page, request, devices);
  // The main screen: no thresholds, cut-offs, IMEI, dBm or firmware; one line, live.
  await expect(page.getByLabel(hi["config.dryRun"])).toHaveCount(0);
  await expect(page.getByTestId("health-grid")).toHaveCount(0);
  await expect(page.getByTestId("ota-status")).toHaveCount(0);
  await expect(page.locator("main")).not.toContainText("dBm");
  await expect(page.locator("main")).not.toContainText(hi["health.imei"]);
  await expect(healthLine(page)).toHaveAttribute("data-state", "online");
  await expect(healthLine(page)).toContainText(hi["healthLine.online"]);

  await healthLine(page).getByRole("link", { name: hi["healthLine.settings"] }).click();
  await expect(page).toHaveURL(/\/pump-settings$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(hi["settings.title"]);
  await expect(page.getByTestId("health-grid").getByTestId("health-imei")).toContainText(/\d{15}/);
  await expect(page.getByTestId("ota-status")).toBeVisible();

  // A change asks first, listing each setting old → new; nothing reaches the box meanwhile.
  await page.getByLabel(hi["config.current"]).selectOption("12");
  await page.getByLabel(hi["config.dryRun"]).fill("25");
  await page.getByRole("button", { name: hi["config.update"] }).click();
  const review = page.getByTestId("config-review");
  await expect(review).toContainText(hi["config.reviewTitle"]);
  await expect(review.getByTestId("config-change")).toHaveText([
    `${hi["config.current"]}: ${formatNumber(RATED_CONFIG.defaultCurrent, "hi")} → 12`,
    `${hi["config.dryRun"]}: 30 → 25`,
  ]);
  expect(await fitsTheScreen(page)).toBe(true);
  expect(device.config.defaultCurrent).toBe(RATED_CONFIG.defaultCurrent);
  await review.getByRole("button", { name: hi["dialog.confirm"] }).click();
  await expect(toast(page, hi["config.saved"])).toBeVisible();
  await expect(review).toHaveCount(0);
  await expect.poll(() => device.config.defaultCurrent).toBe(12);
  expect(device.config.dryRunThreshold).toBe(25);

  // A change that weakens protection says so on its line; cancelled, nothing is saved.
  await page.getByLabel(hi["config.overCurrent"]).fill("150");
  await page.getByRole("button", { name: hi["config.update"] }).click();
  await expect(review).toContainText(hi["config.weakerTitle"]);
  await expect(review.getByTestId("config-change")).toHaveText([
    `${hi["config.overCurrent"]}: 30 → 150 (${hi["config.weakens"]})`,
  ]);
  await review.getByRole("link", { name: hi["dialog.cancel"] }).click();
  await expect(review).toHaveCount(0);
  expect(device.config.overCurrentThreshold).toBe(30);

  // Saving what is already in force changes nothing and asks nothing.
  await page.reload();
  await page.getByRole("button", { name: hi["config.update"] }).click();
  await expect(page.getByTestId("config-result")).toHaveText(hi["config.unchanged"]);
});

test("the health line greys out and stops saying the box is connected once the box goes offline", async ({
  page,
  request,
}) => {
  const { device } = await openOwnPump(page, request, devices);
  const line = healthLine(page);
  await expect(line).toHaveAttribute("data-state", "online");
  const liveColour = await line.evaluate((element) => getComputedStyle(element).color);
  await device.stop();
  await expect(line).toHaveAttribute("data-state", "offline");
  await expect(line).toContainText(hi["healthLine.offline"]);
  await expect(line).not.toContainText(hi["healthLine.online"]);
  expect(await line.evaluate((element) => getComputedStyle(element).color)).not.toBe(liveColour);

  // The settings page says the same: the box's details are old, its connection not "connected".
  await page.goto("/pump-settings");
  await expect(page.getByTestId("settings-offline")).toHaveText(hi["settings.offline"]);
  await expect(page.getByTestId("health-grid").getByTestId("health-mqtt")).toContainText(hi["health.disconnected"]);
});

test("an operator and a viewer of a shared pump get neither the settings nor the link to them", async ({
  browser,
  request,
}) => {
  const { farmer: owner, device } = await farmerWithDevice(request);
  devices.push(device);
  for (const role of ["operator", "viewer"] as const) {
    const member = await memberOf(request, owner, device.deviceId, role);
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page, member.mobileNo, member.password);
    await expect(healthLine(page)).toHaveAttribute("data-state", "online");
    await expect(healthLine(page).getByRole("link")).toHaveCount(0);
    await page.goto("/pump-settings");
    await expect(page.getByTestId("owner-only")).toHaveText(hi["settings.ownerOnly"]);
    await expect(page.getByLabel(hi["config.dryRun"])).toHaveCount(0);
    await expect(page.getByTestId("health-grid")).toHaveCount(0);
    await context.close();
  }
});

test("the owner lets a missed call start the motor only after a confirm step naming everyone whose call will start it, and the page says it is on", async ({
  page,
  request,
}) => {
  const { farmer, device } = await openOwnPump(page, request, devices);
  // An operator who accepted, one still invited, and a viewer (whose call starts nothing).
  const operator = await memberOf(request, farmer, device.deviceId, "operator");
  const viewer = await memberOf(request, farmer, device.deviceId, "viewer");
  const invitee = await registerFarmer(request);
  const invited = await request.post(`/api/pumps/${device.deviceId}/members`, {
    data: { mobileNo: invitee.mobileNo, role: "operator", label: "Ravi" },
    ...bearer(farmer.token),
  });
  expect(invited.status()).toBe(201);
  await page.goto("/pump-settings");
  const card = page.getByTestId("phone-start");
  const state = card.getByTestId("phone-start-state");
  await expect(card.getByRole("heading")).toHaveText(hi["phoneStart.title"]);
  await expect(state).toHaveText(hi["phoneStart.off"]);
  await expect(card).toContainText(hi["phoneStart.why"]);

  // Turning it on asks first; nothing changes until the step is confirmed.
  await card.getByRole("button", { name: hi["phoneStart.enable"] }).click();
  const review = card.getByTestId("phone-start-review");
  await expect(review).toContainText(hi["phoneStart.confirmTitle"]);
  await expect(review).toContainText(hi["phoneStart.confirmText"]);
  const people = review.getByTestId("phone-start-people").getByRole("listitem");
  await expect(people).toHaveText([
    hi["phoneStart.personOwner"].replace("{mobileNo}", formatMobileNo(farmer.mobileNo)),
    hi["phoneStart.personOperator"]
      .replace("{label}", "operator")
      .replace("{mobileNo}", formatMobileNo(operator.mobileNo)),
    hi["phoneStart.personInvited"].replace("{label}", "Ravi").replace("{mobileNo}", formatMobileNo(invitee.mobileNo)),
  ]);
  await expect(review).not.toContainText(formatMobileNo(viewer.mobileNo));
  await expect(review).toContainText(hi["phoneStart.ownerTold"]);
  expect(await fitsTheScreen(page)).toBe(true);
  await expect(state).toHaveText(hi["phoneStart.off"]);
  await review.getByRole("button", { name: hi["phoneStart.enable"] }).click();
  await expect(state).toHaveText(hi["phoneStart.on"]);
  await expect(review).toHaveCount(0);
  await page.reload();
  await expect(state).toHaveText(hi["phoneStart.on"]);

  // Off again at once, no step.
  await card.getByRole("button", { name: hi["phoneStart.disable"] }).click();
  await expect(state).toHaveText(hi["phoneStart.off"]);
  await expect(card.getByRole("button", { name: hi["phoneStart.enable"] })).toBeVisible();
});
