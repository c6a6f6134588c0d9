// The motor log room (durable-objects/device-hub/motor-log.ts) driven directly: the recent list
// a snapshot shows, an outbox row an older hub stored as a sentence, and an entry D1 refused,
// kept in the outbox and shown at once, then written exactly once however often it is flushed.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LIVE_MOTOR_LOG_LIMIT } from "../../common/constants.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import { outboxRowOf, withNewest } from "../../durable-objects/device-hub/motor-log.ts";
import { TIMERS } from "../../durable-objects/device-hub/timers.ts";
import { getDb } from "../../worker/db/client.ts";
import { motorLogs } from "../../worker/db/schema.ts";
import { uniqueHubName, withRooms } from "./room-support.ts";

const entry = (id: number): MotorLogEntry => ({
  id,
  action: "other",
  logMessage: "Phase is OK now.",
  timestamp: new Date(0).toISOString(),
  kind: "phaseOk",
  params: {},
});

describe("the recent list", () => {
  it("puts the newest first, each entry once, and keeps LIVE_MOTOR_LOG_LIMIT", () => {
    const recent = Array.from({ length: LIVE_MOTOR_LOG_LIMIT }, (_, index) => entry(LIVE_MOTOR_LOG_LIMIT - index));
    expect(withNewest(entry(8), recent).map((log) => log.id)).toEqual([8, 7, 6, 5, 4, 3, 2]);
    // The same entry again (its outbox copy replaced by D1's): listed once.
    expect(withNewest(entry(7), recent.slice(0, 2)).map((log) => log.id)).toEqual([7, 6]);
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

describe("an entry D1 refuses", () => {
  it("is shown at once from the outbox, retried by the flush-logs timer and written exactly once", async () => {
    const deviceId = uniqueHubName();
    const trigger = `refuse_${deviceId.replace(/-/g, "_")}`;
    await env.DB.exec(
      `CREATE TRIGGER ${trigger} BEFORE INSERT ON motor_logs WHEN NEW.device_id = '${deviceId}' BEGIN SELECT RAISE(ABORT, 'D1 unavailable'); END;`,
    );
    const refused = await withRooms(async ({ hub, log }) => {
      await log.record("other", { kind: "phaseOk" });
      return { recent: await log.recent(), outbox: hub.sql.outbox().length, retry: hub.timers.dueAt(TIMERS.flushLogs) };
    }, deviceId);
    expect(refused.recent).toEqual([expect.objectContaining({ kind: "phaseOk", id: -1 })]);
    expect(refused.outbox).toBe(1);
    expect(refused.retry).toBeGreaterThan(Date.now());

    await env.DB.exec(`DROP TRIGGER ${trigger};`);
    const outbox = await withRooms(async ({ hub, log }) => {
      await log.flushOutbox();
      await log.flushOutbox(); // the timer delivered twice
      return hub.sql.outbox().length;
    }, deviceId);
    expect(outbox).toBe(0);
    const rows = await getDb(env.DB).select().from(motorLogs).where(eq(motorLogs.deviceId, deviceId));
    expect(rows.map((row) => [row.kind, row.hubRef])).toEqual([["phaseOk", `${deviceId}:1`]]);
  });
});
