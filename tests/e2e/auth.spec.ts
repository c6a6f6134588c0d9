import { expect, test } from "@playwright/test";
import { en, hi, logIn, logOut, registerAndLogIn, sendRegistration, uniqueMobileNo, useLanguage } from "./support.ts";

test("a new farmer registers, is asked for the code, leaves it for later, logs out and in again (Hindi, the default)", async ({
  page,
}) => {
  const mobileNo = uniqueMobileNo();
  await page.goto("/register");
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
  await expect(page.getByRole("heading", { name: hi["register.title"] })).toBeVisible();
  await expect(page.getByLabel(hi["auth.mobileNo"])).toHaveAttribute("placeholder", hi["auth.mobilePlaceholder"]);
  await sendRegistration(page, mobileNo);
  // Signed in at once (no second typing of the password just chosen), and asked for the code.
  await expect(page).toHaveURL(/\/verify-number\?sent=1&welcome=1$/);
  await expect(page.getByTestId("welcome")).toHaveText(hi["register.success"]);
  await page.getByTestId("verify-later").click();
  await expect(page).toHaveURL(/\/motor-control\?welcome=1$/);
  await expect(page.getByTestId("welcome")).toHaveText(hi["register.success"]);
  await expect(page.getByTestId("verify-notice")).toBeVisible();
  await expect(page.getByTestId("mobile-no")).toHaveText(mobileNo);
  await expect(page.getByTestId("no-device")).toBeVisible();

  await logOut(page);
  await expect(page.getByText(hi["landing.loggedOut"])).toBeVisible();
  // The session ended on the server: the dashboard now sends the visitor home.
  await page.goto("/motor-control");
  await expect(page).toHaveURL(/\/$/);
  await logIn(page, mobileNo, "farmer-password");
  await expect(page.getByTestId("mobile-no")).toHaveText(mobileNo);
});

test("the login page shows clear errors (English)", async ({ page, context }) => {
  await useLanguage(context, "en");
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: en["login.title"] })).toBeVisible();
  await page.getByLabel(en["auth.mobileNo"]).fill(uniqueMobileNo());
  await page.getByLabel(en["auth.password"]).fill("wrong-password");
  await page.getByRole("button", { name: en["login.button"] }).click();
  await expect(page.getByRole("alert")).toHaveText(en["login.invalid"]);
  await expect(page).toHaveURL(/\/login$/);
});

test("registering a number twice says it is already registered, and how its holder gets in", async ({
  page,
  context,
}) => {
  await useLanguage(context, "en");
  const mobileNo = uniqueMobileNo();
  for (const attempt of [1, 2]) {
    await page.goto("/register");
    await sendRegistration(page, mobileNo, en);
    if (attempt === 1) {
      await expect(page.getByTestId("welcome")).toHaveText(en["register.success"]);
      // Signed in by registering: sign out to try the same number again.
      await logOut(page, en);
      await expect(page.getByText(en["landing.loggedOut"])).toBeVisible();
    }
  }
  await expect(page.getByRole("alert")).toHaveText(en["register.duplicate"]);
  // Not a dead end: a code to the number sets a new password, or signs a verified one in.
  await expect(page.getByTestId("number-taken")).toContainText(en["register.duplicateHelp"]);
  await expect(page.getByTestId("taken-forgot")).toHaveAttribute("href", "/forgot-password");
  await expect(page.getByTestId("taken-code")).toHaveAttribute("href", "/login-code");
});

test("register and login work with JavaScript disabled", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const mobileNo = await registerAndLogIn(page);
  await expect(page.getByTestId("mobile-no")).toHaveText(mobileNo);

  await logOut(page);
  await logIn(page, mobileNo, "farmer-password");
  await expect(page.getByTestId("mobile-no")).toHaveText(mobileNo);
  await context.close();
});

test("the language switch changes the page and is remembered", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: hi["login.title"] })).toBeVisible();
  await page.getByRole("button", { name: hi["language.label"] }).click();
  await expect(page.getByRole("heading", { name: en["login.title"] })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.goto("/register");
  await expect(page.getByRole("heading", { name: en["register.title"] })).toBeVisible();
});

test("the landing page ships no script", async ({ page }) => {
  const response = await page.goto("/");
  const html = await response!.text();
  expect(html).not.toMatch(/<script/i);
  await expect(page.getByRole("link", { name: hi["landing.login"], exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: hi["landing.register"] })).toBeVisible();
});
