/// <reference lib="dom" />
// Every user screen in both languages at 360×740 and 1280×800: it renders in the chosen
// language, nothing scrolls sideways, and axe-core finds no serious or critical problem. The
// alerts screen is checked the same way in alerts.spec.ts, in the full browser: the headless
// shell these run in answers "denied" to notifications, a screen a farmer's phone seldom shows.
import { expect, type Page, test } from "@playwright/test";
import type { SimulatedDevice } from "../../device-sim/simulated-device.ts";
import { uploadSimFirmware } from "./admin-support.ts";
import { checkScreen, seriousAxeViolations } from "./screen-checks.ts";
import {
  apiClient,
  BASE_URL,
  DEMO_USER,
  DICTIONARIES,
  logIn,
  startDemoDevice,
  type Texts,
  uniqueMobileNo,
  useLanguage,
  VIEWPORTS,
} from "./support.ts";

/**
 * Each screen with the heading it must show, and what it reveals on a tap (checked too). A
 * signed-in screen is the demo farmer's, whose number is verified; a number not verified yet has
 * its own test below.
 */
const SCREENS: {
  path: string;
  heading: (texts: Texts) => string;
  signedIn: boolean;
  reveal?: (page: Page) => Promise<void>;
}[] = [
  { path: "/", heading: (texts) => texts["app.name"], signedIn: false },
  { path: "/login", heading: (texts) => texts["login.title"], signedIn: false },
  { path: "/register", heading: (texts) => texts["register.title"], signedIn: false },
  // The code pages, and their second step: the code (and a new password) for a number.
  { path: "/login-code", heading: (texts) => texts["codeLogin.title"], signedIn: false, reveal: askForACode },
  { path: "/forgot-password", heading: (texts) => texts["forgot.title"], signedIn: false, reveal: askForACode },
  { path: "/motor-control", heading: (texts) => texts["motor.title"], signedIn: true },
  {
    path: "/pump-settings",
    heading: (texts) => texts["settings.title"],
    signedIn: true,
    // The confirm step of a change (old → new), and the firmware dialog.
    reveal: async (page) => {
      await page.locator("input[name=dryRunThreshold]").fill("29");
      await page.locator(".config-form button[type=submit]").click();
      await expect(page.getByTestId("config-review")).toBeVisible();
      await page.getByTestId("ota-open").click();
      await expect(page.getByTestId("ota-dialog")).toBeVisible();
    },
  },
  {
    path: "/motor-schedule",
    heading: (texts) => texts["schedule.title"],
    signedIn: true,
    // One form at a time, opened from under the list.
    reveal: async (page) => {
      await page.getByTestId("add-clock").click();
      await expect(page.locator("#schedule-form")).toBeVisible();
    },
  },
  {
    path: "/recharge",
    heading: (texts) => texts["plan.title"],
    signedIn: true,
    reveal: async (page) => {
      await page.getByTestId("plan-renew").click();
      await expect(page.getByRole("radio").first()).toBeVisible();
    },
  },
  { path: "/logs", heading: (texts) => texts["logs.title"], signedIn: true },
];

/** The second step of a code page: a code asked for a number nobody registered (no SMS goes). */
async function askForACode(page: Page) {
  await page.locator("input[name=mobileNo]").fill(uniqueMobileNo());
  await page.getByTestId("send-code").click();
  await expect(page.getByTestId("code-sent")).toBeVisible();
}

let device: SimulatedDevice;
test.beforeAll(async ({ playwright }) => {
  device = await startDemoDevice(); // the dashboard with a live pump, as farmers see it
  // A SIM build newer than the demo box's, so the firmware card offers its dialog to check.
  const admin = await playwright.request.newContext({ baseURL: BASE_URL });
  await uploadSimFirmware(admin, `screens-${Date.now()}`);
  await admin.dispose();
});
test.afterAll(async () => {
  await device.stop();
});

for (const language of ["hi", "en"] as const) {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test.describe(`${language}, ${size} ${viewport.width}×${viewport.height}`, () => {
      test.use({ viewport });

      test("every screen renders in its language, fits the screen and passes axe", async ({ page, context }) => {
        const texts = DICTIONARIES[language];
        await useLanguage(context, language);
        const problems: string[] = [];
        for (const screen of SCREENS.filter((candidate) => !candidate.signedIn)) {
          await page.goto(screen.path);
          await checkScreen(page, screen.path, screen.heading(texts), language, problems);
          if (screen.reveal) {
            await screen.reveal(page);
            await checkScreen(page, `${screen.path} (revealed)`, screen.heading(texts), language, problems);
          }
        }
        await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password, texts);
        for (const screen of SCREENS.filter((candidate) => candidate.signedIn)) {
          await page.goto(screen.path);
          await checkScreen(page, screen.path, screen.heading(texts), language, problems);
          if (screen.reveal) {
            await screen.reveal(page);
            for (const violation of await seriousAxeViolations(page))
              problems.push(`${screen.path} (revealed): ${violation}`);
          }
        }
        expect(problems).toEqual([]);
      });
    });
  }

  test.describe(`${language}, a number not verified yet`, () => {
    test.use({ viewport: VIEWPORTS.phone });

    test("its dashboard line and the code's screen render in the language, fit 360 px and pass axe", async ({
      page,
      context,
      request,
    }) => {
      const texts = DICTIONARIES[language];
      await useLanguage(context, language);
      const mobileNo = uniqueMobileNo();
      await apiClient(request).register(mobileNo, "screens-farmer-password");
      await logIn(page, mobileNo, "screens-farmer-password", texts);
      const problems: string[] = [];
      await expect(page.getByTestId("verify-notice")).toBeVisible();
      await checkScreen(page, "/motor-control (not verified)", texts["motor.title"], language, problems);
      await page.goto("/verify-number");
      await checkScreen(page, "/verify-number", texts["verify.title"], language, problems);
      await page.getByTestId("resend-code").click();
      await expect(page).toHaveURL(/\/verify-number\?sent=1$/);
      await checkScreen(page, "/verify-number?sent=1", texts["verify.title"], language, problems);
      expect(problems).toEqual([]);
    });
  });
}
