/// <reference lib="dom" />
// Every screen's look, each page opened once per language and size with something in each of
// its blocks: its heading and the page's language, nothing wider than the screen, no serious or
// critical axe-core problem (screen-checks.ts); in the page's language only, but for a short
// list of words (page-words.ts); and at 360 px no control under 44 × 44 px and no chart label
// under 12 px (touch-targets.ts). What a tap reveals (a code page's second step, a confirm step,
// a form, a refusal) is checked as the page. The alerts screen is checked the same way in
// alerts.spec.ts, in the full browser: the headless shell these run in answers "denied" to
// notifications, a screen a farmer's phone seldom shows; the admin pages' words in language.spec.ts.
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { motorCommandResponseSchema } from "../../common/api-responses/devices.ts";
import { rechargeRequestResponseSchema } from "../../common/api-responses/recharges.ts";
import { scheduleResponseSchema } from "../../common/api-responses/schedules.ts";
import { devicesStoppedAfterEach, farmerWithDevice, signedIn, uploadSimFirmware } from "./admin-support.ts";
import { wrongScript } from "./page-words.ts";
import { checkScreen, seriousAxeViolations } from "./screen-checks.ts";
import { apiClient, BASE_URL, DICTIONARIES, type Texts, uniqueMobileNo, useLanguage, VIEWPORTS } from "./support.ts";
import { smallChartText, smallTargets } from "./touch-targets.ts";

const devices = devicesStoppedAfterEach();

type Language = "hi" | "en";

/** What is checked on a page: its look (heading, language, width, axe), its words, its targets. */
type Checks = { heading?: (texts: Texts) => string; words?: boolean; targets?: boolean; axe?: boolean };

/** Checks the page as it is now, adding what is wrong to `problems`, each named by `where`. */
async function look(page: Page, where: string, language: Language, checks: Checks, problems: string[]) {
  const texts = DICTIONARIES[language];
  if (checks.heading) await checkScreen(page, where, checks.heading(texts), language, problems);
  else if (checks.axe)
    for (const violation of await seriousAxeViolations(page)) problems.push(`${where}: ${violation}`);
  if (checks.words) for (const word of await wrongScript(page, language)) problems.push(`${where}: ${word}`);
  if (checks.targets) {
    for (const target of await smallTargets(page)) problems.push(`${where}: control under 44 px: ${target}`);
    for (const label of await smallChartText(page)) problems.push(`${where}: chart label under 12 px: ${label}`);
  }
}

/** The second step of a code page: a code asked for a number nobody registered (no SMS goes). */
async function askForACode(page: Page) {
  await page.locator("input[name=mobileNo]").fill(uniqueMobileNo());
  await page.getByTestId("send-code").click();
  await expect(page.getByTestId("code-sent")).toBeVisible();
}

/** A code page's second step answered with a wrong code: its refusal, with the tries left. */
async function enterAWrongCode(page: Page) {
  await page.locator("input[name=code]").fill("123456");
  await page.getByTestId("code-submit").click();
  await expect(page.getByRole("alert")).toBeVisible();
}

/**
 * A farmer of the test's own whose box is online, with something in every block: the motor
 * running (the dashboard's state, a run in the logs and the run-hours chart) and a schedule ON
 * for a while; signed in on `context`. Their API client, for the recharge request the plan page
 * lists once its own renewal form has been looked at (it offers none while one waits).
 */
async function farmerWithEverything(request: APIRequestContext, context: BrowserContext) {
  const { farmer, device } = await farmerWithDevice(request);
  devices.push(device);
  const api = apiClient(request, { token: farmer.token });
  await api.post("/api/schedule", scheduleResponseSchema, {
    time: "6:30 AM",
    action: "ON",
    repeat: "daily",
    durationMinutes: 45,
  });
  await api.post("/api/devices/motor", motorCommandResponseSchema, { action: "on" });
  await signedIn(context, farmer.token);
  return api;
}

/** The pump settings' confirm step of a change (old → new), then the firmware dialog. */
async function revealSettings(page: Page) {
  await page.locator("input[name=dryRunThreshold]").fill("29");
  await page.locator(".config-form button[type=submit]").click();
  await expect(page.getByTestId("config-review")).toBeVisible();
  await page.getByTestId("ota-open").click();
  await expect(page.getByTestId("ota-dialog")).toBeVisible();
}

test.beforeAll(async ({ playwright }) => {
  // A SIM build newer than the simulated boxes', so the firmware card offers its dialog to check.
  const admin = await playwright.request.newContext({ baseURL: BASE_URL });
  await uploadSimFirmware(admin, `screens-${Date.now()}`);
  await admin.dispose();
});

for (const language of ["hi", "en"] as const) {
  test(`at 360×740 in ${language === "hi" ? "Hindi" : "English"}: every page a farmer opens, public and signed in, with what its taps reveal`, async ({
    browser,
    request,
  }) => {
    const problems: string[] = [];
    const visitor = await browser.newContext({ viewport: VIEWPORTS.phone });
    const farmerPhone = await browser.newContext({ viewport: VIEWPORTS.phone });
    await useLanguage(visitor, language);
    await useLanguage(farmerPhone, language);
    try {
      const page = await visitor.newPage();
      const everything = { words: true, targets: true };
      await page.goto("/");
      await look(page, "/", language, { heading: (texts) => texts["app.name"], ...everything }, problems);
      await page.goto("/login");
      await look(page, "/login", language, { heading: (texts) => texts["login.title"], ...everything }, problems);
      await page.goto("/register");
      await look(page, "/register", language, { heading: (texts) => texts["register.title"], ...everything }, problems);
      // A form sent empty: the server's answer, in the page's language, not the browser's bubble.
      await page.getByRole("button", { name: DICTIONARIES[language]["register.button"] }).click();
      await expect(page.getByRole("alert")).toHaveText(DICTIONARIES[language]["auth.required"]);
      await look(page, "/register (refused)", language, { words: true }, problems);
      for (const [path, title] of [
        ["/login-code", "codeLogin.title"],
        ["/forgot-password", "forgot.title"],
      ] as const) {
        await page.goto(path);
        await look(page, path, language, { heading: (texts) => texts[title], ...everything }, problems);
        await askForACode(page);
        await look(page, `${path} (code)`, language, { heading: (texts) => texts[title] }, problems);
        await enterAWrongCode(page);
        await look(page, `${path} (wrong code)`, language, { words: true }, problems);
      }
      await page.goto("/admin/login");
      await look(page, "/admin/login", language, { words: true }, problems);

      const api = await farmerWithEverything(request, farmerPhone);
      const phone = await farmerPhone.newPage();
      await phone.goto("/motor-control");
      await expect(phone.getByTestId("motor-status")).toHaveAttribute("data-state", "on");
      await look(
        phone,
        "/motor-control",
        language,
        { heading: (texts) => texts["motor.title"], ...everything },
        problems,
      );
      await phone.goto("/pump-settings");
      await phone.getByTestId("health-refresh").click();
      await phone.waitForLoadState("networkidle");
      await look(
        phone,
        "/pump-settings",
        language,
        { heading: (texts) => texts["settings.title"], words: true },
        problems,
      );
      await revealSettings(phone);
      await look(phone, "/pump-settings (revealed)", language, { axe: true }, problems);
      await phone.goto("/motor-schedule");
      await phone.waitForLoadState("networkidle");
      await look(
        phone,
        "/motor-schedule",
        language,
        { heading: (texts) => texts["schedule.title"], ...everything },
        problems,
      );
      await phone.getByTestId("add-clock").click();
      await expect(phone.locator("#schedule-form")).toBeVisible();
      await look(phone, "/motor-schedule (revealed)", language, { axe: true }, problems);
      // Each schedule form, opened by its address: their hour lists name every hour of the day.
      for (const path of ["/motor-schedule?add=clock", "/motor-schedule?add=window"]) {
        await phone.goto(path);
        await phone.waitForLoadState("networkidle");
        await look(phone, path, language, { words: true }, problems);
      }
      await phone.goto("/recharge");
      await look(phone, "/recharge", language, { heading: (texts) => texts["plan.title"] }, problems);
      await phone.getByTestId("plan-renew").click();
      await expect(phone.getByRole("radio").first()).toBeVisible();
      await look(phone, "/recharge (revealed)", language, { axe: true }, problems);
      await api.post("/api/recharge/request", rechargeRequestResponseSchema, { plan: "1year", paymentMethod: "upi" });
      await phone.goto("/recharge");
      await phone.waitForLoadState("networkidle");
      await look(phone, "/recharge (a request waiting)", language, everything, problems);
      await phone.goto("/logs");
      await phone.waitForLoadState("networkidle");
      await look(phone, "/logs", language, { heading: (texts) => texts["logs.title"], ...everything }, problems);
      await phone.goto("/pump-people");
      await phone.waitForLoadState("networkidle");
      await look(phone, "/pump-people", language, everything, problems);
      // The invite form sent empty, then without a name: the server's answers in the page's
      // language, never the browser's English "Please fill out this field".
      const texts = DICTIONARIES[language];
      await phone.getByTestId("invite-submit").click();
      await expect(phone.getByTestId("people-notice")).toHaveText(texts["auth.mobileInvalid"]);
      await look(phone, "/pump-people (refused)", language, { words: true }, problems);
      await phone.getByTestId("invite-mobile").fill(uniqueMobileNo());
      await phone.getByTestId("invite-submit").click();
      await expect(phone.getByTestId("people-notice")).toHaveText(texts["people.error.labelRequired"]);
      for (const path of ["/change-password", "/logout"]) {
        await phone.goto(path);
        await phone.waitForLoadState("networkidle");
        await look(phone, path, language, { targets: true }, problems);
      }
      expect(problems).toEqual([]);
    } finally {
      await Promise.all([visitor.close(), farmerPhone.close()]);
    }
  });

  test(`at 1280×800 in ${language === "hi" ? "Hindi" : "English"}: every screen renders in its language, fits the screen and passes axe`, async ({
    browser,
    request,
  }) => {
    const problems: string[] = [];
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    await useLanguage(context, language);
    try {
      const page = await context.newPage();
      const screen = (title: keyof Texts): Checks => ({ heading: (texts) => texts[title] });
      for (const [path, title] of [
        ["/", "app.name"],
        ["/login", "login.title"],
        ["/register", "register.title"],
      ] as const) {
        await page.goto(path);
        await look(page, path, language, screen(title), problems);
      }
      for (const [path, title] of [
        ["/login-code", "codeLogin.title"],
        ["/forgot-password", "forgot.title"],
      ] as const) {
        await page.goto(path);
        await look(page, path, language, screen(title), problems);
        await askForACode(page);
        await look(page, `${path} (revealed)`, language, screen(title), problems);
      }
      await farmerWithEverything(request, context);
      await page.goto("/motor-control");
      await look(page, "/motor-control", language, screen("motor.title"), problems);
      await page.goto("/pump-settings");
      await look(page, "/pump-settings", language, screen("settings.title"), problems);
      await revealSettings(page);
      await look(page, "/pump-settings (revealed)", language, { axe: true }, problems);
      await page.goto("/motor-schedule");
      await look(page, "/motor-schedule", language, screen("schedule.title"), problems);
      await page.getByTestId("add-clock").click();
      await expect(page.locator("#schedule-form")).toBeVisible();
      await look(page, "/motor-schedule (revealed)", language, { axe: true }, problems);
      await page.goto("/recharge");
      await look(page, "/recharge", language, screen("plan.title"), problems);
      await page.getByTestId("plan-renew").click();
      await expect(page.getByRole("radio").first()).toBeVisible();
      await look(page, "/recharge (revealed)", language, { axe: true }, problems);
      await page.goto("/logs");
      await look(page, "/logs", language, screen("logs.title"), problems);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test(`a number not verified yet, at 360×740 in ${language === "hi" ? "Hindi" : "English"}: the dashboard's line and the code's page`, async ({
    browser,
    request,
  }) => {
    const problems: string[] = [];
    const context = await browser.newContext({ viewport: VIEWPORTS.phone });
    await useLanguage(context, language);
    try {
      const api = apiClient(request);
      const mobileNo = uniqueMobileNo();
      await api.register(mobileNo, "screens-farmer-password");
      await signedIn(context, await api.logIn(mobileNo, "screens-farmer-password"));
      const page = await context.newPage();
      await page.goto("/motor-control");
      await expect(page.getByTestId("verify-notice")).toBeVisible();
      const dashboard = { heading: (all: Texts) => all["motor.title"], words: true };
      await look(page, "/motor-control (not verified)", language, dashboard, problems);
      await page.goto("/verify-number");
      await look(page, "/verify-number", language, { heading: (all) => all["verify.title"] }, problems);
      await page.getByTestId("resend-code").click();
      await expect(page).toHaveURL(/\/verify-number\?sent=1$/);
      await look(page, "/verify-number?sent=1", language, { heading: (all) => all["verify.title"] }, problems);
      await page.locator("input[name=code]").fill("000000");
      await page.getByTestId("code-submit").click();
      await expect(page.getByRole("alert")).toBeVisible();
      await look(page, "/verify-number (wrong code)", language, { words: true }, problems);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
