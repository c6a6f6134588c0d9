// The admin dashboard: the four cards of SPEC §2 and the fleet's (boxes offline and in stock,
// faults, trips, recharges waiting, plans ending) from real data, and following it.
import { expect, test } from "@playwright/test";
import { readJson } from "../../common/api-client.ts";
import { dashboardStatsResponseSchema } from "../../common/api-responses/admin.ts";
import {
  adminApiToken,
  adminLogIn,
  bearer,
  farmerWithDevice,
  indianNumber,
  registerFarmer,
  texts,
} from "./admin-support.ts";

type Stats = Awaited<ReturnType<typeof readJson<typeof dashboardStatsResponseSchema>>>["stats"];

test("the four cards show the server's counts and follow a new farmer and a pump switched today", async ({
  page,
  request,
}) => {
  const t = texts.hi;
  const token = await adminApiToken(request);
  const stats = async () =>
    (await readJson(await request.get("/api/admin/dashboard-stats", bearer(token)), dashboardStatsResponseSchema))
      .stats;
  await adminLogIn(page, t);
  const card = (key: keyof Stats) => page.getByTestId(`stat-${key}`);
  await expect(card("totalUsers").getByRole("heading")).toHaveText(t["admin.dashboard.totalUsers"]);
  await expect(card("devicesOnline").getByRole("heading")).toHaveText(t["admin.dashboard.devicesOnline"]);
  await expect(card("totalLogs").getByRole("heading")).toHaveText(t["admin.dashboard.totalLogs"]);
  await expect(card("activeDevices").getByRole("heading")).toHaveText(t["admin.dashboard.activeDevices"]);
  const before = await stats();
  await expect(card("totalUsers").locator(".stat-value")).toHaveText(indianNumber(before.totalUsers, "hi"));

  // A new farmer whose new pump is switched on: one more user, device online, log, active device.
  const { farmer, device } = await farmerWithDevice(request);
  await registerFarmer(request);
  expect((await request.post("/api/devices/motor", { data: { action: "on" }, ...bearer(farmer.token) })).status()).toBe(
    200,
  );
  await expect.poll(async () => (await stats()).activeDevices).toBe(before.activeDevices + 1);
  const after = await stats();
  expect(after.totalUsers).toBe(before.totalUsers + 2);
  expect(after.devicesOnline).toBe(before.devicesOnline + 1);
  expect(after.totalLogs).toBeGreaterThan(before.totalLogs);

  await page.getByRole("button", { name: t["admin.common.refresh"] }).click();
  for (const key of Object.keys(after) as (keyof typeof after)[]) {
    await expect(card(key).getByRole("heading")).toHaveText(t[`admin.dashboard.${key}`]);
    await expect(card(key).locator(".stat-value")).toHaveText(indianNumber(after[key], "hi"));
  }
  // Each group leads to where it is acted on.
  await page.getByRole("link", { name: t["admin.dashboard.openRecharges"] }).click();
  // Titled plainly in Hindi, not "डिवाइस कनेक्टिविटी अनुरोध".
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("रिचार्ज की माँगें");
  await device.stop();
});
