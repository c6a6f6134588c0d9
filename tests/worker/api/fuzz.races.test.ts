// Floods and races against the API: many of the same request at once, as a script or a
// double-tapping phone sends them. The rule of the fuzz suites holds: never a 5xx, every refusal
// is `{ success: false, message }`, and a refused input changes nothing.
import { env } from "cloudflare:workers";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { motorStatusResponseSchema } from "../../../common/api-responses/devices.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { switchMessageSchema } from "../../../common/device-protocol.ts";
import { getDb } from "../../../worker/db/client.ts";
import { rechargeRequests, sessions, users } from "../../../worker/db/schema.ts";
import { createUser, uniqueMobileNo } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { api, getJson, postJson } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { connectDevice } from "../helpers/sockets.ts";

const db = () => getDb(env.DB);

/** Sends them all at once; checks the rule on every answer; returns the statuses. */
async function all(requests: (() => Promise<Response>)[]): Promise<number[]> {
  const responses = await Promise.all(requests.map((send) => send()));
  const statuses: number[] = [];
  for (const response of responses) {
    expect(response.status, "never a 5xx").toBeLessThan(500);
    // A refusal in its one shape, nothing more (parsed strictly).
    if (response.status >= 400) await readJson(response, apiErrorSchema);
    statuses.push(response.status);
  }
  return statuses;
}

const tally = (statuses: number[]) => {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

describe("races", () => {
  it("30 registrations of one number at once: one account, the rest 409", async () => {
    const mobileNo = uniqueMobileNo();
    const statuses = await all(
      Array.from(
        { length: 30 },
        (_, index) => () => postJson("/api/auth/register", { mobileNo, password: `pani-ka-samay-${index}` }),
      ),
    );
    expect(tally(statuses)).toEqual({ 201: 1, 409: 29 });
    expect((await db().select({ n: count() }).from(users).where(eq(users.mobileNo, mobileNo)))[0]!.n).toBe(1);
  });

  it("40 logins at once, right and wrong passwords mixed: a session for each 200 and none for a refusal", async () => {
    const user = await createUser();
    const statuses = await all(
      Array.from(
        { length: 40 },
        (_, index) => () =>
          postJson("/api/auth/login", {
            mobileNo: user.mobileNo,
            password: index % 2 ? user.password : "wrong-password",
          }),
      ),
    );
    const counts = tally(statuses);
    expect(Object.keys(counts).every((status) => ["200", "401", "429"].includes(status))).toBe(true);
    // At most 5 wrong passwords are ever checked for one number; whatever else, sessions = 200s.
    expect(counts[401] ?? 0).toBeLessThanOrEqual(5);
    expect((await db().select({ n: count() }).from(sessions).where(eq(sessions.userId, user.id)))[0]!.n).toBe(
      counts[200] ?? 0,
    );
  });

  it("20 valid and 16 broken recharge requests at once: one request stored, at the server's price; every broken one 400", async () => {
    const farmer = await farmerWithDevice();
    (await connectDevice(farmer.device)).close();
    // Some name their own price: ignored, the server's is used.
    const valid = Array.from(
      { length: 20 },
      (_, index) => () =>
        postJson(
          "/api/recharge/request",
          { plan: "1year", paymentMethod: "upi", ...(index % 4 ? {} : { amount: 1 }) },
          farmer.token,
        ),
    );
    const broken = [
      { plan: "2year", paymentMethod: "upi" },
      { plan: "1year", paymentMethod: "gold" },
      { plan: "1year", paymentMethod: "upi", mobileNo: "12" },
      {},
    ].flatMap((body) => Array.from({ length: 4 }, () => () => postJson("/api/recharge/request", body, farmer.token)));
    const statuses = await all([...valid, ...broken].sort(() => Math.random() - 0.5));
    expect(tally(statuses)).toEqual({ 201: 1, 409: 19, 400: 16 });
    const stored = await db()
      .select()
      .from(rechargeRequests)
      .where(eq(rechargeRequests.deviceId, farmer.device.deviceId));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ plan: "1year", amount: 1111, status: "pending" });
  });

  it("30 switch commands at once, ON and OFF mixed: no 5xx, and the box's relay, the hub and the log agree", async () => {
    const farmer = await farmerWithDevice();
    const box = (await connectDevice(farmer.device)).autoAck({ runningCurrent: 8.9 });
    const statuses = await all(
      Array.from(
        { length: 30 },
        (_, index) => () => postJson("/api/devices/motor", { action: index % 3 ? "on" : "off" }, farmer.token),
      ),
    );
    const counts = tally(statuses);
    expect(Object.keys(counts).every((status) => ["200", "409", "429"].includes(status))).toBe(true);
    expect(counts[200]).toBeGreaterThanOrEqual(1);
    const switches = box.raw
      .filter((text) => text.includes('"type":"switch"'))
      .map((text) => switchMessageSchema.parse(JSON.parse(text)));
    // Each command the box was sent was confirmed (OFF may be sent when already off).
    expect(switches.length).toBe(counts[200]);
    const status = await readJson(
      await getJson(`/api/devices/motor/status/${farmer.user.mobileNo}`, farmer.token),
      motorStatusResponseSchema,
    );
    expect(status.status).toBe(switches.at(-1)!.relay);
    await expect
      .poll(async () => (await hubStub(farmer.device.deviceId).motorLogPage({ limit: 100 })).rows.length)
      .toBeGreaterThanOrEqual(1);
    box.close();
  });
});

describe("floods", () => {
  it("300 malformed requests at once against writing routes: all 4xx, nothing written", async () => {
    const farmer = await farmerWithDevice();
    const before = await Promise.all([
      db().select({ n: count() }).from(users),
      db().select({ n: count() }).from(rechargeRequests),
      db().select({ n: count() }).from(sessions),
    ]);
    const bodies = ["{", "[]", "null", '{"action":"sideways"}', '{"plan":"1year"}', "x".repeat(20_000)];
    const paths = [
      "/api/auth/register",
      "/api/auth/login",
      "/api/devices/motor",
      "/api/recharge/request",
      "/api/auth/change-password",
    ];
    const requests = Array.from(
      { length: 300 },
      (_, index) => () =>
        api(paths[index % paths.length]!, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${farmer.token}` },
          body: bodies[Math.floor(index / paths.length) % bodies.length]!,
        }),
    );
    const statuses = await all(requests);
    expect(statuses.every((status) => status >= 400 && status < 500)).toBe(true);
    const after = await Promise.all([
      db().select({ n: count() }).from(users),
      db().select({ n: count() }).from(rechargeRequests),
      db().select({ n: count() }).from(sessions),
    ]);
    expect(after).toEqual(before);
  });
});
