// The password change screen: a plain form that works without JavaScript, in Hindi and English;
// the change logs every other browser of the account out.
import { expect, test } from "@playwright/test";
import { en, hi, logIn, registerAndLogIn, useLanguage } from "./support.ts";

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a wrong current password is refused in Hindi; the change then works and the other browser is logged out", async ({
    page,
    browser,
  }) => {
    const mobileNo = await registerAndLogIn(page);
    const elsewhere = await browser.newContext({ javaScriptEnabled: false });
    const otherPage = await elsewhere.newPage();
    await logIn(otherPage, mobileNo, "farmer-password");

    await page.getByRole("link", { name: hi["shell.changePassword"] }).first().click();
    await expect(page).toHaveURL(/\/change-password$/);
    await expect(page.getByRole("heading", { name: hi["password.title"] })).toBeVisible();
    // The page is the screen's main part, kept off the screen's edges at 360 px.
    await page.setViewportSize({ width: 360, height: 740 });
    await expect(page.getByRole("main")).toHaveCount(1);
    await expect(page.getByRole("main")).toContainText(hi["password.title"]);
    for (const part of [page.getByRole("heading", { level: 1 }), page.getByRole("main").locator(".card").first()]) {
      const box = (await part.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(8);
      expect(box.x + box.width).toBeLessThanOrEqual(352);
    }
    const fill = async (current: string, next: string, again: string) => {
      await page.getByLabel(hi["password.current"]).fill(current);
      await page.getByLabel(hi["password.new"], { exact: true }).fill(next);
      await page.getByLabel(hi["password.confirm"]).fill(again);
      await page.getByRole("button", { name: hi["password.button"] }).click();
    };
    await fill("not-my-password", "naya-paani-2026", "naya-paani-2026");
    await expect(page.getByRole("alert")).toHaveText(hi["password.wrongCurrent"]);
    await fill("farmer-password", mobileNo, mobileNo);
    await expect(page.getByRole("alert")).toHaveText(hi["auth.passwordIsMobile"]);
    await fill("farmer-password", "naya-paani-2026", "naya-paani-2026");
    await expect(page.getByTestId("password-changed")).toHaveText(hi["password.changed"]);

    // This browser stays in; the other one is out at its next request.
    await page.goto("/logs");
    await expect(page).toHaveURL(/\/logs$/);
    // Told why, on the page where the new password goes.
    await otherPage.goto("/logs");
    await expect(otherPage).toHaveURL(/\/login\?session=passwordChanged$/);
    await expect(otherPage.getByTestId("login-notice")).toHaveText(hi["login.passwordChanged"]);
    await elsewhere.close();
  });
});

test("in English, with JavaScript: the new passwords must match", async ({ page, context }) => {
  await useLanguage(context, "en");
  await registerAndLogIn(page, en);
  await page.goto("/change-password");
  await page.getByLabel(en["password.current"]).fill("farmer-password");
  await page.getByLabel(en["password.new"], { exact: true }).fill("naya-paani-2026");
  await page.getByLabel(en["password.confirm"]).fill("naya-paani-2027");
  await page.getByRole("button", { name: en["password.button"] }).click();
  await expect(page.getByRole("alert")).toHaveText(en["password.mismatch"]);
});
