// Admin motor logs: Log ID, Mobile No, Action, Date; 20 a page from the server, Previous and
// Next when there are more than 20.
import { expect, test } from "@playwright/test";
import { readJson } from "../../common/api-client.ts";
import { adminMotorLogsResponseSchema } from "../../common/api-responses/admin.ts";
import { ADMIN_LOGS_PAGE_SIZE } from "../../common/constants.ts";
import { adminApiToken, adminLogIn, bearer, farmerWithDevice, texts } from "./admin-support.ts";

test("pages through every device's logs, newest first, 20 at a time (Hindi, then wide)", async ({ page, request }) => {
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
    readJson(await request.get("/api/admin/motor-logs?page=1", bearer(token)), adminMotorLogsResponseSchema);
  await expect
    .poll(async () => (await first()).logs.filter((log) => log.mobileNo === farmer.mobileNo).length)
    .toBe(ADMIN_LOGS_PAGE_SIZE);
  await expect.poll(async () => (await first()).logs[0]?.message).toBe("Phase is OK now.");
  const api = await first();
  expect(api.total).toBeGreaterThan(ADMIN_LOGS_PAGE_SIZE);

  await adminLogIn(page, t);
  await page.goto("/admin/logs");
  await expect(page.getByRole("heading", { name: t["admin.logs.title"] })).toBeVisible();
  const rows = page.getByTestId("logs-table").locator("tbody tr");
  await expect(rows).toHaveCount(ADMIN_LOGS_PAGE_SIZE);
  await expect(rows.first()).toContainText(String(api.logs[0]!.id));
  await expect(rows.first()).toContainText(farmer.mobileNo);
  // Worded from the entry's kind in the page's language, not the API's English.
  await expect(rows.first()).toContainText(t["log.phaseOk"]);
  await expect(rows.first()).not.toContainText("Phase is OK now.");
  const pager = page.getByTestId("pager");
  await expect(pager).toContainText(
    t["admin.logs.pageOf"].replace("{page}", "1").replace("{pages}", String(api.totalPages)),
  );

  await pager.getByRole("link", { name: t["admin.logs.next"] }).click();
  await expect(page).toHaveURL(/\/admin\/logs\?page=2$/);
  const second = await readJson(
    await request.get("/api/admin/motor-logs?page=2", bearer(token)),
    adminMotorLogsResponseSchema,
  );
  await expect(rows.first()).toContainText(String(second.logs[0]!.id));
  await expect(pager).toContainText(
    t["admin.logs.pageOf"].replace("{page}", "2").replace("{pages}", String(second.totalPages)),
  );
  await pager.getByRole("link", { name: t["admin.logs.previous"] }).click();
  await expect(page).toHaveURL(/\/admin\/logs\?page=1$/);
  await expect(rows.first()).toContainText(String(api.logs[0]!.id));

  // Wide screens get the table with its column headers.
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const column of ["admin.logs.id", "admin.common.mobileNo", "admin.logs.action", "admin.common.date"] as const) {
    await expect(page.getByRole("columnheader", { name: t[column] })).toBeVisible();
  }
  await device.stop();
});
