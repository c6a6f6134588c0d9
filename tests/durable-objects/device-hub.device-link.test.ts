// The link to the box (durable-objects/device-hub/device-link.ts) without a box: how long it may
// stay silent, from when that counts, when the next check comes; a box cut off for flooding
// refused with a code; an older socket replaced; going offline done once however often asked.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEVICE_OFFLINE_AFTER_MS, WATCHED_OFFLINE_AFTER_MS } from "../../common/constants.ts";
import { DEVICE_CLOSE } from "../../common/hub-contract.ts";
import { lastSignOfLife, livenessCheckAt, livenessLimit } from "../../durable-objects/device-hub/liveness.ts";
import { TIMERS } from "../../durable-objects/device-hub/timers.ts";
import { getDb } from "../../worker/db/client.ts";
import { devices } from "../../worker/db/schema.ts";
import { provisionDevice } from "../worker/helpers/boxes.ts";
import { openSocket, withRooms } from "./room-support.ts";

const NOW = 1_800_000_000_000;

describe("liveness", () => {
  it("holds a watched box to the short limit and an unwatched one to two heartbeats and a minute", () => {
    expect(livenessLimit(true)).toBe(WATCHED_OFFLINE_AFTER_MS);
    expect(livenessLimit(false)).toBe(DEVICE_OFFLINE_AFTER_MS);
  });

  it("counts from the latest sign of life: connecting, a frame, a heartbeat or the start of a watch", () => {
    const signs = { connectedAt: NOW - 50_000, lastFrameAt: NOW - 40_000, heartbeatAt: null, watchedSince: null };
    expect(lastSignOfLife(signs)).toBe(NOW - 40_000);
    expect(lastSignOfLife({ ...signs, heartbeatAt: NOW - 30_000 })).toBe(NOW - 30_000);
    expect(lastSignOfLife({ ...signs, watchedSince: NOW - 1_000 })).toBe(NOW - 1_000);
    expect(lastSignOfLife({ ...signs, lastFrameAt: null })).toBe(NOW - 50_000);
  });

  it("checks again when the limit runs out after the last sign, not a whole period after the check", () => {
    expect(livenessCheckAt(NOW, NOW - 10_000, WATCHED_OFFLINE_AFTER_MS)).toBe(
      NOW - 10_000 + WATCHED_OFFLINE_AFTER_MS + 500,
    );
    // Already past: as soon as possible, never in the past.
    expect(livenessCheckAt(NOW, NOW - 60_000, WATCHED_OFFLINE_AFTER_MS)).toBe(NOW + 100);
  });
});

describe("the box's socket", () => {
  it("a box cut off for flooding is refused with a code and the seconds to wait, and no socket", async () => {
    const { status, body, sockets } = await withRooms(async ({ link }, state) => {
      state.storage.kv.put("device-cooldown-until", Date.now() + 7_500);
      const response = link.accept();
      // Read here: a body belongs to the Durable Object that made it.
      return { status: response.status, body: await response.json(), sockets: state.getWebSockets("device").length };
    });
    expect(status).toBe(429);
    expect(body).toEqual({ code: "tooManyFrames", seconds: 8 });
    expect(sockets).toBe(0);
  });

  it("a new connection replaces the old one, which is closed with 4001", async () => {
    const { closed, open } = await withRooms(async ({ link }, state) => {
      const old = openSocket(state, ["device"], { role: "device", connectedAt: Date.now(), helloAt: Date.now() });
      const response = link.accept();
      expect(response.status).toBe(101);
      return {
        closed: await old.closed,
        open: state.getWebSockets("device").filter((ws) => ws.readyState === WebSocket.OPEN).length,
      };
    });
    expect(closed.code).toBe(DEVICE_CLOSE.replaced);
    expect(open).toBe(1);
  });

  it("going offline happens once: the second time changes nothing, in the hub or in D1", async () => {
    const device = await provisionDevice(null);
    await getDb(env.DB).update(devices).set({ online: true }).where(eq(devices.id, device.deviceId));
    const { first, second } = await withRooms(async ({ hub, link }) => {
      hub.state.save({ online: true, lastSeenAt: NOW });
      hub.timers.set(TIMERS.liveness, Date.now() + 60_000);
      await link.markOffline();
      const first = { state: hub.state.current, liveness: hub.timers.dueAt(TIMERS.liveness) };
      await getDb(env.DB).update(devices).set({ online: true }).where(eq(devices.id, device.deviceId));
      await link.markOffline();
      return { first, second: hub.state.current };
    }, device.deviceId);
    expect(first.state).toMatchObject({ online: false, lastSeenAt: NOW });
    expect(first.liveness).toBeNull();
    expect(second).toEqual(first.state);
    // D1 was told once: the row set back to online above stays so.
    expect((await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, device.deviceId) }))?.online).toBe(
      true,
    );
  });
});
