// Admin motor logs: of one farmer's boxes (?mobileNo=) or one box (?deviceId=), never the whole
// fleet's; Log ID, Box, Mobile No, Action, Date; 20 a page from the server, "Older" and "Newest"
// links carrying the filter and the cursor.
import { expect, test } from "@playwright/test";
import { readJson } from "../../common/api-client.ts";
import { adminMotorLogsResponseSchema } from "../../common/api-responses/admin.ts";
import { ADMIN_LOGS_PAGE_SIZE } from "../../common/constants.ts";
import { adminApiToken, adminLogIn, bearer, farmerWithDevice, texts } from "./admin-support.ts";
import { fitsTheScreen } from "./support.ts";

test("a farmer's motor log, found by number, paged 20 at a time (Hindi, at 360 px, then wide)", async ({
  page,
  request,
}) => {
  const t = texts.hi;
  const { farmer, device } = await farmerWithDevice(request);
  // 22 real logs from the box: phase lost and restored eleven times, at a pace a box's frame
  // rate allows (docs/device-protocol.md §2), not all in one instant.
  for (let round = 0; round < 11; round++) {
    device.inject("phaseLoss");
    device.inject("phaseRestore");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const token = await adminApiToken(request);
  const first = async () =>
    readJson(
      await request.get(`/api/admin/motor-logs?mobileNo=${farmer.mobileNo}`, bearer(token)),
      adminMotorLogsResponseSchema,
    );
  await expect.poll(async () => (await first()).nextBefore).not.toBeNull();
  await expect.poll(async () => (await first()).logs[0]?.message).toBe("Phase is OK now.");
  const api = await first();
  expect(api.logs).toHaveLength(ADMIN_LOGS_PAGE_SIZE);
  expect(api.logs.every((log) => log.deviceId === device.deviceId)).toBe(true);

  // Without a farmer or a box, the form and a line saying to choose one: no table.
  await adminLogIn(page, t);
  await page.goto("/admin/logs");
  await expect(page.getByRole("heading", { name: t["admin.logs.title"] })).toBeVisible();
  await expect(page.getByTestId("logs-notice")).toHaveText(t["admin.logs.choose"]);
  await expect(page.getByTestId("logs-table")).toHaveCount(0);

  const form = page.getByTestId("logs-filter");
  await form.getByLabel(t["admin.common.mobileNo"]).fill(farmer.mobileNo);
  await form.getByRole("button", { name: t["admin.logs.show"] }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/logs\\?mobileNo=${farmer.mobileNo}&deviceId=$`));
  const rows = page.getByTestId("logs-table").locator("tbody tr");
  await expect(rows).toHaveCount(ADMIN_LOGS_PAGE_SIZE);
  await expect(rows.first()).toContainText(String(api.logs[0]!.id));
  await expect(rows.first()).toContainText(device.deviceId);
  await expect(rows.first()).toContainText(farmer.mobileNo);
  // Worded from the entry's kind in the page's language, not the API's English.
  await expect(rows.first()).toContainText(t["log.phaseOk"]);
  await expect(rows.first()).not.toContainText("Phase is OK now.");
  expect(await fitsTheScreen(page)).toBe(true);

  // Older: the same farmer, from the last id shown; the last page has no Older, and Newest goes back.
  const pager = page.getByTestId("pager");
  await expect(pager.getByRole("link", { name: t["admin.logs.newest"] })).toHaveCount(0);
  await pager.getByRole("link", { name: t["admin.logs.older"] }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/logs\\?mobileNo=${farmer.mobileNo}&before=${api.nextBefore}$`));
  const second = await readJson(
    await request.get(`/api/admin/motor-logs?mobileNo=${farmer.mobileNo}&before=${api.nextBefore}`, bearer(token)),
    adminMotorLogsResponseSchema,
  );
  await expect(rows).toHaveCount(second.logs.length);
  await expect(rows.first()).toContainText(String(second.logs[0]!.id));
  if (second.nextBefore === null) await expect(pager.getByRole("link", { name: t["admin.logs.older"] })).toHaveCount(0);
  await pager.getByRole("link", { name: t["admin.logs.newest"] }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/logs\\?mobileNo=${farmer.mobileNo}$`));
  await expect(rows.first()).toContainText(String(api.logs[0]!.id));

  // A box's id in a row opens that box's log; an id no box has says so.
  await rows.first().getByRole("link", { name: device.deviceId }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/logs\\?deviceId=${device.deviceId}$`));
  await expect(rows).toHaveCount(ADMIN_LOGS_PAGE_SIZE);
  await page.goto("/admin/logs?deviceId=SNC-ZZZZZZZZ");
  await expect(page.getByTestId("logs-notice")).toHaveText(
    t["admin.logs.boxNotFound"].replace("{deviceId}", "SNC-ZZZZZZZZ"),
  );
  await page.goto(`/admin/logs?mobileNo=${farmer.mobileNo}&deviceId=${device.deviceId}`);
  await expect(page.getByTestId("logs-notice")).toHaveText(t["admin.logs.badFilter"]);

  // The farmer's page opens their log.
  await page.goto(`/admin/users/${farmer.id}`);
  await page.getByRole("main").getByRole("link", { name: t["admin.logs.title"], exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/logs\\?mobileNo=${farmer.mobileNo}$`));

  // Wide screens get the table with its column headers.
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const column of [
    "admin.logs.id",
    "admin.logs.box",
    "admin.common.mobileNo",
    "admin.logs.action",
    "admin.common.date",
  ] as const) {
    await expect(page.getByRole("columnheader", { name: t[column] })).toBeVisible();
  }
  await device.stop();
});
