import { expect, test } from "@playwright/test";
import type { SimulatedDevice } from "../../device-sim/simulated-device.ts";
import { DEMO_USER, hi, logIn, startDemoDevice } from "./support.ts";

let device: SimulatedDevice;

test.beforeEach(async () => {
  device = await startDemoDevice();
});

test.afterEach(async () => {
  await device.stop();
});

function amperes(text: string | null): number {
  return Number((text ?? "").replace(/[^\d.]/g, ""));
}

test("the demo farmer switches the pump on and, after the cooldown, off", async ({ page }) => {
  await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password);
  await expect(page.getByTestId("mobile-no")).toHaveText(DEMO_USER.mobileNo);
  await expect(page.getByTestId("device-status")).toHaveText(hi["motor.online"]);
  const toggle = page.getByTestId("motor-toggle");
  await expect(toggle).toHaveText(hi["motor.off"]);

  await toggle.click();
  await expect(toggle).toHaveText(hi["motor.on"]);
  expect(device.relay).toBe("on"); // the page said ON only after the box confirmed
  await expect.poll(async () => amperes(await page.getByTestId("current").textContent())).toBeGreaterThan(0);
  await expect.poll(async () => amperes(await page.getByTestId("wattage").textContent())).toBeGreaterThan(0);
  await expect(page.getByTestId("cooldown")).toBeVisible();

  // During the cooldown the click is refused with the spec's message.
  await toggle.click();
  await expect(page.getByRole("alert")).toHaveText(hi["motor.waitCooldown"]);
  expect(device.relay).toBe("on");

  await expect(page.getByTestId("cooldown")).toBeHidden({ timeout: 12_000 });
  await toggle.click();
  await expect(toggle).toHaveText(hi["motor.off"]);
  expect(device.relay).toBe("off");
  await expect(page.getByTestId("current")).toHaveText("0 A");
  await expect(page.locator(".log-list li")).toHaveCount(2);
});

test("the page follows the box going offline and coming back", async ({ page }) => {
  await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password);
  const status = page.getByTestId("device-status");
  await expect(status).toHaveText(hi["motor.online"]);
  await device.stop();
  await expect(status).toHaveText(hi["motor.offline"]);
  await expect(page.getByTestId("motor-toggle")).toBeDisabled();
  await expect(page.getByText(hi["motor.offlineHint"])).toBeVisible();
  device = await startDemoDevice();
  await expect(status).toHaveText(hi["motor.online"]);
  await expect(page.getByTestId("motor-toggle")).toBeEnabled();
});
