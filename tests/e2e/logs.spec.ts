/// <reference lib="dom" />
// /logs: days of runs and events, each line with its clock time in the reader's words, ON and
// OFF paired into runs, cards coloured by action with their icons, loading and empty states, and
// the logout that goes to /login.
import { type APIRequestContext, expect, test } from "@playwright/test";
import { bearer, farmerWithDevice } from "./admin-support.ts";
import {
  apiAs,
  BASE_URL,
  DEMO_USER,
  demoDeviceInEachTest,
  en,
  hi,
  logIn,
  logOut,
  registerAndLogIn,
  useLanguage,
  VIEWPORTS,
} from "./support.ts";

demoDeviceInEachTest();

/** Switches the farmer's motor through the API, waiting out the 10 s before an ON if need be. */
async function switchMotor(request: APIRequestContext, token: string, action: "on" | "off") {
  await expect
    .poll(async () => (await request.post("/api/devices/motor", { data: { action }, ...bearer(token) })).status(), {
      intervals: [1_000],
    })
    .toBe(200);
}

/** A time of day as Hindi pages write it: the part of the day, never am or pm. */
const HINDI_CLOCK = /^(सुबह|दोपहर|शाम|रात) \d{1,2}:\d\d$/;

test("at 360 px in Hindi: the day as a heading, a clock time on every line, each ON paired with its OFF into a run", async ({
  page,
  context,
  request,
}) => {
  const { farmer, device: box } = await farmerWithDevice(request);
  try {
    await switchMotor(request, farmer.token, "on");
    await switchMotor(request, farmer.token, "off");
    await switchMotor(request, farmer.token, "on");
    box.inject("powerCut");
    await expect.poll(() => box.relay).toBe("off");
    box.inject("powerRestore");
    await context.addCookies([{ name: "sinchai_session", value: farmer.token, url: BASE_URL }]);
    await page.goto("/logs");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(hi["logs.title"]);

    const days = page.getByTestId("log-day");
    await expect(days).toHaveCount(1);
    await expect(days.getByRole("heading", { level: 2 })).toHaveText(/^आज · /);
    // Newest first: power back, then the run the power cut ended, then the one switched OFF.
    const runs = days.getByTestId("log-run");
    await expect(runs).toHaveCount(2);
    const lines = page.getByTestId("log-list").getByTestId("log-item");
    await expect(lines).toHaveCount(5);
    await expect(lines.nth(0)).toHaveAttribute("data-action", "other");
    await expect(lines.nth(0)).toContainText("पंप पर बिजली वापस आ गई।");
    await expect(runs.nth(0).getByTestId("log-item").nth(0)).toContainText("मोटर चालू की गई (");
    await expect(runs.nth(0).getByTestId("log-item").nth(1)).toContainText("पंप पर बिजली कट गई। मोटर रुक गई।");
    await expect(runs.nth(1).getByTestId("log-item").nth(1)).toContainText("मोटर बंद की गई (");
    for (const run of await runs.all()) {
      await expect(run.getByTestId("run-summary")).toHaveText(
        /^(सुबह|दोपहर|शाम|रात) \d{1,2}:\d\d से (सुबह|दोपहर|शाम|रात) \d{1,2}:\d\d तक चली: \d+ सेकंड$/,
      );
    }
    // Every line says its clock time, never only an age, and no am or pm.
    for (const time of await page.getByTestId("log-list").locator("time").all()) {
      await expect(time).toHaveText(HINDI_CLOCK);
    }

    const colour = (index: number) => lines.nth(index).evaluate((card) => getComputedStyle(card).borderLeftColor);
    expect(await colour(0)).toBe("rgb(138, 97, 0)"); // yellow
    expect(await colour(1)).toBe("rgb(31, 111, 67)"); // green
    expect(await colour(2)).toBe("rgb(180, 35, 24)"); // red
    // Each has its own inline icon (no icon font): plug, stop sign, warning.
    expect(await lines.nth(1).locator("svg path").first().getAttribute("d")).toContain("M9 2v6");
    expect(await lines.nth(2).locator("svg rect").count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  } finally {
    await box.stop();
  }
});

test("a motor log that cannot be loaded says so, not that there are none", async ({ page }) => {
  await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password);
  await page.route("**/api/pumps/*/logs?*", (route) => route.abort());
  await page.goto("/logs");
  await expect(page.getByTestId("logs-failed")).toContainText(hi["logs.failed"]);
  await expect(page.getByTestId("logs-empty")).toHaveCount(0);
  await page.unroute("**/api/pumps/*/logs?*");
  await page.getByRole("button", { name: hi["logs.retry"] }).click();
  await expect(page.getByTestId("logs-failed")).toHaveCount(0);
});

test.describe("in English on a wide screen", () => {
  test.use({ viewport: VIEWPORTS.desktop });

  test("clock times in English, and a loading state while the logs come", async ({ page, context }) => {
    await useLanguage(context, "en");
    await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password, en);
    // At least one run in the demo pump's log.
    const api = apiAs(page);
    await expect.poll(async () => (await api.post("/api/devices/motor", { action: "on" })).status()).toBe(200);
    expect((await api.post("/api/devices/motor", { action: "off" })).status()).toBe(200);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/pumps/*/logs?*", async (route) => {
      await released; // hold the real answer back a moment
      await route.continue();
    });
    await page.goto("/logs");
    await expect(page.getByTestId("logs-loading")).toHaveText(en["logs.loading"]);
    release();
    await expect(page.getByTestId("log-list")).toBeVisible();
    await expect(page.getByTestId("log-day").first().getByRole("heading", { level: 2 })).toHaveText(
      /^(Today|Yesterday) · |^[A-Z][a-z]+day, /,
    );
    await expect(page.getByTestId("log-item").first().locator("time")).toHaveText(/^\d{1,2}:\d\d (am|pm)$/);
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
