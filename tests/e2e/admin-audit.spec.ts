// /admin/audit: an admin's write made in the UI appears on the audit trail with who, what, on
// what and the outcome; so do the page's own login and logout (the two admin writes that do not
// go through the API). English, then Hindi, each action and each recorded field in the reader's
// words; 360 px wide without sideways scroll.
import { expect } from "@playwright/test";
import { userRoleResponseSchema } from "../../common/api-responses/admin.ts";
import { boxRegionResponseSchema } from "../../common/api-responses/installers.ts";
import { rechargeRequestResponseSchema } from "../../common/api-responses/recharges.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
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
  // The outcome in a word, its HTTP status kept in the badge's title.
  await expect(change.getByTitle("200")).toHaveText(t["admin.audit.outcome.done"]);
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
  await expect(logout.getByTitle("200")).toHaveText(hi["admin.audit.outcome.done"]);
});

test("the trail says statuses, lists and targets in words, at 360 px in Hindi", async ({ page, context, request }) => {
  const hi = texts.hi;
  const farmer = await registerFarmer(request);
  const admin = apiClient(request, { token: await adminApiToken(request) });
  const deviceId = (await admin.provisionDevice("3phase", farmer.mobileNo)).device.id;
  const { request: recharge } = await apiClient(request, { token: farmer.token }).post(
    "/api/recharge/request",
    rechargeRequestResponseSchema,
    { plan: "1year", paymentMethod: "upi" },
  );
  await admin.put(`/api/recharge/status/${recharge.id}`, messageResponseSchema, { status: "paid" });
  await admin.put("/api/admin/update-user-role", userRoleResponseSchema, { userId: farmer.id, isAdmin: false });
  // Two boxes not yet linked (the farmer's is left out, but the request is recorded as sent).
  const spare = [(await admin.provisionDevice("1phase")).device.id, (await admin.provisionDevice("1phase")).device.id];
  await admin.put("/api/admin/box-regions", boxRegionResponseSchema, {
    deviceIds: [deviceId, ...spare],
    region: "बाराबंकी",
  });

  await useLanguage(context, "hi");
  await adminLogIn(page, hi);
  await page.goto("/admin/audit");
  const rows = page.getByTestId("audit-row");
  const tagged = rows.filter({ hasText: hi["admin.audit.do.boxRegion"] }).first();
  const role = rows.filter({ hasText: hi["admin.audit.do.userRole"] }).first();
  const paid = rows.filter({ hasText: hi["admin.audit.do.rechargeStatus"] }).first();
  // A recharge marked paid says so in words, and names the request; the outcome is a word.
  await expect(paid.getByRole("definition")).toHaveText(hi["admin.status.paid"]);
  await expect(
    paid.getByRole("link", { name: hi["admin.audit.targetRecharge"].replace("{id}", String(recharge.id)) }),
  ).toBeVisible();
  await expect(paid.getByTitle("200")).toHaveText(hi["admin.audit.outcome.done"]);
  // An account is named by its number, which is not for translating.
  const account = role.getByRole("link", { name: `${hi["admin.audit.targetAccount"]} ${farmer.mobileNo}` });
  await expect(account).toBeVisible();
  await expect(account.locator("[translate=no]")).toHaveText(farmer.mobileNo);
  // A list of box ids reads as a list ("SNC-…, SNC-… और SNC-…"), never as JSON.
  await expect(tagged.getByRole("definition").filter({ hasText: deviceId })).toHaveText(
    new RegExp(`^${deviceId}, ${spare[0]},? और ${spare[1]}$`),
  );
  for (const row of [tagged, role, paid]) {
    await expect(row).not.toContainText("[");
    await expect(row).not.toContainText("paid");
    await expect(row).not.toContainText("user:");
  }
  expect(await fitsTheScreen(page)).toBe(true);
});
