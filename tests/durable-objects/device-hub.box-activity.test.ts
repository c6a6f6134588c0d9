// The box's row of the dashboard's figures (durable-objects/device-hub/box-activity.ts), with
// the window deployed hubs have (DASHBOARD_COPY_WITHIN_SECONDS = 600): news (the day's first
// switch, a trip) is copied at a random moment of 10 minutes, a change of the count alone at one
// of the next half hour to hour, nothing is written to D1 before, and a copy repeated writes the
// same row.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openHubContext } from "../../durable-objects/device-hub/context.ts";
import { openRooms } from "../../durable-objects/device-hub/rooms.ts";
import { TIMERS } from "../../durable-objects/device-hub/timers.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { getDb } from "../../worker/db/client.ts";
import { boxActivity } from "../../worker/db/schema.ts";
import { farmerWithDevice } from "../worker/helpers/boxes.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";

const UNLIMITED = { take: () => true, grant: () => {} };
const MINUTE = 60_000;

/** The rooms of the box's hub as a deployed hub wires them: the 10-minute window. */
function withDeployedRooms<T>(deviceId: string, use: (rooms: ReturnType<typeof openRooms>) => T | Promise<T>) {
  return runInDurableObject(hubStub(deviceId), (_hub: DeviceHub, state) =>
    use(openRooms(openHubContext(state, { ...env, DASHBOARD_COPY_WITHIN_SECONDS: "600" }), UNLIMITED)),
  );
}

/**
 * Takes down the copy a test left planned: its alarm would otherwise come minutes later, during
 * another file's test, and query D1 from this hub while that test holds D1's answers.
 */
function forgetPlannedCopy(deviceId: string) {
  return withDeployedRooms(deviceId, ({ hub }) => {
    if (hub.timers.has(TIMERS.activityCopy)) hub.timers.delete(TIMERS.activityCopy);
  });
}

function rowOf(deviceId: string) {
  return getDb(env.DB).select().from(boxActivity).where(eq(boxActivity.deviceId, deviceId));
}

describe("the box's row of the dashboard's figures, deployed", () => {
  it("copies news within 10 minutes and a count within the hour, at a random moment, nothing before", async () => {
    const { device } = await farmerWithDevice();
    const at = Date.now();
    const news = await withDeployedRooms(device.deviceId, ({ hub, log }) => {
      log.record("on", { kind: "stated", relay: "on", how: "manual" }, at);
      return hub.timers.dueAt(TIMERS.activityCopy);
    });
    expect(news).toBeGreaterThanOrEqual(at);
    expect(news).toBeLessThanOrEqual(at + 10 * MINUTE);
    expect(await rowOf(device.deviceId)).toEqual([]);

    // Another switch of the same day is no news: only the count, within the hour, which does
    // not move the earlier copy.
    const count = await withDeployedRooms(device.deviceId, ({ hub, log }) => {
      hub.timers.delete(TIMERS.activityCopy);
      log.record("off", { kind: "stated", relay: "off", how: "manual" }, at + 1);
      return hub.timers.dueAt(TIMERS.activityCopy);
    });
    expect(count).toBeGreaterThanOrEqual(at + 30 * MINUTE);
    expect(count).toBeLessThanOrEqual(at + 60 * MINUTE);

    // The copy, twice (an alarm delivered twice): one row, the same.
    await withDeployedRooms(device.deviceId, ({ log }) => log.activity.copy());
    const once = await rowOf(device.deviceId);
    await withDeployedRooms(device.deviceId, ({ log }) => log.activity.copy());
    const twice = await rowOf(device.deviceId);
    expect(once).toEqual([expect.objectContaining({ logEntries: 2, lastSwitchAt: at + 1, phaseFault: false })]);
    expect(twice.map(({ updatedAt: _updatedAt, ...row }) => row)).toEqual(
      once.map(({ updatedAt: _updatedAt, ...row }) => row),
    );
    await forgetPlannedCopy(device.deviceId);
  });

  it("spreads a fleet's copies of the same minute over the window", async () => {
    const boxes = await Promise.all(Array.from({ length: 8 }, () => farmerWithDevice()));
    const at = Date.now();
    const dueAts = await Promise.all(
      boxes.map(({ device }) =>
        withDeployedRooms(device.deviceId, ({ hub, log }) => {
          log.record("on", { kind: "stated", relay: "on", how: "manual" }, at);
          return hub.timers.dueAt(TIMERS.activityCopy)!;
        }),
      ),
    );
    // Eight boxes switching in the same millisecond are not copied in the same second.
    expect(new Set(dueAts.map((dueAt) => Math.floor(dueAt / 1000))).size).toBeGreaterThan(1);
    for (const { device } of boxes) await forgetPlannedCopy(device.deviceId);
  });
});
