// The move of a running fleet's motor log from D1 into the hubs
// (worker/retention/move-logs-to-hubs.ts), on a local database holding the logs of many boxes:
// stopped midway, with a hub that stored a batch D1 had not yet let go, and started again,
// every box ends with exactly its rows, under their D1 ids, and D1 with none; at every point in
// between, a box's log read through the API is the whole of it, in order, each entry once.
import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { motorLogsResponseSchema } from "../../../common/api-responses/logs.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices, motorLogs } from "../../../worker/db/schema.ts";
import { moveLogsToHubs } from "../../../worker/retention/move-logs-to-hubs.ts";
import { adminToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { getJson } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { logsAt } from "../helpers/motor-logs.ts";

freshStorageForThisFile();

const db = getDb(env.DB);
const DAY = 24 * 60 * 60_000;

/** Every entry of a box's log through the admin's API, `limit` a page, following "older". */
async function everyIdThroughTheApi(deviceId: string, token: string, limit: number): Promise<number[]> {
  const ids: number[] = [];
  let before: number | undefined;
  for (;;) {
    const response = await getJson(
      `/api/pumps/${deviceId}/logs?limit=${limit}${before ? `&before=${before}` : ""}`,
      token,
    );
    expect(response.status).toBe(200);
    const page = await readJson(response, motorLogsResponseSchema);
    ids.push(...page.map((log) => log.id));
    if (page.length < limit) return ids;
    before = page.at(-1)!.id;
  }
}

async function idsInD1(deviceId?: string): Promise<number[]> {
  const rows = await db
    .select({ id: motorLogs.id })
    .from(motorLogs)
    .where(deviceId ? eq(motorLogs.deviceId, deviceId) : undefined)
    .orderBy(asc(motorLogs.id));
  return rows.map((row) => row.id);
}

async function rowsInHub(deviceId: string) {
  const page = await hubStub(deviceId).motorLogPage({ limit: 100_000 });
  return { ids: page.rows.map((row) => row.id).reverse(), d1MayHoldMore: page.d1MayHoldMore, rows: page.rows };
}

describe("the move of D1's motor logs into the hubs", () => {
  it("stopped midway and started again: nothing lost, nothing doubled, every read whole in between", async () => {
    const admin = await adminToken();
    const now = Date.now();
    // Boxes with no log, a few entries, and more than several batches; written interleaved,
    // as a fleet writes them, so a box's ids are not one run.
    const sizes = [0, 1, 7, 130, 45, 260];
    const boxes = await Promise.all(sizes.map(() => farmerWithDevice()));
    const written = new Map<string, number[]>(boxes.map(({ device }) => [device.deviceId, []]));
    const longest = Math.max(...sizes);
    for (let index = 0; index < longest; index++) {
      for (const [box, { device }] of boxes.entries()) {
        if (index >= sizes[box]!) continue;
        const [id] = await logsAt(device.deviceId, [now - 30 * DAY + index * 60_000 + box]);
        written.get(device.deviceId)!.push(id!);
      }
    }
    // Everything the boxes' log pages read, before the move: D1 alone.
    const before = new Map<string, number[]>();
    for (const { device } of boxes) before.set(device.deviceId, await everyIdThroughTheApi(device.deviceId, admin, 40));
    for (const { device } of boxes)
      expect(before.get(device.deviceId)).toEqual([...written.get(device.deviceId)!].reverse());

    // One short tick, then a hub that stored its batch while D1 did not let it go (the tick
    // died between the two): the rows are in both places.
    const limits = { batches: 3, rowsPerBatch: 20 };
    const first = await moveLogsToHubs(env, limits);
    expect(first.rows).toBeGreaterThan(0);
    expect(first.rows).toBeLessThanOrEqual(60);
    const halfway = boxes[5]!; // 260 entries: more than one tick's share
    expect((await idsInD1(halfway.device.deviceId)).length).toBeGreaterThan(20);
    const stuck = await db
      .select()
      .from(motorLogs)
      .where(eq(motorLogs.deviceId, halfway.device.deviceId))
      .orderBy(asc(motorLogs.id))
      .limit(20);
    await hubStub(halfway.device.deviceId).importMotorLogs(stuck, false);

    // Midway: each box's log reads whole, in order, each entry once, whichever side holds it.
    for (const { device } of boxes) {
      for (const limit of [7, 50])
        expect(await everyIdThroughTheApi(device.deviceId, admin, limit)).toEqual(before.get(device.deviceId));
    }

    // Started again, in small ticks to the end.
    let ticks = 0;
    while ((await moveLogsToHubs(env, limits)).rows > 0) ticks += 1;
    expect(ticks).toBeGreaterThan(3);
    expect(await idsInD1()).toEqual([]);
    for (const { device } of boxes) {
      const hub = await rowsInHub(device.deviceId);
      // Exactly the box's rows, under their D1 ids; a box that had none was never called.
      expect(hub.ids).toEqual(written.get(device.deviceId));
      expect(await everyIdThroughTheApi(device.deviceId, admin, 33)).toEqual(before.get(device.deviceId));
      if (written.get(device.deviceId)!.length > 0) expect(hub.d1MayHoldMore).toBe(false);
    }
    // A row moved reads as it did from D1.
    const [moved] = (await rowsInHub(boxes[1]!.device.deviceId)).rows;
    expect(moved).toMatchObject({ kind: "legacy", action: "other", message: `at ${now - 30 * DAY + 1} #0` });
    // Run again: nothing left, nothing done.
    expect(await moveLogsToHubs(env)).toEqual({ rows: 0, boxes: 0 });
  });

  it("the hub's new entries come after the moved ones, and a farmer's page from their own time on", async () => {
    const { device, token, user } = await farmerWithDevice();
    const now = Date.now();
    await db
      .update(devices)
      .set({ createdAt: now - 10 * DAY })
      .where(eq(devices.id, device.deviceId));
    // One entry from before the box was this farmer's (another owner's), two after.
    const old = await logsAt(device.deviceId, [now - 20 * DAY, now - 5 * DAY, now - 4 * DAY]);
    while ((await moveLogsToHubs(env)).rows > 0);
    await hubStub(device.deviceId).importMotorLogs([], true);
    const response = await getJson(`/api/logs/motor/${user.mobileNo}?limit=10`, token);
    const ids = (await readJson(response, motorLogsResponseSchema)).map((log) => log.id);
    expect(ids).toEqual([old[2], old[1]]);
  });
});
