/// <reference lib="dom" />
// /logs: cards coloured by action with their icons, ages in the reader's language, loading and
// empty states, and the logout that goes to /login.
import { expect, test } from "@playwright/test";
import type { SimulatedDevice } from "../../device-sim/simulated-device.ts";
import {
  DEMO_USER,
  en,
  hi,
  logIn,
  logOut,
  registerAndLogIn,
  startDemoDevice,
  useLanguage,
  VIEWPORTS,
} from "./support.ts";

let device: SimulatedDevice;

test.beforeEach(async () => {
  device = await startDemoDevice();
});

test.afterEach(async () => {
  await device.stop();
});

/** Makes three fresh logs on the demo pump: ON (a switch), OFF (a power cut), other (power back). */
async function makeLogs(page: import("@playwright/test").Page) {
  await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password);
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  const toggle = page.getByTestId("motor-toggle");
  await expect(async () => {
    // A previous test may have left the 10 s cooldown running: try again until it has passed.
    if ((await toggle.textContent()) !== hi["motor.on"]) await toggle.click();
    await expect(toggle).toHaveText(hi["motor.on"], { timeout: 1_000 });
  }).toPass({ timeout: 20_000, intervals: [1_000] });
  device.inject("powerCut");
  await expect(toggle).toHaveText(hi["motor.off"]);
  device.inject("powerRestore");
  await expect(page.getByTestId("recent-logs").getByTestId("log-item").first()).toHaveAttribute("data-action", "other");
}

test("log cards: green with a plug for ON, red with a stop sign for OFF, yellow otherwise, in Hindi", async ({
  page,
}) => {
  await makeLogs(page);
  await page.getByRole("link", { name: hi["logs.all"] }).click();
  await expect(page).toHaveURL(/\/logs$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(hi["logs.title"]);
  const cards = page.getByTestId("log-list").getByTestId("log-item");
  await expect(cards.nth(0)).toHaveAttribute("data-action", "other");
  await expect(cards.nth(0)).toContainText("पंप पर बिजली वापस आ गई।");
  await expect(cards.nth(1)).toHaveAttribute("data-action", "off");
  await expect(cards.nth(1)).toContainText("पंप पर बिजली कट गई। मोटर रुक गई।");
  await expect(cards.nth(2)).toHaveAttribute("data-action", "on");
  await expect(cards.nth(2)).toContainText("मोटर चालू की गई (ऐप से)");
  const colour = (index: number) => cards.nth(index).evaluate((card) => getComputedStyle(card).borderLeftColor);
  expect(await colour(0)).toBe("rgb(138, 97, 0)"); // yellow
  expect(await colour(1)).toBe("rgb(180, 35, 24)"); // red
  expect(await colour(2)).toBe("rgb(31, 111, 67)"); // green
  // Each has its own inline icon (no icon font): plug, stop sign, warning.
  expect(await cards.nth(2).locator("svg path").first().getAttribute("d")).toContain("M9 2v6");
  expect(await cards.nth(1).locator("svg rect").count()).toBe(1);
  await expect(cards.nth(0).locator("time")).toContainText("सेकंड पहले");
});

test.describe("in English on a wide screen", () => {
  test.use({ viewport: VIEWPORTS.desktop });

  test("ages in English, and a loading state while the logs come", async ({ page, context }) => {
    await useLanguage(context, "en");
    await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password, en);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/logs/motor/**", async (route) => {
      await released; // hold the real answer back a moment
      await route.continue();
    });
    await page.goto("/logs");
    await expect(page.getByTestId("logs-loading")).toHaveText(en["logs.loading"]);
    release();
    await expect(page.getByTestId("log-list")).toBeVisible();
    await expect(page.getByTestId("log-item").first().locator("time")).toContainText(/ago$/);
  });
});

test("a farmer with no logs sees the empty state", async ({ page, context }) => {
  await useLanguage(context, "en");
  await registerAndLogIn(page, en);
  await page.goto("/logs");
  await expect(page.getByTestId("logs-empty")).toHaveText(en["logs.none"]);
});

test("logout on the logs page ends the session and loads /login", async ({ page }) => {
  await registerAndLogIn(page);
  await page.goto("/logs");
  await expect(page.getByTestId("logs-empty")).toBeVisible();
  const loaded = page.waitForEvent("load");
  await logOut(page);
  await loaded;
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/logs");
  await expect(page).toHaveURL(/\/$/);
});
