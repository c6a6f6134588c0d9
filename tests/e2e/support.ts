// Shared by the Playwright specs: the demo pump's simulator, logins, languages.
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { en, type MessageKey } from "../../app/i18n/en.ts";
import { hi } from "../../app/i18n/hi.ts";
import { SimulatedDevice } from "../../device-sim/simulated-device.ts";
import { E2E_PERSIST_DIR, E2E_PORT } from "../../playwright.config.ts";
import { localDeviceFile, readLocalDeviceCredentials } from "../../scripts/lib/local-devices.ts";
import { DEMO_DEVICE, DEMO_USER } from "../../scripts/lib/seed.ts";

export { en, hi, DEMO_USER };

export function uniqueMobileNo(): string {
  return `${6 + Math.floor(Math.random() * 4)}${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
}

/** The seeded demo pump, driven from this process so tests can look at its relay. */
export async function startDemoDevice(): Promise<SimulatedDevice> {
  const credentials = await readLocalDeviceCredentials(localDeviceFile(E2E_PERSIST_DIR, DEMO_DEVICE.deviceId));
  const device = new SimulatedDevice({
    url: `ws://localhost:${E2E_PORT}/api/device/connect`,
    deviceId: credentials.deviceId,
    key: credentials.key,
    kind: credentials.kind,
    horsePower: credentials.horsePower,
  });
  device.start();
  await device.waitUntilConnected();
  return device;
}

export async function useLanguage(context: BrowserContext, language: "hi" | "en") {
  await context.addCookies([{ name: "sinchai_lang", value: language, url: `http://localhost:${E2E_PORT}` }]);
}

export async function logIn(
  page: Page,
  mobileNo: string,
  password: string,
  texts: Record<MessageKey, string> = hi,
) {
  await page.goto("/login");
  await page.getByLabel(texts["auth.mobileNo"]).fill(mobileNo);
  await page.getByLabel(texts["auth.password"]).fill(password);
  await page.getByRole("button", { name: texts["login.button"] }).click();
  await expect(page).toHaveURL(/\/motor-control$/);
}
