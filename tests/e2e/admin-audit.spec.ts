// /admin/audit: an admin's write made in the UI appears on the audit trail with who, what, on
// what and the outcome; so do the page's own login and logout (the two admin writes that do not
// go through the API). English, then Hindi, each action and each recorded field in the reader's
// words; 360 px wide without sideways scroll.
import { expect } from "@playwright/test";
import { adminApiToken, adminLogIn, DEMO_ADMIN, registerFarmer, test, texts } from "./admin-support.ts";
import { apiClient, fitsTheScreen, useLanguage } from "./support.ts";

test("a config change, the login and the logout are on the audit trail (English, then Hindi)", async ({
  page,
  context,
  english: t,
  request,
}) => {
  const farmer = await registerFarmer(request);
  // Motor settings are a box's: the farmer has one, provisioned and never connected.
  await apiClient(request, { token: await adminApiToken(request) }).provisionDevice("3phase", farmer.mobileNo);
  await adminLogIn(page, t);

  await page.goto(`/admin/users/${farmer.id}/update-config`);
  await page.getByLabel(t["admin.config.defaultCurrent"]).fill("7.5");
  await page.getByRole("button", { name: t["admin.config.submit"] }).click();
  await expect(page.getByTestId("toast").filter({ hasText: t["admin.config.notDelivered"] })).toBeVisible();

  await page.locator(".admin-bottom-bar").getByRole("link", { name: t["admin.nav.audit"] }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(page.getByRole("heading", { name: t["admin.audit.title"] })).toBeVisible();
  const rows = page.getByTestId("audit-row");
  // Newest first: the change on top, the login that preceded it further down.
  const change = rows.nth(0);
  // The action in words, its route kept in the cell's title for whoever needs it.
  await expect(change).toContainText(t["admin.audit.do.motorConfig"]);
  await expect(change.getByTitle("POST /admin/users/:userId/update-config")).toBeVisible();
  await expect(change).toContainText(DEMO_ADMIN.mobileNo);
  await expect(change).toContainText(farmer.mobileNo);
  await expect(change).toContainText("200");
  // The request's fields named for people, the values as sent.
  await expect(change.getByRole("definition").filter({ hasText: "7.5" })).toBeVisible();
  await expect(change.getByRole("term").filter({ hasText: t["admin.config.defaultCurrent"] })).toBeVisible();
  const login = rows.filter({ hasText: t["admin.audit.do.login"] }).first();
  await expect(login).toContainText(DEMO_ADMIN.mobileNo);
  await expect(login).not.toContainText(DEMO_ADMIN.password);
  expect(await fitsTheScreen(page)).toBe(true);

  // The target is a link that filters the trail down to it.
  await change.getByRole("link", { name: farmer.mobileNo }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/audit\\?target=${farmer.mobileNo}$`));
  await expect(rows).toHaveCount(1);
  await page.getByRole("link", { name: t["admin.audit.showAll"] }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);

  // Hindi: the same page under its Hindi heading; then the page's logout is recorded too.
  const hi = texts.hi;
  await useLanguage(context, "hi");
  await page.reload();
  await expect(page.getByRole("heading", { name: hi["admin.audit.title"] })).toBeVisible();
  await expect(rows.nth(0).getByRole("term").filter({ hasText: hi["admin.config.defaultCurrent"] })).toBeVisible();
  await expect(rows.nth(0)).not.toContainText("defaultCurrent");
  await page.getByRole("button", { name: hi["admin.shell.logout"] }).click();
  await expect(page).toHaveURL(/\/admin\/login\?loggedOut=1$/);
  await adminLogIn(page, hi);
  await page.goto("/admin/audit");
  await expect(rows.nth(0)).toContainText(hi["admin.audit.do.login"]);
  const logout = rows.filter({ hasText: hi["admin.audit.do.logout"] }).first();
  await expect(logout).toContainText(DEMO_ADMIN.mobileNo);
  await expect(logout).toContainText("200");
});
