// The motor log at home in the hub (durable-objects/device-hub/motor-log.ts): an entry is stored
// in the step that made it, with an id from its time that stays above every id D1 gave and in
// the order things happened; D1 gets nothing. What an older hub left in its outbox for D1 is
// moved into the log when it starts, each entry once, and a copy of it that reached D1 is not
// doubled by the move of D1's rows.
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hubRefOf, outboxRowOf } from "../../durable-objects/device-hub/motor-log.ts";
import { getDb } from "../../worker/db/client.ts";
import { motorLogs } from "../../worker/db/schema.ts";
import { moveLogsToHubs } from "../../worker/retention/move-logs-to-hubs.ts";
import { hubStub, motorLogRows } from "../worker/helpers/hub-state.ts";
import { uniqueHubName, withRooms } from "./room-support.ts";

function d1RowsOf(deviceId: string) {
  return getDb(env.DB).select().from(motorLogs).where(eq(motorLogs.deviceId, deviceId));
}

function outboxLength(deviceId: string) {
  return runInDurableObject(
    hubStub(deviceId),
    (_hub: unknown, state) => state.storage.sql.exec("SELECT id FROM log_outbox").toArray().length,
  );
}

describe("an entry", () => {
  it("is in the hub's log in the step that made it, with an id from its time, and D1 gets nothing", async () => {
    const deviceId = uniqueHubName();
    const before = Date.now();
    const rows = await withRooms(async ({ log }) => {
      log.record("off", { kind: "powerLost" });
      // Read in the same synchronous step: nothing had to be awaited for it to be there.
      return log.page({ limit: 10 }).rows;
    }, deviceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "off", kind: "powerLost", deviceId });
    // Above any id D1's autoincrement gives, and read back as the time it was written.
    expect(rows[0]!.id).toBeGreaterThanOrEqual(before * 1000);
    expect(rows[0]!.id).toBeLessThanOrEqual(Date.now() * 1000 + 999);
    expect(await d1RowsOf(deviceId)).toEqual([]);
  });

  it("many in one millisecond keep the order they happened in, newest first in a page", async () => {
    const deviceId = uniqueHubName();
    const texts = await withRooms(async ({ log }) => {
      for (let index = 0; index < 120; index++) log.record("other", { kind: "legacy", text: `entry ${index}` });
      const firstPage = log.page({ limit: 50 }).rows;
      const rest = log.page({ limit: 200, before: firstPage.at(-1)!.id }).rows;
      return [...firstPage, ...rest].map((row) => JSON.parse(row.params).text as string);
    }, deviceId);
    expect(texts).toEqual(Array.from({ length: 120 }, (_, index) => `entry ${119 - index}`));
  });

  it("an outbox row an older hub stored as a sentence is read back as its kind", () => {
    const legacy = {
      deviceId: "SNC-X",
      userId: 1,
      mobileNo: "9876543210",
      action: "off" as const,
      message: "Power cut at the pump. Motor stopped.",
      createdAt: 5,
    };
    expect(outboxRowOf(legacy)).toEqual({
      deviceId: "SNC-X",
      userId: 1,
      mobileNo: "9876543210",
      action: "off",
      event: { kind: "powerLost" },
      createdAt: 5,
    });
  });
});

describe("an older hub's outbox", () => {
  /** What a hub that wrote its log to D1 left when it stopped: two entries not yet written, one a sentence. */
  async function leaveOutbox(deviceId: string, at: number) {
    await runInDurableObject(hubStub(deviceId), (_hub: unknown, state) => {
      const rows = [
        { deviceId, userId: null, mobileNo: "9876543210", action: "off", event: { kind: "powerLost" }, createdAt: at },
        {
          deviceId,
          userId: null,
          mobileNo: "9876543210",
          action: "other",
          message: "Phase is OK now.",
          createdAt: at + 1,
        },
      ];
      for (const row of rows) state.storage.sql.exec("INSERT INTO log_outbox (row) VALUES (?)", JSON.stringify(row));
    });
    await evictDurableObject(hubStub(deviceId));
  }

  it("is moved into the log when the hub starts, each entry once, and the outbox emptied", async () => {
    const deviceId = uniqueHubName();
    const at = Date.now() - 60_000;
    await leaveOutbox(deviceId, at);
    await hubStub(deviceId).ping(); // anything that starts it again
    await hubStub(deviceId).ping();
    expect((await motorLogRows(deviceId)).map((row) => [row.action, row.kind, row.createdAt, row.hubRef])).toEqual([
      ["off", "powerLost", at, hubRefOf(deviceId, 1)],
      ["other", "phaseOk", at + 1, hubRefOf(deviceId, 2)],
    ]);
    expect(await outboxLength(deviceId)).toBe(0);
  });

  it("an entry whose D1 write landed before the hub stopped is not doubled by the move of D1's rows", async () => {
    const deviceId = uniqueHubName();
    const at = Date.now() - 60_000;
    await leaveOutbox(deviceId, at);
    // The first entry reached D1, and the hub stopped before it removed it from its outbox.
    await getDb(env.DB)
      .insert(motorLogs)
      .values({
        deviceId,
        userId: null,
        mobileNo: "9876543210",
        action: "off",
        kind: "powerLost",
        params: "{}",
        message: "Power cut at the pump. Motor stopped.",
        createdAt: at,
        hubRef: hubRefOf(deviceId, 1),
      });
    while ((await moveLogsToHubs(env)).rows > 0);
    expect(await d1RowsOf(deviceId)).toEqual([]);
    expect((await motorLogRows(deviceId)).map((row) => row.kind)).toEqual(["powerLost", "phaseOk"]);
  });
});
