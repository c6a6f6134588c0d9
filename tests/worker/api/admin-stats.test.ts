// GET /api/admin/dashboard-stats: the four cards from real data. Its own file, so the counts
// start from an empty database (worker test storage is per file).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dashboardStatsResponseSchema } from "../../../common/api-responses/admin.ts";
import { indiaMidnight } from "../../../worker/db/admin-stats.ts";
import { getDb } from "../../../worker/db/client.ts";
import { motorLogs } from "../../../worker/db/schema.ts";
import { connectDevice, createUser, farmerWithDevice, getOk, loginToken, postJson } from "../helpers.ts";

async function stats(token: string) {
  const body = await getOk("/api/admin/dashboard-stats", token, dashboardStatsResponseSchema);
  expect(body.success).toBe(true);
  return body.stats;
}

async function log(deviceId: string, action: "on" | "off" | "other", createdAt: number) {
  await getDb(env.DB)
    .insert(motorLogs)
    .values({ deviceId, action, message: `test ${action}`, createdAt, hubRef: crypto.randomUUID() });
}

describe("indiaMidnight", () => {
  it("is the last midnight in India, UTC+5:30", () => {
    // 2026-03-10 01:00 IST is 2026-03-09 19:30 UTC: that day's midnight is 2026-03-09 18:30 UTC.
    expect(indiaMidnight(Date.UTC(2026, 2, 9, 19, 30))).toBe(Date.UTC(2026, 2, 9, 18, 30));
    // 2026-03-10 23:59 IST is 2026-03-10 18:29 UTC: still the same India day.
    expect(indiaMidnight(Date.UTC(2026, 2, 10, 18, 29))).toBe(Date.UTC(2026, 2, 9, 18, 30));
    expect(indiaMidnight(Date.UTC(2026, 2, 10, 18, 30))).toBe(Date.UTC(2026, 2, 10, 18, 30));
  });
});

describe("GET /api/admin/dashboard-stats", () => {
  it("counts accounts, online devices, logs and devices with a motor action today", async () => {
    const admin = await createUser({ isAdmin: true });
    const token = await loginToken(admin, "admin");
    expect(await stats(token)).toEqual({ totalUsers: 1, devicesOnline: 0, totalLogs: 0, activeDevices: 0 });

    const busy = await farmerWithDevice();
    const quiet = await farmerWithDevice();
    const yesterday = await farmerWithDevice();
    await createUser();
    const box = (await connectDevice(busy.device)).autoAck();
    await expect.poll(async () => (await stats(token)).devicesOnline).toBe(1);

    // A real switch through the hub (its log reaches D1 through the outbox)...
    expect((await postJson("/api/devices/motor", { action: "on" }, busy.token)).status).toBe(200);
    // ...an event that is no motor action, and a switch before midnight India time.
    const midnight = indiaMidnight(Date.now());
    await log(quiet.device.deviceId, "other", Date.now());
    await log(yesterday.device.deviceId, "off", midnight - 1);
    await log(yesterday.device.deviceId, "on", midnight - 60_000);
    await expect.poll(async () => (await stats(token)).totalLogs).toBe(4);

    expect(await stats(token)).toEqual({ totalUsers: 5, devicesOnline: 1, totalLogs: 4, activeDevices: 1 });
    box.close();
    await expect.poll(async () => (await stats(token)).devicesOnline).toBe(0);
  });
});
