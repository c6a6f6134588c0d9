// The hub's one alarm serves named timers: device liveness and the D1 log outbox.
// Alarms are at-least-once, so every handler is run twice here too.
import { abortAllDurableObjects, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEVICE_OFFLINE_AFTER_MS, WATCHED_OFFLINE_AFTER_MS } from "../../common/constants.ts";
import { readStoredState, writeStoredState } from "../../durable-objects/device-hub/state.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { getDb } from "../../worker/db/client.ts";
import { boxActivity, devices } from "../../worker/db/schema.ts";
import { farmerWithBox } from "../worker/helpers/boxes.ts";
import { postJson } from "../worker/helpers/http.ts";
import { fireTimer, hubStub } from "../worker/helpers/hub-state.ts";
import { browserWatching, connectDevice } from "../worker/helpers/sockets.ts";

/**
 * Pretends the box last spoke `ms` ago: rewrites the stored state, then evicts the hub so the
 * next instance loads it (the running instance keeps its state cached in memory).
 */
async function ageDevice(deviceId: string, ms: number) {
  const stub = hubStub(deviceId);
  await runInDurableObject(stub, (_hub: DeviceHub, state) => {
    const saved = readStoredState(state.storage.kv)!;
    const watchedSince = saved.watchedSince === null ? null : Date.now() - ms;
    writeStoredState(state.storage.kv, { lastSeenAt: Date.now() - ms, watchedSince });
    const [socket] = state.getWebSockets("device");
    socket!.serializeAttachment({ ...socket!.deserializeAttachment(), connectedAt: Date.now() - ms });
  });
  await evictDurableObject(stub, { webSockets: "hibernate" });
}

describe("DeviceHub alarm", () => {
  it("schedules a liveness check when a device says hello", async () => {
    const { device, box } = await farmerWithBox();
    const alarm = await runInDurableObject(hubStub(device.deviceId), (_hub: DeviceHub, state) =>
      state.storage.getAlarm(),
    );
    expect(alarm).toBeGreaterThan(Date.now() + DEVICE_OFFLINE_AFTER_MS - 5_000);
    box.close();
  });

  it("marks a silent device offline, closes its socket, and is safe to run twice", async () => {
    const { user, device, token, box } = await farmerWithBox();
    const browser = await browserWatching(user.mobileNo, { token });
    await ageDevice(device.deviceId, DEVICE_OFFLINE_AFTER_MS + 1_000);
    expect(await fireTimer(device.deviceId, "liveness")).toBe(true);
    expect(await browser.next("deviceStatusUpdate")).toEqual({ type: "deviceStatusUpdate", deviceStatus: "offline" });
    expect((await box.waitForClose()).code).toBe(4008);
    const row = await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, device.deviceId) });
    expect(row?.online).toBe(false);

    // Delivered again: nothing more happens.
    await runInDurableObject(hubStub(device.deviceId), (hub: DeviceHub) => hub.alarm());
    await browser.expectNone("deviceStatusUpdate");
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(503);
    browser.close();
  });

  it("keeps a device that heartbeats online and checks again later", async () => {
    const { device, box } = await farmerWithBox();
    const stub = hubStub(device.deviceId);
    await fireTimer(device.deviceId, "liveness");
    expect((await stub.getSnapshot()).deviceStatus).toBe("online");
    expect(await runInDurableObject(stub, (_hub: DeviceHub, state) => state.storage.getAlarm())).toBeGreaterThan(
      Date.now(),
    );
    box.close();
  });

  it("logs a switch in the hub whatever D1 does, and copies the box's row of the figures again once D1 takes it", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const stub = hubStub(device.deviceId);

    // Make D1 refuse the box's row of the dashboard's figures for a moment.
    await env.DB.exec(
      "CREATE TRIGGER refuse_activity BEFORE INSERT ON box_activity BEGIN SELECT RAISE(ABORT, 'D1 unavailable'); END;",
    );
    const response = await postJson("/api/devices/motor", { action: "on" }, token);
    // The device switched: the command succeeds, and its log entry is in the hub, in D1 or not.
    expect(response.status).toBe(200);
    const snapshot = await stub.getSnapshot();
    expect(snapshot.motorStatus).toBe("on");
    expect(snapshot.lastLogs[0]).toMatchObject({ action: "on" });
    expect((await stub.motorLogPage({ limit: 5 })).rows.map((row) => row.id)).toEqual([snapshot.lastLogs[0]!.id]);
    // The day's first switch is copied within the environment's window (at once locally; within
    // 10 minutes deployed, at a random moment of them: device-hub.box-activity.test.ts).
    const copyAt = () =>
      runInDurableObject(
        stub,
        (_hub: DeviceHub, state) =>
          state.storage.sql
            .exec<{ dueAt: number }>("SELECT due_at AS dueAt FROM timers WHERE name = 'activity-copy'")
            .toArray()[0]?.dueAt ?? 0,
      );
    // Locally at once, right after the step: refused, the hub waits a minute to try again.
    await expect.poll(copyAt).toBeGreaterThan(Date.now() + 30_000);
    expect(await copyAt()).toBeLessThanOrEqual(Date.now() + 60_000);
    // Fired again while D1 still refuses: again a minute later.
    await fireTimer(device.deviceId, "activity-copy");
    expect(await copyAt()).toBeGreaterThan(Date.now() + 30_000);
    expect(await getDb(env.DB).select().from(boxActivity).where(eq(boxActivity.deviceId, device.deviceId))).toEqual([]);

    await env.DB.exec("DROP TRIGGER refuse_activity;");
    await fireTimer(device.deviceId, "activity-copy");
    await runInDurableObject(stub, (hub: DeviceHub) => hub.alarm()); // delivered twice
    const rows = await getDb(env.DB).select().from(boxActivity).where(eq(boxActivity.deviceId, device.deviceId));
    expect(rows).toEqual([expect.objectContaining({ logEntries: 1, lastSwitchAt: expect.any(Number) })]);
    expect(await copyAt()).toBe(0);
    box.close();
  });

  it("after a restart without the browsers, holds a box to the unwatched limit, not the watched one", async () => {
    const { user, device, token, box } = await farmerWithBox();
    await browserWatching(user.mobileNo, { token }); // a watched box: the shorter limit
    const stub = hubStub(device.deviceId);
    const watchedAlarm = await runInDurableObject(stub, (_hub: DeviceHub, state) => state.storage.getAlarm());
    expect(watchedAlarm).toBeLessThan(Date.now() + WATCHED_OFFLINE_AFTER_MS + 5_000);

    await abortAllDurableObjects(); // a deploy: every socket dropped
    await box.waitForClose();
    const again = await connectDevice(device); // the box is back; the browser is not
    expect(again.received.find((message) => message.type === "watch")).toBeUndefined();
    // Stubs from before the abort stay broken: take a fresh one.
    const alarm = await runInDurableObject(hubStub(device.deviceId), (_hub: DeviceHub, state) =>
      state.storage.getAlarm(),
    );
    expect(alarm).toBeGreaterThan(Date.now() + DEVICE_OFFLINE_AFTER_MS - 5_000);
    again.close();
  });
});
