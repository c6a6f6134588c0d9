// Recharge requests and connectivity plans: farmers ask, admins decide; paid extends the plan.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import {
  planResponseSchema,
  rechargeListResponseSchema,
  rechargeRequestResponseSchema,
} from "../../../common/api-responses/recharges.ts";
import { apiEn } from "../../../common/i18n/api-en.ts";
import { addMonths } from "../../../common/plans.ts";
import { getDb } from "../../../worker/db/client.ts";
import { planPeriods } from "../../../worker/db/schema.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { deleteJson, expectRefusedSaying, getJson, postJson, putJson, refusal } from "../helpers/http.ts";
import { connectDevice } from "../helpers/sockets.ts";

async function activatedFarmer() {
  const farmer = await farmerWithDevice();
  (await connectDevice(farmer.device)).close(); // the first hello starts the free year
  await expect.poll(async () => (await plan(farmer.token))?.plan).toBe("free");
  return farmer;
}

async function plan(token: string) {
  return (await readJson(await getJson("/api/recharge/plan", token), planResponseSchema)).plan;
}

async function request(token: string, body: object) {
  return postJson("/api/recharge/request", body, token);
}

/** Asks for a plan and reads the answer (the request as recorded, its UPI link). */
async function requested(token: string, body: object) {
  return readJson(await request(token, body), rechargeRequestResponseSchema);
}

const setStatus = (id: number | string, status: string, token: string) =>
  putJson(`/api/recharge/status/${id}`, { status }, token);

const remove = (id: number, token: string) => deleteJson(`/api/recharge/${id}`, undefined, token);

describe("POST /api/recharge/request", () => {
  it("records a pending request for the signed-in farmer, priced by the server, with a UPI link", async () => {
    const { user, device, token } = await farmerWithDevice();
    const response = await request(token, { plan: "6month", paymentMethod: "upi", amount: 1 });
    expect(response.status).toBe(201);
    const body = await readJson(response, rechargeRequestResponseSchema);
    expect(body.message).toBe("Recharge request submitted successfully!");
    expect(body.request).toMatchObject({
      mobileNo: user.mobileNo,
      plan: "6month",
      amount: 999,
      paymentMethod: "upi",
      status: "pending",
    });
    const link = new URL(body.upiLink ?? "");
    expect(link.protocol).toBe("upi:");
    expect(Object.fromEntries(link.searchParams)).toMatchObject({
      pa: "sinchai.demo@upi",
      am: "999.00",
      cu: "INR",
      tn: `Sinchai 6month plan ${device.deviceId}`,
    });
    // One pending request per device: the first is decided before the next is sent.
    expect((await setStatus(body.request.id, "failed", await adminToken())).status).toBe(200);
    const bank = await requested(token, { plan: "1year", paymentMethod: "bank" });
    expect(bank.upiLink).toBeNull();
    expect(bank.request.amount).toBe(1111);
    const mine = await readJson(await getJson("/api/recharge/requests", token), rechargeListResponseSchema);
    expect(mine.data.map((row) => row.plan)).toEqual(["1year", "6month"]);
  });

  it.each([
    [{ plan: "2year", paymentMethod: "upi" }, "plan must be one of 1month, 3month, 6month, 1year."],
    [{ plan: "1year", paymentMethod: "crypto" }, "paymentMethod must be one of upi, bank, cash."],
    [{ paymentMethod: "upi" }, "plan must be one of 1month, 3month, 6month, 1year."],
  ])("refuses %j with 400", async (body, message) => {
    const { token } = await farmerWithDevice();
    const response = await request(token, body);
    await expectRefusedSaying(response, 400, message);
  });

  it("refuses another farmer's number, an account without a device, admins and strangers", async () => {
    const a = await farmerWithDevice();
    const b = await farmerWithDevice();
    expect((await request(a.token, { mobileNo: b.user.mobileNo, plan: "1year", paymentMethod: "upi" })).status).toBe(
      403,
    );
    const lonely = await loginToken(await createUser());
    expect((await request(lonely, { plan: "1year", paymentMethod: "upi" })).status).toBe(404);
    expect((await request(await adminToken(), { plan: "1year", paymentMethod: "upi" })).status).toBe(403);
    expect((await postJson("/api/recharge/request", { plan: "1year", paymentMethod: "upi" })).status).toBe(401);
    const bMine = await readJson(await getJson("/api/recharge/requests", b.token), rechargeListResponseSchema);
    expect(bMine.data).toEqual([]);
  });
});

describe("plans", () => {
  it("has no plan before the box first connects, then a free first year", async () => {
    const { device, token } = await farmerWithDevice();
    expect(await plan(token)).toBeNull();
    (await connectDevice(device)).close();
    await expect.poll(() => plan(token)).toMatchObject({ plan: "free", amount: 0, status: "active" });
    const card = (await plan(token))!;
    expect(Date.parse(card.expiresAt)).toBe(addMonths(Date.parse(card.activatedAt), 12));
    // A second hello does not start another free year.
    (await connectDevice(device)).close();
    const rows = await getDb(env.DB).select().from(planPeriods).where(eq(planPeriods.deviceId, device.deviceId));
    expect(rows).toHaveLength(1);
  });

  it("counts calendar months in India time", () => {
    const istMidnight = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) - 5.5 * 3600_000;
    expect(addMonths(istMidnight(2025, 5, 1), 12)).toBe(istMidnight(2026, 5, 1));
    expect(addMonths(istMidnight(2026, 1, 31), 1)).toBe(istMidnight(2026, 2, 28));
    expect(addMonths(istMidnight(2028, 1, 31), 1)).toBe(istMidnight(2028, 2, 29));
    expect(addMonths(istMidnight(2026, 11, 30), 3)).toBe(istMidnight(2027, 2, 28));
  });
});

describe("one pending request per device", () => {
  it("refuses a second request while one waits, even 20 sent at once; a decided or deleted one frees the device", async () => {
    const farmer = await activatedFarmer();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        request(farmer.token, { plan: index % 2 ? "1month" : "1year", paymentMethod: "upi" }).then(
          (response) => response.status,
        ),
      ),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    const refused = await request(farmer.token, { plan: "3month", paymentMethod: "cash" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual(refusal(apiEn["error.pendingRecharge"], "pendingRecharge"));
    const mine = await readJson(await getJson("/api/recharge/requests", farmer.token), rechargeListResponseSchema);
    expect(mine.data).toHaveLength(1);

    const admin = await adminToken();
    expect((await setStatus(mine.data[0]!.id, "failed", admin)).status).toBe(200);
    const next = await requested(farmer.token, { plan: "3month", paymentMethod: "cash" });
    expect(next.request.status).toBe("pending");
    expect((await request(farmer.token, { plan: "1month", paymentMethod: "cash" })).status).toBe(409);
    expect((await remove(next.request.id, admin)).status).toBe(200);
    expect((await request(farmer.token, { plan: "1month", paymentMethod: "cash" })).status).toBe(201);
  });

  it("is backed by a unique index: a second pending row for the device cannot be written even directly", async () => {
    const farmer = await activatedFarmer();
    expect((await request(farmer.token, { plan: "1year", paymentMethod: "upi" })).status).toBe(201);
    const insert = env.DB.prepare(
      "INSERT INTO recharge_requests (user_id, device_id, mobile_no, plan, amount, payment_method, status, requested_at) VALUES (?, ?, ?, '1month', 1, 'cash', 'pending', 0)",
    ).bind(farmer.user.id, farmer.device.deviceId, farmer.user.mobileNo);
    await expect(insert.run()).rejects.toThrow(/UNIQUE/);
  });

  it("is per device: another farmer's pending request does not stop this one", async () => {
    const [a, b] = await Promise.all([activatedFarmer(), activatedFarmer()]);
    expect((await request(a.token, { plan: "1year", paymentMethod: "upi" })).status).toBe(201);
    expect((await request(b.token, { plan: "1year", paymentMethod: "upi" })).status).toBe(201);
  });
});

describe("admins deciding requests", () => {
  it("list every request; marking one paid extends the plan from the end of the free year", async () => {
    const farmer = await activatedFarmer();
    const created = await requested(farmer.token, { plan: "3month", paymentMethod: "cash" });
    const admin = await adminToken();
    const list = await readJson(await getJson("/api/admin/recharge-requests", admin), rechargeListResponseSchema);
    expect(list.success).toBe(true);
    expect(list.data.find((row) => row.id === created.request.id)).toMatchObject({ status: "pending", amount: 777 });
    const before = (await plan(farmer.token))!;

    const paid = await setStatus(created.request.id, "paid", admin);
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ success: true, message: "Status updated" });
    const after = (await plan(farmer.token))!;
    expect(after.plan).toBe("free"); // still in the free year…
    expect(Date.parse(after.expiresAt)).toBe(addMonths(Date.parse(before.expiresAt), 3)); // …covered 3 months longer
    // …and the card says so: the free year ends when it did, then the paid 3 months.
    expect(before.upcoming).toEqual([]);
    expect(after.currentEndsAt).toBe(before.expiresAt);
    expect(after.upcoming).toEqual([
      { plan: "3month", amount: 777, startsAt: before.expiresAt, endsAt: after.expiresAt },
    ]);

    // Only pending requests can be marked, and a request extends a plan once.
    const again = await setStatus(created.request.id, "paid", admin);
    expect(again.status).toBe(409);
    expect(await setStatus(created.request.id, "failed", admin)).toHaveProperty("status", 409);
    const periods = await getDb(env.DB)
      .select()
      .from(planPeriods)
      .where(eq(planPeriods.deviceId, farmer.device.deviceId));
    expect(periods.map((period) => period.plan)).toEqual(["free", "3month"]);
  });

  it("starts a lapsed device's new period now, and shows the new plan", async () => {
    const farmer = await activatedFarmer();
    await getDb(env.DB)
      .update(planPeriods)
      .set({ startsAt: Date.now() - 400 * 86_400_000, endsAt: Date.now() - 35 * 86_400_000 })
      .where(eq(planPeriods.deviceId, farmer.device.deviceId));
    expect((await plan(farmer.token))!.status).toBe("expired");
    const created = await requested(farmer.token, { plan: "1month", paymentMethod: "upi" });
    expect((await setStatus(created.request.id, "paid", await adminToken())).status).toBe(200);
    const card = (await plan(farmer.token))!;
    expect(card).toMatchObject({ plan: "1month", amount: 399, status: "active" });
    expect(Math.abs(Date.parse(card.activatedAt) - Date.now())).toBeLessThan(60_000);
  });

  it("mark failed extends nothing; delete works in any status", async () => {
    const farmer = await activatedFarmer();
    const admin = await adminToken();
    const created = await requested(farmer.token, { plan: "1year", paymentMethod: "upi" });
    expect((await setStatus(created.request.id, "failed", admin)).status).toBe(200);
    const periods = await getDb(env.DB)
      .select()
      .from(planPeriods)
      .where(eq(planPeriods.deviceId, farmer.device.deviceId));
    expect(periods).toHaveLength(1);
    const deleted = await remove(created.request.id, admin);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true, message: "Request deleted" });
    expect((await remove(created.request.id, admin)).status).toBe(404);
  });

  it("answers bad ids and statuses clearly, and refuses farmers and strangers", async () => {
    const farmer = await activatedFarmer();
    const admin = await adminToken();
    const created = await requested(farmer.token, { plan: "1year", paymentMethod: "upi" });
    expect((await setStatus(created.request.id, "refunded", admin)).status).toBe(400);
    expect((await setStatus("abc", "paid", admin)).status).toBe(400);
    expect((await setStatus("999999", "paid", admin)).status).toBe(404);
    expect((await setStatus(created.request.id, "paid", farmer.token)).status).toBe(403);
    expect((await remove(created.request.id, farmer.token)).status).toBe(403);
    expect((await getJson("/api/admin/recharge-requests", farmer.token)).status).toBe(403);
    expect((await getJson("/api/admin/recharge-requests")).status).toBe(401);
  });
});
