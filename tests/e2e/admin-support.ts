// Shared by the admin Playwright specs: the admin's login, fresh farmers with fresh simulated
// devices (provisioned through the admin API), and the admin dictionaries. Every spec makes
// its own farmers and devices, so specs never depend on each other or on the demo pump.
import { type APIRequestContext, type BrowserContext, test as base, expect, type Page } from "@playwright/test";
import { loginResponseSchema } from "../../common/api-responses/accounts.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import type { DeviceKind } from "../../common/device-protocol.ts";
import { adminEn } from "../../common/i18n/admin-en.ts";
import { adminHi } from "../../common/i18n/admin-hi.ts";
import type { MessageKey } from "../../common/i18n/en.ts";
import { ratedCurrent } from "../../device-sim/motor-model.ts";
import {
  localDeviceSocketUrl,
  type SimulatedDevice,
  type SimulatedDeviceOptions,
  simulateBox,
} from "../../device-sim/simulated-device.ts";
import { E2E_PORT } from "../../playwright.config.ts";
import { DEMO_ADMIN } from "../../scripts/lib/seed.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { apiClient, BASE_URL, codeSentTo, en, hi, logIn, uniqueMobileNo, useLanguage } from "./support.ts";

export { adminEn, adminHi, DEMO_ADMIN };

/** The admin texts plus the shared ones (login fields, language switch) of one language. */
export const texts = { hi: { ...hi, ...adminHi }, en: { ...en, ...adminEn } };
export type Texts = (typeof texts)["hi"];

/**
 * A fresh farmer with a running box (farmerWithDevice), then the admin logged in in `t`'s
 * language and on `path` (given the farmer, for pages about them).
 */
type AdminWithFarmer = (
  t: Texts,
  path: string | ((farmer: Farmer) => string),
) => Promise<{ farmer: Farmer; device: SimulatedDevice }>;

/**
 * The admin specs' test. `english`: the browser reads the pages in English (the language
 * cookie, set before the test starts) and the test gets the English texts to find them by.
 * `adminWithFarmer`: the boxes it starts are stopped when the test ends, passed or failed.
 */
export const test = base.extend<{ english: Texts; adminWithFarmer: AdminWithFarmer }>({
  english: async ({ context }, use) => {
    await useLanguage(context, "en");
    await use(texts.en);
  },
  adminWithFarmer: async ({ page, request }, use) => {
    const devices: SimulatedDevice[] = [];
    await use(async (t, path) => {
      const made = await farmerWithDevice(request);
      devices.push(made.device);
      await adminLogIn(page, t);
      await page.goto(typeof path === "string" ? path : path(made.farmer));
      return made;
    });
    await Promise.all(devices.map((device) => device.stop()));
  },
});

export async function adminLogIn(page: Page, t: Texts = texts.hi, account = DEMO_ADMIN) {
  await page.goto("/admin/login");
  await page.getByLabel(t["auth.mobileNo"]).fill(account.mobileNo);
  await page.getByLabel(t["auth.password"]).fill(account.password);
  await page.getByRole("button", { name: t["admin.login.button"], exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

/** A bearer token of the demo admin, for setting up what a test needs through the API. */
export async function adminApiToken(request: APIRequestContext): Promise<string> {
  return apiClient(request).logIn(DEMO_ADMIN.mobileNo, DEMO_ADMIN.password, "admin");
}

/** An admin uploads a SIM firmware build `version` (the demo box runs the SIM build, an older one). */
export async function uploadSimFirmware(request: APIRequestContext, version: string): Promise<void> {
  const upload = await request.post("/api/admin/firmware", {
    headers: { Authorization: `Bearer ${await adminApiToken(request)}` },
    multipart: {
      deviceType: "sim",
      version,
      file: { name: "firmware.bin", mimeType: "application/octet-stream", buffer: Buffer.from(`image ${version}`) },
    },
  });
  expect(upload.status()).toBe(201);
}

export type Farmer = { mobileNo: string; password: string; token: string; id: number };

/**
 * A newly registered farmer, logged in through the API (so the account has a last login), the
 * number verified with the code registration sent to it (so it may be invited).
 */
export async function registerFarmer(request: APIRequestContext): Promise<Farmer> {
  const mobileNo = uniqueMobileNo();
  const password = `farmer-${mobileNo}`;
  const api = apiClient(request);
  const since = Date.now();
  await api.register(mobileNo, password);
  const login = await api.post("/api/auth/login", loginResponseSchema, { mobileNo, password });
  api.token = login.token;
  await api.post("/api/auth/verify-number", messageResponseSchema, { code: await codeSentTo(mobileNo, since) });
  return { mobileNo, password, token: login.token, id: login.user.id };
}

/** A simulated controller box with the given credentials, connected to the e2e Worker. */
export async function startDevice(
  deviceId: string,
  key: string,
  kind: DeviceKind = "3phase",
  options: Partial<SimulatedDeviceOptions> = {},
): Promise<SimulatedDevice> {
  const device = simulateBox(
    localDeviceSocketUrl(E2E_PORT),
    { deviceId, key, kind, horsePower: 5 },
    { restartDelayMs: 500, ...options },
  );
  device.start();
  await device.waitUntilConnected(CONDITION_LIMIT_MS);
  return device;
}

/** The simulated boxes a spec's tests start: each test adds its own, and all are stopped after it. */
export function devicesStoppedAfterEach(): SimulatedDevice[] {
  const devices: SimulatedDevice[] = [];
  base.afterEach(async () => {
    await Promise.all(devices.splice(0).map((device) => device.stop()));
  });
  return devices;
}

/**
 * A fresh farmer with a device provisioned by the admin API and a simulator running it; `key`
 * starts the same box again (`startDevice`), as after a restart.
 */
export async function farmerWithDevice(
  request: APIRequestContext,
  deviceOptions: Partial<SimulatedDeviceOptions> = {},
): Promise<{ farmer: Farmer; device: SimulatedDevice; key: string }> {
  const farmer = await registerFarmer(request);
  const admin = apiClient(request, { token: await adminApiToken(request) });
  const provisioned = await admin.provisionDevice("3phase", farmer.mobileNo);
  return {
    farmer,
    device: await startDevice(provisioned.device.id, provisioned.key, "3phase", deviceOptions),
    key: provisioned.key,
  };
}

/** Signs `context` in with a session token made through the API, as the login page would have. */
export async function signedIn(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([{ name: "sinchai_session", value: token, url: BASE_URL }]);
}

/** The settings a farmer would enter for the simulated 5 HP three-phase motor (the defaults, 1 A, would trip it). */
export const RATED_CONFIG = {
  defaultCurrent: Math.round(ratedCurrent("3phase", 5) * 10) / 10,
  dryRunThreshold: 30,
  overCurrentThreshold: 30,
};

/**
 * A fresh farmer with a running box (farmerWithDevice) set to its motor's running current; the box
 * goes into `devices` at once, for the spec's afterEach to stop.
 */
export async function farmerWithSetPump(
  request: APIRequestContext,
  devices: SimulatedDevice[],
  deviceOptions: Partial<SimulatedDeviceOptions> = {},
) {
  const { farmer, device } = await farmerWithDevice(request, deviceOptions);
  devices.push(device);
  const saved = await request.post(`/api/devices/motor/config/${farmer.mobileNo}`, {
    data: RATED_CONFIG,
    ...bearer(farmer.token),
  });
  expect(saved.status()).toBe(200);
  return { farmer, device };
}

/** farmerWithSetPump, signed in on the dashboard in `texts`' language, the page's live link up. */
export async function openOwnPump(
  page: Page,
  request: APIRequestContext,
  devices: SimulatedDevice[],
  {
    texts = hi,
    device: deviceOptions = {},
  }: { texts?: Record<MessageKey, string>; device?: Partial<SimulatedDeviceOptions> } = {},
) {
  const own = await farmerWithSetPump(request, devices, deviceOptions);
  await logIn(page, own.farmer.mobileNo, own.farmer.password, texts);
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  return own;
}

export function bearer(token: string) {
  return { headers: { Authorization: `Bearer ${token}` } };
}

/** Numbers and rupees as the pages print them: Indian locale in the reader's script (SPEC §9). */
export function indianNumber(value: number, language: "hi" | "en"): string {
  return new Intl.NumberFormat(language === "hi" ? "hi-IN" : "en-IN", { maximumFractionDigits: 2 }).format(value);
}

export function indianRupees(amount: number, language: "hi" | "en"): string {
  return new Intl.NumberFormat(language === "hi" ? "hi-IN" : "en-IN", {
    style: "currency",
    currency: "INR",
    maximumFractionDigits: 0,
  }).format(amount);
}
