// A box relinked to another farmer, as its new owner would read it: the previous owner's motor
// log (their operators' names, their own number) is not the new owner's. Farmers see the log,
// the archive and the usage from when the box became their owner's, and so does the hub's recent
// log on their sockets and pages; an admin sees everything.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { motorLogsResponseSchema } from "../../../common/api-responses/logs.ts";
import { pumpUsageResponseSchema } from "../../../common/api-responses/usage.ts";
import { istDay } from "../../../common/pump-usage.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices } from "../../../worker/db/schema.ts";
import { motorLogArchiveCutoff } from "../../../worker/retention/motor-log-archive.ts";
import { runRetention } from "../../../worker/retention/retention.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { getJson, putJson } from "../helpers/http.ts";
import { hubStub, logThroughHub } from "../helpers/hub-state.ts";
import { logsAt } from "../helpers/motor-logs.ts";
import { connectBrowser } from "../helpers/sockets.ts";

const DAY = 24 * 60 * 60_000;

async function logIds(path: string, token: string): Promise<number[]> {
  const response = await getJson(`${path}?limit=200`, token);
  expect(response.status).toBe(200);
  return (await readJson(response, motorLogsResponseSchema)).map((log) => log.id);
}

describe("a box linked to another farmer", () => {
  it("shows its new owner only what happened since: D1, the archive, usage and the hub's recent log; an admin everything", async () => {
    const now = Date.now();
    const cutoff = motorLogArchiveCutoff(now);
    const before = await farmerWithDevice();
    const { deviceId } = before.device;
    // The box was the first farmer's for months: made for them long ago.
    await getDb(env.DB)
      .update(devices)
      .set({ createdAt: cutoff - 60 * DAY })
      .where(eq(devices.id, deviceId));
    const archived = await logsAt(deviceId, [cutoff - 40 * DAY, cutoff - 39 * DAY], (_at, index) => `Ram #${index}`);
    const theirs = await logsAt(deviceId, [now - 3 * DAY, now - 2 * DAY], (_at, index) => `Ram #${index + 2}`);
    await runRetention(env, now);
    // Yesterday's run, as the hub counted it.
    const yesterday = istDay(now - DAY);
    await runInDurableObject(hubStub(deviceId), (_object, state) => {
      state.storage.sql.exec(
        "INSERT INTO usage_days (day, running_ms, starts, energy_wh) VALUES (?, 3600000, 2, 5000)",
        yesterday,
      );
    });
    const admin = await adminToken();
    const next = await createUser();
    expect((await putJson(`/api/admin/devices/${deviceId}/owner`, { mobileNo: next.mobileNo }, admin)).status).toBe(
      200,
    );
    // What happens since is written by the hub, where the box's log lives now.
    await logThroughHub(deviceId, "other", { kind: "legacy", text: "the new owner's" }, Date.now() + 1);
    const after = (await hubStub(deviceId).motorLogPage({ limit: 1 })).rows.map((row) => row.id);
    const nextToken = await loginToken(next);

    // The new owner, by either route, sees only what came after the link.
    expect(await logIds(`/api/pumps/${deviceId}/logs`, nextToken)).toEqual(after);
    expect(await logIds(`/api/logs/motor/${next.mobileNo}`, nextToken)).toEqual(after);
    const usage = await readJson(
      await getJson(`/api/pumps/${deviceId}/usage?days=7`, nextToken),
      pumpUsageResponseSchema,
    );
    expect(usage.usage.days.find((day) => day.date === yesterday)).toMatchObject({ runningMinutes: 0, starts: 0 });
    const browser = await connectBrowser({ deviceId }, { token: nextToken });
    const initial = await browser.next("initialData");
    expect(initial.lastLogs.map((log: { id: number }) => log.id).filter((id: number) => theirs.includes(id))).toEqual(
      [],
    );
    browser.close();

    // An admin reads all of it.
    const everything = [...after, ...theirs, ...archived].sort((a, b) => b - a);
    expect(await logIds(`/api/pumps/${deviceId}/logs`, admin)).toEqual(everything);
    const adminUsage = await readJson(
      await getJson(`/api/pumps/${deviceId}/usage?days=7`, admin),
      pumpUsageResponseSchema,
    );
    expect(adminUsage.usage.days.find((day) => day.date === yesterday)).toMatchObject({
      runningMinutes: 60,
      starts: 2,
    });
  });
});
