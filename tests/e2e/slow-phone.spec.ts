/// <reference lib="dom" />
// The farmer's phone on a weak signal: a tap on ON that comes before the page's script must
// still switch the motor (the switch is a plain form). Its own farmer and box.
import { expect, test } from "@playwright/test";
import { farmerWithDevice } from "./admin-support.ts";
import { BASE_URL, hi } from "./support.ts";

test("a tap on ON before the page has hydrated switches the motor (slow 3G, 4x slower CPU)", async ({
  browser,
  request,
}) => {
  const { farmer, device } = await farmerWithDevice(request);
  const context = await browser.newContext({ serviceWorkers: "block" });
  let release = () => {};
  try {
    await context.addCookies([{ name: "sinchai_session", value: farmer.token, url: BASE_URL }]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 400,
      downloadThroughput: 50_000,
      uploadThroughput: 50_000,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    // The scripts are also held back until the tap has been made, so "before hydration" is a
    // fact the test sets up, not a race it hopes to win.
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.+\.js$/, async (route) => {
      await released;
      await route.continue();
    });

    await page.goto("/motor-control", { waitUntil: "commit" });
    const start = page.getByRole("button", { name: hi["motor.turnOn"], exact: true });
    await expect(page.getByTestId("motor-status")).toHaveText(hi["switch.stateOff"]);
    await expect(start).toBeEnabled();
    const hydrated = () => start.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactProps$")));
    expect(await hydrated()).toBe(false);

    await start.click();
    // The form went to the route's action, which waited for the box to confirm.
    await expect.poll(() => device.relay).toBe("on");
    await expect(page.getByTestId("motor-status")).toHaveText(hi["switch.stateOn"]);
    await expect(page.getByTestId("motor-off")).toBeVisible();

    // The page that came back hydrates like any other once its scripts arrive.
    release();
    await expect.poll(hydrated).toBe(true);
  } finally {
    release();
    await context.close();
    await device.stop();
  }
});
