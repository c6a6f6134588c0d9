/// <reference lib="dom" />
// The dashboard against the real Worker, driven by the simulated demo pump: switching with its
// cooldown, faults the box reports; and the pump's settings page: health with its cached
// fallback, settings, firmware.
import { readFile } from "node:fs/promises";
import { expect, type Locator, type Page, test } from "@playwright/test";
import type { SimulatedDevice } from "../../device-sim/simulated-device.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { farmerWithDevice, uploadSimFirmware } from "./admin-support.ts";
import {
  DEMO_CURRENT,
  DEMO_USER,
  en,
  fitsTheScreen,
  hi,
  logIn,
  restoreDemoConfig,
  startDemoDevice,
  type Texts,
  toast,
  useLanguage,
  VIEWPORTS,
} from "./support.ts";

let device: SimulatedDevice;

test.beforeEach(async () => {
  // Short protection timing (past the 1.5 s inrush): a dry run trips in about 3 s.
  device = await startDemoDevice({ protectionGraceMs: 2_000, protectionSustainMs: 1_000, restartDelayMs: 500 });
});

test.afterEach(async () => {
  device.inject("normal");
  await device.stop();
});

function amperes(text: string | null): number {
  return Number((text ?? "").replace(/[^\d.]/g, ""));
}

/** The line that says what the motor does ("मोटर बंद है"), its state in `data-state`. */
const stateLine = (page: Page): Locator => page.getByTestId("motor-status");
/** The switch's buttons, each named by what it does. */
const startButton = (page: Page): Locator => page.getByTestId("motor-on");
const stopButton = (page: Page): Locator => page.getByTestId("motor-off");

/**
 * Taps the button that makes the motor `wanted` until it is. A previous test may have left the
 * hub's 10 s cooldown running (the start button waits, disabled); we try again a second later.
 */
async function switchTo(page: Page, texts: Texts, wanted: "on" | "off") {
  await expect(async () => {
    if ((await stateLine(page).getAttribute("data-state")) !== wanted) {
      await page
        .getByRole("button", { name: texts[wanted === "on" ? "motor.turnOn" : "motor.turnOff"], exact: true })
        .click({ timeout: 1_000 });
    }
    // A step of the retry: a tap the cooldown held back is tapped again.
    await expect(stateLine(page)).toHaveAttribute("data-state", wanted, { timeout: 1_000 });
  }).toPass({ timeout: CONDITION_LIMIT_MS, intervals: [1_000] });
  expect(device.relay).toBe(wanted);
}

/** Logs the demo farmer in and waits for the page's realtime socket, so no event is missed. */
async function openDashboard(page: Page, texts: Texts = hi) {
  await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password, texts);
  await expect(page.locator("[data-live=connected]")).toBeVisible();
}

test("the demo farmer switches the pump on, stops it at once, and waits out the cooldown to start it again", async ({
  page,
}) => {
  // With the realtime socket open, taps travel on it: no form post, a request frame each.
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/motor-control"))
      posts.push(request.url());
  });
  const requestsSent: unknown[] = [];
  page.on("websocket", (socket) =>
    socket.on("framesent", ({ payload }) => {
      if (typeof payload === "string" && payload.includes('"requestId"')) requestsSent.push(JSON.parse(payload));
    }),
  );
  await openDashboard(page);
  await expect(page.getByTestId("mobile-no")).toHaveText(DEMO_USER.mobileNo);
  await expect(page.getByTestId("device-status")).toHaveText(hi["motor.online"]);
  // SPEC §8: opening the page fetches the motor's details and says what it found.
  await expect(toast(page, hi["status.current"].replace("{status}", hi["motor.off"]))).toBeVisible();
  await expect(stateLine(page)).toHaveText(hi["switch.stateOff"]);

  await switchTo(page, hi, "on");
  await expect.poll(async () => amperes(await page.getByTestId("current").textContent())).toBeGreaterThan(0);
  await expect.poll(async () => amperes(await page.getByTestId("wattage").textContent())).toBeGreaterThan(0);

  // Stopping is never held back by the cooldown: OFF right after ON goes through.
  await stopButton(page).click();
  await expect(stateLine(page)).toHaveText(hi["switch.stateOff"]);
  expect(device.relay).toBe("off");
  await expect(page.getByTestId("current")).toHaveText("0 A");

  // Starting again is: the countdown counts down with the ON held back, then ON is offered.
  const cooldown = page.getByTestId("cooldown");
  await expect(cooldown).toBeVisible();
  const secondsLeft = async () => Number((await cooldown.textContent())?.match(/\d+/)?.[0]);
  const first = await secondsLeft();
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(10);
  await expect(startButton(page)).toBeDisabled();
  await expect.poll(secondsLeft).toBeLessThan(first);
  await expect(cooldown).toBeHidden();
  await expect(startButton(page)).toBeEnabled();
  await expect(page.getByTestId("recent-logs").getByTestId("log-item").first()).toHaveAttribute("data-action", "off");
  expect(posts).toEqual([]);
  expect(requestsSent).toContainEqual(expect.objectContaining({ type: "switchMotor", action: "on" }));
  expect(requestsSent).toContainEqual(expect.objectContaining({ type: "switchMotor", action: "off" }));
});

test("the page follows the box going offline and coming back, with toasts", async ({ page }) => {
  await openDashboard(page);
  const status = page.getByTestId("device-status");
  await expect(status).toHaveText(hi["motor.online"]);
  await device.stop();
  await expect(status).toHaveText(hi["motor.offline"]);
  await expect(toast(page, hi["realtime.offline"])).toBeVisible();
  await expect(startButton(page)).toBeDisabled();
  // Offline, the last state is history ("was OFF then"), never the plain state sentence.
  await expect(page.getByTestId("motor-status")).toHaveAttribute("data-state", "offline");
  await expect(page.getByTestId("current")).toHaveText("—");
  device = await startDemoDevice();
  await expect(status).toHaveText(hi["motor.online"]);
  await expect(toast(page, hi["realtime.online"])).toBeVisible();
  await expect(startButton(page)).toBeEnabled();
});

test.describe("in English on a wide screen", () => {
  test.use({ viewport: VIEWPORTS.desktop });

  test("a dry run trips the pump: a toast, the switch says OFF, a banner until the next start; so does low voltage, the volts shown with their limits", async ({
    page,
    context,
  }) => {
    await useLanguage(context, "en");
    await openDashboard(page, en);
    // The demo pump is 3-phase: its phases' volts beside the default limits, from a fresh reading.
    await expect(page.getByTestId("voltages")).toHaveText(/^R \d{3} V · Y \d{3} V · B \d{3} V, limits 340–460 V$/);
    await switchTo(page, en, "on");
    device.inject("dryRun");
    await expect(toast(page, en["realtime.dryRun"])).toBeVisible();
    await expect(stateLine(page)).toHaveText(en["switch.stateOff"]);
    expect(device.relay).toBe("off");
    await expect(page.getByTestId("recent-logs").getByText(en["realtime.dryRun"]).first()).toBeVisible();
    // The toast goes; the banner stays, across a reload, until a new start answers the trip.
    const banner = page.locator("[data-testid=fault-banner][data-fault=dryRun]");
    await expect(banner).toBeVisible();
    await page.reload();
    await expect(banner).toBeVisible();
    device.inject("normal");
    await switchTo(page, en, "on");
    await expect(banner).toBeHidden();

    device.inject("lowVoltage");
    await expect(toast(page, en["realtime.underVoltage"])).toBeVisible();
    await expect(stateLine(page)).toHaveText(en["switch.stateOff"]);
    expect(device.relay).toBe("off");
    // The banner names the volts that tripped it; the log says the lowest phase and the limit.
    await expect(page.locator("[data-testid=fault-banner][data-fault=underVoltage]")).toContainText(
      /Low voltage: .*\(R \d{3} V · Y \d{3} V · B \d{3} V\)/,
    );
    await expect(
      page
        .getByTestId("recent-logs")
        .getByText(/below the 340 V limit/)
        .first(),
    ).toBeVisible();
    await expect(page.getByTestId("voltages")).toHaveText(/^R 3[0-3]\d V .*limits 340–460 V$/);
    device.inject("normalVoltage");
  });

  test("a power cut and its return are told", async ({ page, context }) => {
    await useLanguage(context, "en");
    await openDashboard(page, en);
    await expect(page.getByTestId("device-status")).toHaveText(en["motor.online"]);
    device.inject("powerCut");
    await expect(toast(page, en["realtime.powerLost"])).toBeVisible();
    device.inject("powerRestore");
    await expect(toast(page, en["realtime.powerRestored"])).toBeVisible();
    await expect(stateLine(page)).toHaveText(en["switch.stateOff"]);
  });
});

test("a phase fault disables the start button until the phase is OK", async ({ page }) => {
  await openDashboard(page);
  await expect(startButton(page)).toBeEnabled();
  device.inject("phaseLoss");
  await expect(toast(page, hi["realtime.phaseFault"])).toBeVisible();
  await expect(startButton(page)).toBeDisabled();
  const banner = page.locator("[data-testid=fault-banner][data-fault=phaseFault]");
  await expect(banner).toBeVisible();
  // The box names the phase as a code: worded in Hindi, its English detail left out.
  await expect(banner).toContainText("Y फेज़ में");
  await expect(banner).not.toContainText("missing");
  // Still locked after a reload: the page learns it from the hub, not only from the event.
  await page.reload();
  await expect(startButton(page)).toBeDisabled();
  await expect(banner).toBeVisible();
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  device.inject("phaseRestore");
  await expect(toast(page, hi["realtime.phaseOk"])).toBeVisible();
  await expect(startButton(page)).toBeEnabled();
  await expect(banner).toBeHidden();
});

test("device health on the settings page refreshes from the box, and falls back to this browser's copy when it cannot", async ({
  page,
}) => {
  await openDashboard(page);
  await page.goto("/pump-settings");
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  const grid = page.getByTestId("health-grid");
  await page.getByTestId("health-refresh").click();
  await expect(toast(page, hi["health.updated"])).toBeVisible();
  await expect(grid.getByTestId("health-uptime")).not.toContainText(hi["health.na"]);
  await expect(grid.getByTestId("health-mqtt")).toContainText(hi["health.connected"]);
  await expect(grid.getByTestId("health-signal").locator(".signal")).toHaveClass(/green|yellow|red/);
  const imei = await grid.getByTestId("health-imei").locator("dd").textContent();
  expect(imei).toMatch(/^\d{15}$/);
  // This browser keeps what it saw (SPEC §3's key for the account's first box).
  await expect
    .poll(() => page.evaluate((key) => window.localStorage.getItem(key), `healthData_${DEMO_USER.mobileNo}`))
    .toContain(imei!);

  await device.stop();
  await expect(page.getByTestId("settings-offline")).toBeVisible();
  await page.getByTestId("health-refresh").click();
  await expect(toast(page, hi["status.failed"])).toBeVisible();
  await expect(page.getByTestId("health-cached")).toHaveText(hi["health.cached"]);
  await expect(grid.getByTestId("health-imei").locator("dd")).toHaveText(imei!);
  await expect(grid.getByTestId("health-uptime")).not.toContainText(hi["health.na"]);
});

test("motor configuration on the settings page: tolerance and horsepower follow the inputs; saving asks first, old → new", async ({
  page,
}) => {
  await openDashboard(page);
  await page.getByTestId("settings-link").click();
  await expect(page).toHaveURL(/\/pump-settings$/);
  try {
    const current = page.getByLabel(hi["config.current"]);
    await expect(current).toHaveValue(String(DEMO_CURRENT)); // a seeded 8.9 A stays selectable
    await expect(current.locator("option")).toHaveCount(41);
    await current.selectOption("12");
    await page.getByLabel(hi["config.dryRun"]).fill("25");
    await expect(page.getByTestId("tolerance")).toHaveText("3.0 A"); // 12 × 25 / 100
    await expect(page.getByTestId("horsepower")).toHaveText("6.7 HP"); // 12 × 718.78 × 0.58 / 746
    await page.getByRole("button", { name: hi["config.update"] }).click();
    const step = page.getByTestId("config-review");
    await expect(step).toContainText(hi["config.confirm"]);
    await expect(step.getByTestId("config-change")).toHaveText([
      `${hi["config.current"]}: ${DEMO_CURRENT} → 12`,
      `${hi["config.dryRun"]}: 30 → 25`,
    ]);
    await step.getByRole("button", { name: hi["dialog.confirm"] }).click();
    await expect(toast(page, hi["config.saved"])).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(hi["config.current"])).toHaveValue("12");
    await expect(page.getByLabel(hi["config.dryRun"])).toHaveValue("25");

    // A threshold the server cannot accept: refused before any step.
    await page.getByLabel(hi["config.overCurrent"]).fill("abc");
    await page.getByRole("button", { name: hi["config.update"] }).click();
    await expect(toast(page, hi["config.failed"])).toBeVisible();
    await expect(page.getByTestId("config-review")).toHaveCount(0);
  } finally {
    await restoreDemoConfig(page);
  }
});

test("a change that weakens protection asks first, old → new, then saves when confirmed (English, 360 px)", async ({
  page,
  context,
  request,
}) => {
  await useLanguage(context, "en");
  await page.setViewportSize(VIEWPORTS.phone);
  // A farmer and box of its own: the demo pump's settings stay as they are.
  const { farmer, device: box } = await farmerWithDevice(request);
  try {
    await logIn(page, farmer.mobileNo, farmer.password, en);
    await page.goto("/pump-settings");
    // Each voltage limit with this kind of box's range.
    const overVoltage = page.getByLabel(en["config.overVoltage"]);
    await expect(page.locator("label", { has: overVoltage })).toContainText("allowed 430 to 495 V");
    await page.getByLabel(en["config.dryRun"]).fill("90");
    await overVoltage.fill("495");
    const save = () => page.getByRole("button", { name: en["config.update"] }).click();
    await save();
    const step = page.getByTestId("config-review");
    await expect(step).toContainText(en["config.weakerTitle"]);
    await expect(step.getByRole("listitem")).toHaveText([
      `${en["config.dryRun"]}: 30 → 90 (${en["config.weakens"]})`,
      `${en["config.overVoltage"]}: 460 → 495 (${en["config.weakens"]})`,
    ]);
    expect(await fitsTheScreen(page)).toBe(true);
    await expect(toast(page, en["config.saved"])).toHaveCount(0);
    expect(box.config.dryRunThreshold).toBe(30);

    // Cancel: nothing saved, the step goes.
    await step.getByRole("link", { name: en["dialog.cancel"] }).click();
    await expect(step).toHaveCount(0);
    expect(box.config.dryRunThreshold).toBe(30);

    await save();
    await page.getByTestId("config-review").getByRole("button", { name: en["config.weakerSave"] }).click();
    await expect(toast(page, en["config.saved"])).toBeVisible();
    await expect(page.getByTestId("config-review")).toHaveCount(0);
    await expect.poll(() => box.config.dryRunThreshold).toBe(90);
    expect(box.config.overVoltage).toBe(495);
  } finally {
    await box.stop();
  }
});

test("firmware on the settings page: the card says what is newer up front, the dialog offers the box's own type, the box installs it", async ({
  page,
  request,
}) => {
  const version = `e2e-${Date.now()}`;
  await uploadSimFirmware(request, version);

  await openDashboard(page);
  await page.goto("/pump-settings");
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  const status = page.getByTestId("ota-status");
  await expect(status).toHaveAttribute("data-state", "available");
  // The admin specs may upload SIM builds at the same time: whatever is newest is offered.
  const offered = (await status.getAttribute("data-newest"))!;
  await expect(status).toContainText(offered);
  await page.getByTestId("ota-open").click();
  const dialog = page.getByTestId("ota-dialog");
  await expect(dialog.getByRole("heading")).toHaveText(hi["ota.dialogTitle"]);
  await expect(dialog).toContainText(hi["ota.detected"].replace("{type}", hi["ota.sim"]));
  await expect(dialog.getByRole("button", { name: hi["ota.wifi"] })).toHaveCount(0);
  await dialog.getByRole("button", { name: hi["ota.sim"] }).click();
  await expect(toast(page, hi["ota.triggered"])).toBeVisible();
  await expect(page.getByTestId("ota-notice")).toHaveText(hi["ota.restartNotice"]);
  await expect(toast(page, hi["ota.done"].replace("{version}", offered))).toBeVisible();
  await expect(page.getByTestId("settings-offline")).toHaveCount(0);
  // The card learns the box's new version without a reload.
  await expect(status).toHaveAttribute("data-installed", offered);
});

test.describe("pull to refresh", () => {
  test.use({ hasTouch: true });

  async function pull(page: Page, distance: number) {
    await page.evaluate((distance) => {
      const touch = (y: number) => new Touch({ identifier: 1, target: document.body, clientX: 100, clientY: y });
      window.dispatchEvent(new TouchEvent("touchstart", { touches: [touch(50)] }));
      window.dispatchEvent(new TouchEvent("touchmove", { touches: [touch(50 + distance)] }));
      window.dispatchEvent(new TouchEvent("touchend", { touches: [] }));
    }, distance);
  }

  test("reloads the page only when pulled down more than 150 px at the top", async ({ page }) => {
    await openDashboard(page);
    await expect(page.getByTestId("device-status")).toHaveText(hi["motor.online"]);
    await page.evaluate(() => Object.assign(window, { stillHere: true }));
    await pull(page, 120);
    await page.waitForTimeout(500); // a reload would have started by now
    expect(await page.evaluate(() => "stillHere" in window)).toBe(true);
    const reloaded = page.waitForEvent("load");
    await pull(page, 200);
    await reloaded;
    expect(await page.evaluate(() => "stillHere" in window)).toBe(false);
  });
});

test("run hours and energy: a short run shows on a phone's chart, in its totals and in the CSV", async ({ page }) => {
  await page.setViewportSize(VIEWPORTS.phone);
  await openDashboard(page);
  await switchTo(page, hi, "on");
  await expect.poll(async () => amperes(await page.getByTestId("wattage").textContent())).toBeGreaterThan(0);
  await page.waitForTimeout(3_000); // a run of a few seconds, so its time shows in whole seconds
  await switchTo(page, hi, "off");

  // The loader reads the hub's totals; a new load shows the run just made.
  await page.goto("/motor-control?usage=30");
  const usage = page.getByTestId("usage");
  await expect(usage.getByRole("heading", { name: hi["usage.title"] })).toBeVisible();
  await expect(usage.getByRole("link", { name: hi["usage.span"].replace("{days}", "30") })).toHaveAttribute(
    "aria-current",
    "page",
  );
  expect(Number.parseInt((await usage.getByTestId("usage-starts").textContent()) ?? "", 10)).toBeGreaterThan(0);
  await expect(usage.getByTestId("usage-time")).not.toHaveText(/^0 /);
  const kwh = Number(((await usage.getByTestId("usage-kwh").textContent()) ?? "").replace(/[^\d.]/g, ""));
  expect(kwh).toBeGreaterThan(0);
  // The chart: today's bar drawn, inside the 360 px screen, and no date label over another nor
  // run into it: a space a reader can see (4 px) between each two.
  const chart = usage.getByTestId("usage-chart");
  await expect(chart.locator("rect").last()).toBeVisible();
  const box = await chart.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
  const labels = await chart
    .locator("g text")
    .evaluateAll((texts) =>
      texts.map((text) => (text as SVGTextElement).getBoundingClientRect()).map(({ left, right }) => ({ left, right })),
    );
  expect(labels.length).toBeGreaterThan(1);
  for (let index = 1; index < labels.length; index++) {
    expect(labels[index]!.left - labels[index - 1]!.right).toBeGreaterThanOrEqual(4);
  }
  await expect(chart).toHaveAccessibleName(hi["usage.chartTitle"].replace("{days}", "30"));

  const download = page.waitForEvent("download");
  await usage.getByTestId("usage-csv").click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(
    /^sinchai-usage-SNC-[0-9A-Z]{8}-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const lines = (await readFile(await file.path(), "utf8")).split("\r\n");
  expect(lines[0]).toBe("date,running_minutes,starts,kwh_estimate");
  expect(lines).toHaveLength(30 + 2);
  const today = lines[30]!.split(",");
  expect(Number(today[2])).toBeGreaterThan(0);
  expect(Number(today[3])).toBeGreaterThan(0);
});
