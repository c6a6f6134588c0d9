// Code passed to page.evaluate() runs in the browser: the specs need the DOM's types.
/// <reference lib="dom" />
// Shared by the Playwright specs: the demo pump's simulator, logins, languages.
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { ApiClient, readJson } from "../../common/api-client.ts";
import { motorConfigResponseSchema } from "../../common/api-responses/devices.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import { scheduleListResponseSchema, scheduleResponseSchema } from "../../common/api-responses/schedules.ts";
import { en, type MessageKey } from "../../common/i18n/en.ts";
import { hi } from "../../common/i18n/hi.ts";
import { formatClock, istMinuteOfDay, MINUTES_PER_DAY } from "../../common/schedule-time.ts";
import { ratedCurrent } from "../../device-sim/motor-model.ts";
import {
  localDeviceSocketUrl,
  type SimulatedDevice,
  type SimulatedDeviceOptions,
  simulateBox,
} from "../../device-sim/simulated-device.ts";
import { E2E_PERSIST_DIR, E2E_PORT } from "../../playwright.config.ts";
import { localDeviceFile, readLocalDeviceCredentials } from "../../scripts/lib/local-devices.ts";
import { readLocalPhoneUrl } from "../../scripts/lib/local-phone.ts";
import { DEMO_DEVICE, DEMO_USER } from "../../scripts/lib/seed.ts";
import { type LocalProviderClient, localProviderClient } from "../../telephony-sim/client.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";

export { DEMO_USER, en, hi };

export function uniqueMobileNo(): string {
  return `${6 + Math.floor(Math.random() * 4)}${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
}

/**
 * The seeded demo pump, driven from this process so tests can look at its relay. `options`
 * can shorten its protection timing (a dry run then trips in seconds, not 13 s).
 */
export async function startDemoDevice(
  options: Pick<SimulatedDeviceOptions, "protectionGraceMs" | "protectionSustainMs" | "restartDelayMs"> = {},
): Promise<SimulatedDevice> {
  const credentials = await readLocalDeviceCredentials(localDeviceFile(E2E_PERSIST_DIR, DEMO_DEVICE.deviceId));
  const device = simulateBox(localDeviceSocketUrl(E2E_PORT), credentials, options);
  device.start();
  await device.waitUntilConnected(CONDITION_LIMIT_MS);
  return device;
}

/** The toast that says `text` (a page may show more than one at a time). */
export const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text });

/** Keeps the demo box online through each test of the file or block that calls this; `.device` is it. */
export function demoDeviceInEachTest(): { device: SimulatedDevice } {
  const demo = {} as { device: SimulatedDevice };
  test.beforeEach(async () => {
    demo.device = await startDemoDevice();
  });
  test.afterEach(async () => {
    await demo.device.stop();
  });
  return demo;
}

export async function useLanguage(context: BrowserContext, language: "hi" | "en") {
  await context.addCookies([{ name: "sinchai_lang", value: language, url: `http://localhost:${E2E_PORT}` }]);
}

/**
 * Logs out from the page's header as a farmer does: the logout button, then the answer to its
 * question ("Yes, log out"), which a dialog asks with JavaScript and a page of its own without.
 */
export async function logOut(page: Page, texts: Record<MessageKey, string> = hi) {
  await page.getByRole("button", { name: texts["shell.logout"], exact: true }).click();
  await page.getByRole("button", { name: texts["logout.confirm"], exact: true }).click();
}

export async function logIn(page: Page, mobileNo: string, password: string, texts: Record<MessageKey, string> = hi) {
  await page.goto("/login");
  await page.getByLabel(texts["auth.mobileNo"]).fill(mobileNo);
  await page.getByLabel(texts["auth.password"]).fill(password);
  await page.getByRole("button", { name: texts["login.button"] }).click();
  await expect(page).toHaveURL(/\/motor-control$/);
}

export type Texts = Record<MessageKey, string>;
export const DICTIONARIES = { hi, en } as const;
export const BASE_URL = `http://localhost:${E2E_PORT}`;

/** The two screens every user page is checked at. */
export const VIEWPORTS = {
  phone: { width: 360, height: 740 },
  desktop: { width: 1280, height: 800 },
} as const;

/** Fills in and sends the registration form of the page at /register, password "farmer-password". */
export async function sendRegistration(page: Page, mobileNo: string, texts: Texts = hi) {
  await page.getByLabel(texts["auth.mobileNo"]).fill(mobileNo);
  await page.getByLabel(texts["auth.password"]).fill("farmer-password");
  await page.getByRole("button", { name: texts["register.button"] }).click();
}

/** The e2e Worker's phone: every SMS and call it sent, as the local provider `scripts/start.ts` runs received them. */
export async function e2ePhone(): Promise<LocalProviderClient> {
  return localProviderClient(await readLocalPhoneUrl(E2E_PERSIST_DIR));
}

/** The code of the first SMS with one to `mobileNo` since `since` (a Date.now() before it was asked for). */
export async function codeSentTo(mobileNo: string, since: number): Promise<string> {
  const sms = await (await e2ePhone()).waitForSms(
    mobileNo,
    (candidate) => candidate.at >= since && /\b[0-9]{6}\b/.test(candidate.text),
  );
  return /\b([0-9]{6})\b/.exec(sms.text)![1]!;
}

/**
 * Registers a fresh farmer (no device) through the page, which signs them in, and verifies the
 * number with the code registration sent to it, as a new farmer does.
 */
export async function registerAndLogIn(page: Page, texts: Texts = hi): Promise<string> {
  const mobileNo = uniqueMobileNo();
  await page.goto("/register");
  const since = Date.now();
  await sendRegistration(page, mobileNo, texts);
  await expect(page).toHaveURL(/\/verify-number\?sent=1&welcome=1$/);
  await page.getByLabel(texts["code.label"]).fill(await codeSentTo(mobileNo, since));
  await page.getByRole("button", { name: texts["verify.button"] }).click();
  await expect(page).toHaveURL(/\/motor-control\?verified=1&welcome=1$/);
  await expect(page.getByTestId("welcome")).toHaveText(texts["register.success"]);
  return mobileNo;
}

/**
 * Calls our API with the page's session cookie, as the page itself would (cookie writes need
 * our own Origin).
 */
export function apiAs(page: Page) {
  const headers = { Origin: BASE_URL };
  return {
    get: (path: string) => page.request.get(path, { headers }),
    post: (path: string, data: unknown) => page.request.post(path, { headers, data }),
    delete: (path: string) => page.request.delete(path, { headers }),
  };
}

/**
 * Our API client (common/api-client.ts) over a Playwright request context: the calls show in
 * Playwright's traces, and a page's context (`page.request`) sends its session cookie along.
 */
export function apiClient(
  request: APIRequestContext,
  options: { token?: string; headers?: Record<string, string> } = {},
): ApiClient {
  return new ApiClient(BASE_URL, {
    ...options,
    transport: async (url, { method, headers, body }) => {
      const answer = await request.fetch(url, {
        method,
        headers,
        ...(body instanceof FormData ? { multipart: body } : { data: body }),
      });
      // Each header as sent: headers() joins a repeated one (two Set-Cookie) with a newline, which
      // a fetch Headers refuses.
      const sent = new Headers();
      for (const { name, value } of answer.headersArray()) sent.append(name, value);
      return new Response(new Uint8Array(await answer.body()), { status: answer.status(), headers: sent });
    },
  });
}

/** The API client as the page itself: its session cookie, our own Origin (cookie writes need it). */
function pageClient(page: Page): ApiClient {
  return apiClient(page.request, { headers: { Origin: BASE_URL } });
}

/** Removes every schedule of the signed-in farmer: the demo pump must never run one by surprise. */
export async function deleteAllSchedules(page: Page) {
  const api = pageClient(page);
  const listed = await api.request("GET", "/api/schedule", scheduleListResponseSchema);
  if (!listed.ok) return;
  for (const schedule of listed.data.schedules) await api.delete(`/api/schedule/${schedule.id}`, messageResponseSchema);
}

/** The demo motor's running current, as the seed sets it. */
export const DEMO_CURRENT = Math.round(ratedCurrent(DEMO_DEVICE.kind, DEMO_DEVICE.horsePower) * 10) / 10;

/** The demo farmer's protection settings as seeded (tests that change them put them back). */
export async function restoreDemoConfig(page: Page) {
  await pageClient(page).post(`/api/devices/motor/config/${DEMO_USER.mobileNo}`, motorConfigResponseSchema, {
    defaultCurrent: DEMO_CURRENT,
    dryRunThreshold: 30,
    overCurrentThreshold: 30,
    // Putting the demo's own settings back is deliberate, whatever a test left.
    confirmWeakerProtection: true,
  });
}

/** True when nothing on the page is wider than the screen (no sideways scrolling at 360 px). */
export async function fitsTheScreen(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** How many minutes ahead of now (India time) `minuteOfDay` begins: 0 for the current minute. */
export function minutesAhead(minuteOfDay: number, now = Date.now()): number {
  return (minuteOfDay - istMinuteOfDay(now) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
}

/**
 * Saves, as the page's farmer, a once-only schedule due at the next minute (India time), or at
 * the one after when the next begins within 20 s; answers its minute and the time just before it
 * was saved. A schedule whose minute has begun by the time it is saved (a slow machine) is taken
 * back and saved again for a later one, so the hub always has its minute ahead.
 */
export async function scheduleSoon(
  page: Page,
  schedule: { action: "ON" | "OFF"; durationMinutes?: number },
): Promise<{ minute: number; savedFrom: number }> {
  const api = apiAs(page);
  for (;;) {
    const savedFrom = Date.now();
    const minute =
      (istMinuteOfDay(savedFrom) + (60 - new Date(savedFrom).getUTCSeconds() > 20 ? 1 : 2)) % MINUTES_PER_DAY;
    const saved = await api.post("/api/schedule", { time: formatClock(minute), repeat: "once", ...schedule });
    expect(saved.status()).toBe(201);
    if (minutesAhead(minute) >= 1) return { minute, savedFrom };
    const { schedule: late } = await readJson(saved, scheduleResponseSchema);
    expect((await api.delete(`/api/schedule/${late.id}`)).status()).toBe(200);
  }
}
