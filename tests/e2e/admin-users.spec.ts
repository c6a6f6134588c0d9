// /admin/users: the columns of SPEC §2, live device status, the 120 s refresh, View, Delete
// behind the retype-the-number modal of SPEC §5 (the account, its sessions and device link go),
// and the search by number or by a box's id.
import { expect } from "@playwright/test";
import { ADMIN_USERS_REFRESH_MS } from "../../common/constants.ts";
import { adminApiToken, adminLogIn, bearer, DEMO_ADMIN, registerFarmer, test, texts } from "./admin-support.ts";
import { apiClient, fitsTheScreen } from "./support.ts";

test("the list shows every account with live status and refreshes itself every 120 s (Hindi)", async ({
  page,
  request,
  adminWithFarmer,
}) => {
  const t = texts.hi;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.clock.install();
  const { farmer, device } = await adminWithFarmer(t, "/admin/users");
  // The columns of SPEC §2 as the reader sees them, in order.
  const headers = page.getByTestId("users-table").getByRole("columnheader");
  await expect(headers).toHaveText(["यूज़र आईडी", "मोबाइल नंबर", "स्थिति", "भूमिका", "बनाया गया", "कार्रवाई"]);
  const row = page.getByTestId(`user-row-${farmer.mobileNo}`);
  await expect(row).toContainText(String(farmer.id));
  await expect(row).toContainText(t["admin.common.user"]);
  await expect(row.getByTestId("user-status")).toHaveText(t["admin.common.online"]);

  // Changes on the server reach the page at the next refresh, without a click.
  await device.stop();
  const newcomer = await registerFarmer(request);
  await expect(page.getByTestId(`user-row-${newcomer.mobileNo}`)).toHaveCount(0);
  await page.clock.fastForward(ADMIN_USERS_REFRESH_MS);
  await expect(page.getByTestId(`user-row-${newcomer.mobileNo}`)).toBeVisible();
  await expect(row.getByTestId("user-status")).toHaveText(t["admin.common.offline"]);

  await row.getByRole("link", { name: t["admin.users.view"] }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/users/${farmer.id}$`));
  await expect(page.getByTestId("detail-mobile")).toHaveText(farmer.mobileNo);
});

test("Delete asks for the number, then removes the account, its sessions and its device link (English, phone)", async ({
  page,
  english: t,
  request,
  adminWithFarmer,
}) => {
  const { farmer, device } = await adminWithFarmer(t, "/admin/users");
  const row = page.getByTestId(`user-row-${farmer.mobileNo}`);
  await row.getByRole("button", { name: t["admin.users.delete"] }).click();
  const dialog = page.getByTestId("delete-user-dialog");
  await expect(dialog).toBeVisible();
  const confirm = dialog.getByRole("button", { name: t["admin.users.delete"] });
  const typed = dialog.getByLabel(t["admin.users.deleteTypeNumber"]);
  await expect(confirm).toBeDisabled();
  await typed.fill(farmer.mobileNo.slice(0, 9));
  await expect(confirm).toBeDisabled();
  await typed.fill(`${farmer.mobileNo} `);
  await expect(confirm).toBeDisabled();
  await typed.fill(farmer.mobileNo);
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(page.getByTestId("toast").filter({ hasText: t["admin.users.deleted"] })).toBeVisible();
  await expect(row).toHaveCount(0);

  // On the server: the farmer's token is dead and the box has no owner any more.
  expect((await request.get("/api/recharge/requests", bearer(farmer.token))).status()).toBe(401);
  await expect.poll(() => device.config.mobileNo).toBeNull();
});

test("the demo admin cannot delete their own account from the list", async ({ page }) => {
  await adminLogIn(page);
  await page.goto("/admin/users");
  const own = page.getByTestId("user-row-9000000001");
  await expect(own).toContainText(texts.hi["admin.users.you"]);
  await expect(own.getByRole("button", { name: texts.hi["admin.users.delete"] })).toHaveCount(0);
});

test("a search by a number as people write it, or by the id on a box's sticker, finds the account and the box (Hindi, phone, without JavaScript)", async ({
  browser,
  request,
}) => {
  const t = texts.hi;
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  const farmer = await registerFarmer(request);
  const admin = apiClient(request, { token: await adminApiToken(request) });
  const box = (await admin.provisionDevice("3phase", farmer.mobileNo)).device.id;
  const stock = (await admin.provisionDevice("1phase")).device.id;
  await adminLogIn(page, t);
  await page.goto("/admin/users");

  const search = page.getByTestId("fleet-search");
  await search
    .getByLabel(t["admin.users.search"])
    .fill(`+91 ${farmer.mobileNo.slice(0, 5)} ${farmer.mobileNo.slice(5)}`);
  await search.getByRole("button", { name: t["admin.users.searchButton"] }).click();
  await expect(page.getByTestId("users-table").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId(`user-row-${farmer.mobileNo}`)).toBeVisible();
  await expect(page.getByTestId(`box-row-${box}`)).toContainText(farmer.mobileNo);
  expect(await fitsTheScreen(page)).toBe(true);

  // The sticker's id in small letters, without SNC-: the box in stock, no account.
  await search.getByLabel(t["admin.users.search"]).fill(stock.slice(4).toLowerCase());
  await search.getByRole("button", { name: t["admin.users.searchButton"] }).click();
  await expect(page.getByTestId(`box-row-${stock}`)).toContainText(t["admin.users.notLinked"]);
  await expect(page.getByTestId("users-none")).toBeVisible();

  // The owner's box by its id leads to the owner's page.
  await page.goto(`/admin/users?q=${box}`);
  await page.getByTestId(`box-row-${box}`).getByRole("link", { name: farmer.mobileNo }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/users/${farmer.id}$`));
  await context.close();
});

test("with script, a search keeps its accounts: after the search, after the 120 s refresh, and after Show all (Hindi, phone)", async ({
  page,
  request,
}) => {
  const t = texts.hi;
  await page.setViewportSize({ width: 360, height: 740 });
  await page.clock.install();
  const farmer = await registerFarmer(request);
  const admin = DEMO_ADMIN;
  await adminLogIn(page, t);
  await page.goto("/admin/users");
  const rows = page.getByTestId("users-table").locator("tbody tr");
  await expect(page.getByTestId(`user-row-${admin.mobileNo}`)).toBeVisible();

  const search = page.getByTestId("fleet-search");
  await search.getByLabel(t["admin.users.search"]).fill(farmer.mobileNo);
  await search.getByRole("button", { name: t["admin.users.searchButton"] }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=${farmer.mobileNo}$`));
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId(`user-row-${farmer.mobileNo}`)).toBeVisible();

  // The list's own refresh asks with the same search.
  await page.clock.fastForward(ADMIN_USERS_REFRESH_MS);
  await expect(page.getByTestId(`user-row-${farmer.mobileNo}`)).toBeVisible();
  await expect(page.getByTestId(`user-row-${admin.mobileNo}`)).toHaveCount(0);
  await expect(rows).toHaveCount(1);

  await search.getByRole("link", { name: t["admin.audit.showAll"] }).click();
  await expect(page.getByTestId(`user-row-${admin.mobileNo}`)).toBeVisible();
  await expect(page.getByTestId(`user-row-${farmer.mobileNo}`)).toBeVisible();
});
