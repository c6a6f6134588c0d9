// Another website cannot make a signed-in browser log out, switch language or post any of our
// forms (docs/security.md, "Web"): the page of a made-up site (served by Playwright's router as
// http://evil.example) submits our forms, and the browser says where it comes from.
import { expect, type Page, test } from "@playwright/test";
import { adminLogIn, registerFarmer } from "./admin-support.ts";
import { BASE_URL, hi, logIn } from "./support.ts";

const EVIL = "http://evil.example/";

/** Opens a page on another site whose form posts `fields` to `path` on ours; returns our answer. */
async function postFromAnotherSite(page: Page, path: string, fields: Record<string, string>) {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join("");
  await page.route(EVIL, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><form method="post" action="${BASE_URL}${path}">${inputs}</form><script>document.forms[0].submit()</script>`,
    }),
  );
  const [response] = await Promise.all([
    page.waitForResponse(
      (candidate) => candidate.url() === `${BASE_URL}${path}` && candidate.request().method() === "POST",
    ),
    page.goto(EVIL),
  ]);
  expect(response.request().headers().origin ?? (await response.request().allHeaders()).origin).toBe(
    "http://evil.example",
  );
  return response;
}

test("a farmer's logout and language cannot be changed from another site", async ({ page, request }) => {
  const farmer = await registerFarmer(request);
  await logIn(page, farmer.mobileNo, farmer.password);

  const logout = await postFromAnotherSite(page, "/logout", {});
  expect(logout.status()).toBe(403);
  await expect(page.getByText(hi["error.crossSite"])).toBeVisible();

  const language = await postFromAnotherSite(page, "/language", { language: "en", returnTo: "/motor-control" });
  expect(language.status()).toBe(403);
  expect((await page.context().cookies(BASE_URL)).find((cookie) => cookie.name === "sinchai_lang")).toBeUndefined();

  // Still signed in, still in Hindi.
  await page.goto("/motor-control");
  await expect(page).toHaveURL(/\/motor-control$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
});

test("an admin's logout cannot be posted from another site", async ({ page }) => {
  await adminLogIn(page);
  const logout = await postFromAnotherSite(page, "/admin/logout", {});
  expect(logout.status()).toBe(403);
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test("our own language switch still works", async ({ page, request }) => {
  const farmer = await registerFarmer(request);
  await logIn(page, farmer.mobileNo, farmer.password);
  await page.getByRole("button", { name: /English/ }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page).toHaveURL(/\/motor-control$/);
});
