// The user shell: a bottom tab bar on phones and a top nav on wide screens, logout, and a
// session that ends while a page is open.
import { expect, test } from "@playwright/test";
import { apiAs, en, hi, logOut, registerAndLogIn, useLanguage, VIEWPORTS } from "./support.ts";

test("phones get the bottom tab bar: Dashboard, Schedule, My Plan, Logs", async ({ page }) => {
  await registerAndLogIn(page);
  const tabs = page.getByRole("navigation", { name: hi["nav.tabs"] });
  await expect(tabs).toBeVisible();
  await expect(tabs.getByRole("link")).toHaveText([
    hi["nav.dashboard"],
    hi["nav.schedule"],
    hi["nav.plan"],
    hi["nav.logs"],
  ]);
  await expect(page.getByRole("navigation", { name: hi["nav.label"] })).toBeHidden();
  await tabs.getByRole("link", { name: hi["nav.logs"] }).click();
  await expect(page).toHaveURL(/\/logs$/);
  await expect(tabs.getByRole("link", { name: hi["nav.logs"] })).toHaveClass(/active/);
  await tabs.getByRole("link", { name: hi["nav.plan"] }).click();
  await expect(page).toHaveURL(/\/recharge$/);
  await tabs.getByRole("link", { name: hi["nav.schedule"] }).click();
  await expect(page).toHaveURL(/\/motor-schedule$/);
});

for (const [language, words] of [
  ["hi", hi],
  ["en", en],
] as const) {
  test(`the bottom tabs fit side by side at 360 px, each label whole in its own quarter (${language})`, async ({
    page,
    context,
  }) => {
    await useLanguage(context, language);
    await registerAndLogIn(page, words);
    const tabs = page.getByRole("navigation", { name: words["nav.tabs"] }).getByRole("link");
    await expect(tabs).toHaveCount(4);
    const boxes = await tabs.evaluateAll((links) =>
      links.map((link) => {
        const { left, right } = link.getBoundingClientRect();
        return { left, right, clipped: link.scrollWidth > link.clientWidth };
      }),
    );
    const viewport = page.viewportSize()!.width;
    for (const [index, box] of boxes.entries()) {
      expect(box.clipped, `tab ${index}'s label is wider than its tab`).toBe(false);
      expect(box.right).toBeLessThanOrEqual(viewport);
      if (index > 0) expect(box.left).toBeGreaterThanOrEqual(boxes[index - 1]!.right - 0.5);
    }
  });
}

test.describe("on a wide screen", () => {
  test.use({ viewport: VIEWPORTS.desktop });

  test("the top nav replaces the tab bar and also leads to the schedule", async ({ page, context }) => {
    await useLanguage(context, "en");
    await registerAndLogIn(page, en);
    const nav = page.getByRole("navigation", { name: en["nav.label"] });
    await expect(nav).toBeVisible();
    await expect(page.getByRole("navigation", { name: en["nav.tabs"] })).toBeHidden();
    await nav.getByRole("link", { name: en["nav.schedule"] }).click();
    await expect(page).toHaveURL(/\/motor-schedule$/);
    await nav.getByRole("link", { name: en["nav.dashboard"] }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(en["motor.title"]);
  });
});

test("logout goes home and says so (English)", async ({ page, context }) => {
  await useLanguage(context, "en");
  await registerAndLogIn(page, en);
  await logOut(page, en);
  await expect(page).toHaveURL(/\/\?loggedOut=1$/);
  await expect(page.getByText(en["landing.loggedOut"])).toBeVisible();
});

test("a session that ends while a page is open: the next call goes home with 'Session expired'", async ({ page }) => {
  await registerAndLogIn(page);
  await page.goto("/recharge");
  await page.getByTestId("plan-renew").click();
  await expect(page.getByRole("button", { name: hi["plan.submit"] })).toBeVisible();
  // The session is ended on the server while this browser still holds its cookie (as when it
  // expires, or is revoked): the page's next post finds it gone.
  const cookies = await page.context().cookies();
  expect((await apiAs(page).post("/api/auth/logout", {})).ok()).toBe(true);
  await page.context().addCookies(cookies);
  await page.getByRole("button", { name: hi["plan.submit"] }).click();
  await expect(page).toHaveURL(/\/\?session=expired$/);
  await expect(page.getByText(hi["landing.sessionExpired"])).toBeVisible();
  // Not good news: a warning, not the green box a logout gets.
  await expect(page.getByTestId("landing-notice")).toHaveClass(/warning/);
});

test("signed-in pages and their data requests are never cached: Cache-Control: no-store", async ({ page }) => {
  await registerAndLogIn(page);
  for (const path of ["/motor-control", "/logs", "/recharge", "/motor-schedule"]) {
    const response = await page.goto(path);
    expect(response?.headers()["cache-control"], path).toBe("no-store");
    // The same route's data as client-side navigation fetches it.
    const data = await page.request.get(`${path}.data`);
    expect(data.headers()["cache-control"], `${path}.data`).toBe("no-store");
  }
});
