// D1 round trips are counted where they are made (worker/db/query-count.ts) and told on every
// answer: a tap over HTTP reads session and box in one query and waits for no other; the hub
// writes its log after answering, and counts its own round trips in its stats.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DeviceHub } from "../../../durable-objects/device-hub.ts";
import { countingD1, type QueryCount } from "../../../worker/db/query-count.ts";
import { holdHubD1, releaseHubD1 } from "../../durable-objects/hub-d1-hold.ts";
import { adminToken, loginToken } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice } from "../helpers/boxes.ts";
import { api, getJson, postJson, putJson } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { sharePump } from "../helpers/sharing.ts";

/** The D1 round trips an answer says it took. */
function d1Queries(response: Response): number {
  const match = /(?:^|,\s*)d1;desc="queries=(\d+)"/.exec(response.headers.get("Server-Timing") ?? "");
  if (!match) throw new Error(`no D1 count in ${response.headers.get("Server-Timing")}`);
  return Number(match[1]);
}

/** The time an answer says D1 and the whole Worker took, in ms. */
function timings(response: Response): { d1: number; worker: number } {
  const header = response.headers.get("Server-Timing") ?? "";
  const d1 = /(?:^|,\s*)d1;desc="[^"]*";dur=([\d.]+)/.exec(header);
  const worker = /(?:^|,\s*)worker;dur=([\d.]+)/.exec(header);
  if (!d1 || !worker) throw new Error(`no timings in ${header}`);
  return { d1: Number(d1[1]), worker: Number(worker[1]) };
}

describe("a tap over HTTP", () => {
  it("reads session and box in one D1 query, on the per-pump route and SPEC §7's", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const perPump = await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "on" }, token);
    expect(perPump.status).toBe(200);
    expect(d1Queries(perPump)).toBe(1);
    const spec = await postJson("/api/devices/motor", { action: "off" }, token);
    expect(spec.status).toBe(200);
    expect(d1Queries(spec)).toBe(1);
    // Where its time went: the Worker held it longer than D1 did, for it also waited on the box.
    const { d1, worker } = timings(spec);
    expect(worker).toBeGreaterThanOrEqual(d1);
    box.close();
  });

  it("keeps every refusal: another farmer's box is not found, a viewer may not switch, no session is 401", async () => {
    const owner = await farmerWithBox({ autoAck: true });
    const stranger = await farmerWithBox();
    const refused = await postJson(`/api/pumps/${owner.device.deviceId}/motor`, { action: "on" }, stranger.token);
    expect([refused.status, d1Queries(refused)]).toEqual([404, 1]);
    const anonymous = await postJson(`/api/pumps/${owner.device.deviceId}/motor`, { action: "on" });
    expect(anonymous.status).toBe(401);
    const admin = await postJson(`/api/pumps/${owner.device.deviceId}/motor`, { action: "on" }, await adminToken());
    expect(admin.status).toBe(403);
    const malformed = await postJson("/api/pumps/not a box/motor", { action: "on" }, owner.token);
    expect(malformed.status).toBe(400);
    owner.box.close();
    stranger.box.close();
  });
});

describe("every route about one box", () => {
  it("reads session and the caller's access in one query, refusing as before", async () => {
    const owner = await farmerWithDevice();
    const stranger = await farmerWithDevice();
    const id = owner.device.deviceId;
    const { viewer } = await sharePump(id, owner.token);
    const viewerToken = await loginToken(viewer);
    // Refused before any other read: the one query is all the route made.
    const cases: [string, Promise<Response>, number][] = [
      ["stranger reads logs", getJson(`/api/pumps/${id}/logs`, stranger.token), 404],
      ["stranger reads usage", getJson(`/api/pumps/${id}/usage`, stranger.token), 404],
      ["viewer renames", putJson(`/api/pumps/${id}/name`, { name: "x" }, viewerToken), 403],
      ["viewer saves a schedule", postJson(`/api/pumps/${id}/schedules`, {}, viewerToken), 403],
      ["viewer lists members", getJson(`/api/pumps/${id}/members`, viewerToken), 403],
      ["viewer changes settings", postJson(`/api/pumps/${id}/config`, {}, viewerToken), 403],
      ["viewer offers firmware", postJson(`/api/pumps/${id}/ota`, {}, viewerToken), 403],
      ["nobody's box", getJson("/api/pumps/SNC-ZZZZZZZZ/logs", owner.token), 404],
    ];
    for (const [name, answer, status] of cases) {
      const response = await answer;
      expect([name, response.status, d1Queries(response)]).toEqual([name, status, 1]);
    }
    // Allowed: the same first query, then what the route itself reads.
    const logs = await getJson(`/api/pumps/${id}/logs`, viewerToken);
    expect(logs.status).toBe(200);
    expect(d1Queries(logs)).toBeGreaterThanOrEqual(2);
  });
});

describe("the hub's count", () => {
  it("grows with the hub's own round trips (its people read again), read in its stats; a tap needs none", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const stub = hubStub(device.deviceId);
    const before = (await stub.hubStats()).d1Queries;
    // A tap is answered and logged by the hub alone, its log in the hub: with the hub's D1
    // answering nothing, the box's ack still makes it a success. (The dashboard's row is
    // copied after the step, and waits until D1 answers.)
    await runInDurableObject(stub, (hub: DeviceHub) => holdHubD1(hub));
    try {
      expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    } finally {
      await runInDurableObject(stub, (hub: DeviceHub) => releaseHubD1(hub));
    }
    expect(await hubStub(device.deviceId).refreshAccess()).toMatchObject({ ok: true });
    const after = (await hubStub(device.deviceId).hubStats()).d1Queries;
    expect(after).toBeGreaterThan(before);
    const stats = await getJson(`/api/admin/devices/${device.deviceId}/hub-stats`, await adminToken());
    expect(((await stats.json()) as { stats: { d1Queries: number } }).stats.d1Queries).toBe(after);
    box.close();
  });
});

describe("countingD1", () => {
  it("counts each statement run and each batch as one round trip, and batches its own statements", async () => {
    const count: QueryCount = { queries: 0, milliseconds: 0 };
    const db = countingD1(env.DB, count);
    expect(await db.prepare("SELECT 1 AS one").first("one")).toBe(1);
    expect((await db.prepare("SELECT ?1 AS two").bind(2).all()).results).toEqual([{ two: 2 }]);
    const results = await db.batch([db.prepare("SELECT 3 AS n"), db.prepare("SELECT ?1 AS n").bind(4)]);
    expect(results.map((result) => result.results)).toEqual([[{ n: 3 }], [{ n: 4 }]]);
    expect(count.queries).toBe(3);
    expect(Number.isFinite(count.milliseconds) && count.milliseconds >= 0).toBe(true);
    // Pages say theirs too.
    expect(d1Queries(await api("/login"))).toBeGreaterThanOrEqual(0);
  });
});
