// GET /api/admin/dashboard-stats: SPEC's four cards and what an admin running the fleet acts on,
// from real data. Its own file, so the counts start from an empty database (worker test storage
// is per file); each test checks what it changed.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dashboardStatsResponseSchema } from "../../../common/api-responses/admin.ts";
import { motorLogEventOf } from "../../../common/motor-log-event.ts";
import { indiaMidnight } from "../../../worker/db/admin-stats.ts";
import { getDb } from "../../../worker/db/client.ts";
import { planPeriods, rechargeRequests } from "../../../worker/db/schema.ts";
import { createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithDevice, provisionDevice } from "../helpers/boxes.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { getOk, postJson } from "../helpers/http.ts";
import { fireTimer, logThroughHub } from "../helpers/hub-state.ts";
import { connectDevice } from "../helpers/sockets.ts";

freshStorageForThisFile();

const DAY_MS = 24 * 60 * 60_000;

async function stats(token: string) {
  const body = await getOk("/api/admin/dashboard-stats", token, dashboardStatsResponseSchema);
  expect(body.success).toBe(true);
  return body.stats;
}

/** An entry of the box's log, written through its hub, and its kind's event with no readings. */
async function log(deviceId: string, action: "on" | "off" | "other", createdAt: number, kind = "legacy") {
  const event = motorLogEventOf(kind, EMPTY_READINGS, `test ${action}`);
  expect(event.kind).toBe(kind);
  await logThroughHub(deviceId, action, event, createdAt);
}

/** The parameters of the kinds these tests write, none of them known. */
const EMPTY_READINGS = { current: null, phase: null, detail: null, volts: null, limit: 0, text: "test" };

/** A paid period of a box's plan ending at `endsAt`. */
async function planEnding(deviceId: string, endsAt: number) {
  await getDb(env.DB)
    .insert(planPeriods)
    .values({ deviceId, plan: "1year", amount: 1, startsAt: endsAt - 365 * DAY_MS, endsAt, createdAt: Date.now() });
}

async function rechargeRequest(user: { id: number; mobileNo: string }, deviceId: string, status: "pending" | "paid") {
  await getDb(env.DB).insert(rechargeRequests).values({
    userId: user.id,
    deviceId,
    mobileNo: user.mobileNo,
    plan: "1year",
    amount: 1,
    paymentMethod: "upi",
    status,
    requestedAt: Date.now(),
  });
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
    expect(await stats(token)).toMatchObject({ totalUsers: 1, devicesOnline: 0, totalLogs: 0, activeDevices: 0 });

    const busy = await farmerWithDevice();
    const quiet = await farmerWithDevice();
    const yesterday = await farmerWithDevice();
    await createUser();
    const box = (await connectDevice(busy.device)).autoAck();
    await expect.poll(async () => (await stats(token)).devicesOnline).toBe(1);

    // A real switch through the hub (its row of the figures reaches D1 when the hub's timer
    // comes, within 10 minutes: fired here)...
    expect((await postJson("/api/devices/motor", { action: "on" }, busy.token)).status).toBe(200);
    await fireTimer(busy.device.deviceId, "activity-copy");
    // ...an event that is no motor action, and a switch before midnight India time.
    const midnight = indiaMidnight(Date.now());
    await log(quiet.device.deviceId, "other", Date.now());
    await log(yesterday.device.deviceId, "off", midnight - 1);
    await log(yesterday.device.deviceId, "on", midnight - 60_000);
    await expect.poll(async () => (await stats(token)).totalLogs).toBe(4);

    expect(await stats(token)).toMatchObject({ totalUsers: 5, devicesOnline: 1, totalLogs: 4, activeDevices: 1 });
    box.close();
    await expect.poll(async () => (await stats(token)).devicesOnline).toBe(0);
  });
});

describe("what an admin running the fleet acts on", () => {
  it("counts boxes offline and not linked, phase faults now, trips today, recharges waiting and plans ending", async () => {
    const token = await loginToken(await createUser({ isAdmin: true }), "admin");
    const before = await stats(token);
    const now = Date.now();

    await provisionDevice(null); // in stock: not linked, never "offline"
    const online = await farmerWithDevice();
    const box = await connectDevice(online.device);
    await expect.poll(async () => (await stats(token)).devicesOnline).toBe(before.devicesOnline + 1);
    const offline = await farmerWithDevice();
    const lapsed = await farmerWithDevice();
    const covered = await farmerWithDevice();

    // A phase fault not yet over on a box online now counts; one that ended, or on a box we
    // cannot hear, does not (what it is now is not known).
    await log(online.device.deviceId, "other", now - 2_000, "phaseOk");
    await log(online.device.deviceId, "other", now - 1_000, "phaseFault");
    await log(covered.device.deviceId, "other", now - 2_000, "phaseFault");
    await log(covered.device.deviceId, "other", now - 1_000, "phaseOk");
    await log(offline.device.deviceId, "other", now - 1_000, "phaseFault");
    // Boxes that tripped today, each once; a trip before midnight India time is yesterday's.
    await log(offline.device.deviceId, "off", now - 1_000, "tripDryRun");
    await log(offline.device.deviceId, "off", now - 500, "tripOverCurrent");
    await log(lapsed.device.deviceId, "off", indiaMidnight(now) - 1, "tripUnderVoltage");
    // Theft alerts of the last 7 days, each event once; one 8 days old is not counted.
    await log(offline.device.deviceId, "other", now - 1_000, "tamper");
    await log(covered.device.deviceId, "other", now - 2 * DAY_MS, "cableCut");
    await log(lapsed.device.deviceId, "other", now - 8 * DAY_MS, "cableCut");
    await log(lapsed.device.deviceId, "other", now - 500, "tamperOk");
    // Recharge requests waiting for a decision, and one decided.
    await rechargeRequest(offline.user, offline.device.deviceId, "pending");
    await rechargeRequest(lapsed.user, lapsed.device.deviceId, "pending");
    await rechargeRequest(covered.user, covered.device.deviceId, "paid");
    // Plans: ending in 3 days, ended yesterday, covered for months.
    await planEnding(offline.device.deviceId, now + 3 * DAY_MS);
    await planEnding(lapsed.device.deviceId, now - DAY_MS);
    await planEnding(covered.device.deviceId, now + 200 * DAY_MS);

    const after = await stats(token);
    expect({
      devicesOffline: after.devicesOffline - before.devicesOffline,
      devicesUnlinked: after.devicesUnlinked - before.devicesUnlinked,
      phaseFaultsNow: after.phaseFaultsNow - before.phaseFaultsNow,
      devicesTrippedToday: after.devicesTrippedToday - before.devicesTrippedToday,
      theftAlertsWeek: after.theftAlertsWeek - before.theftAlertsWeek,
      rechargesPending: after.rechargesPending - before.rechargesPending,
      plansEndingSoon: after.plansEndingSoon - before.plansEndingSoon,
      plansLapsed: after.plansLapsed - before.plansLapsed,
    }).toEqual({
      devicesOffline: 3,
      devicesUnlinked: 1,
      phaseFaultsNow: 1,
      devicesTrippedToday: 1,
      theftAlertsWeek: 2,
      rechargesPending: 2,
      plansEndingSoon: 1,
      plansLapsed: 1,
    });
    box.close();
  });
});
