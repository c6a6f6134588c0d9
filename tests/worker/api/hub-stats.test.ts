// GET /api/admin/devices/{id}/hub-stats: how often a hub woke and how many device frames it handled.
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hubStatsResponseSchema } from "../../../common/api-responses/admin.ts";
import { adminToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { getJson, getOk } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { connectDevice } from "../helpers/sockets.ts";

async function stats(deviceId: string, token: string) {
  return (await getOk(`/api/admin/devices/${deviceId}/hub-stats`, token, hubStatsResponseSchema)).stats;
}

describe("hub stats", () => {
  it("count device frames but not heartbeats, and wakes after an eviction", async () => {
    const { device } = await farmerWithDevice();
    const admin = await adminToken();
    const box = await connectDevice(device); // one frame: hello
    box.send({ type: "power", current: 0, wattage: 0 });
    for (let ping = 0; ping < 5; ping++) box.sendRaw("ping");
    await expect.poll(() => box.raw.filter((frame) => frame === "pong").length).toBe(5);
    const first = await stats(device.deviceId, admin);
    expect(first).toMatchObject({ wakes: 0, deviceFrames: 2 });

    await evictDurableObject(hubStub(device.deviceId), { webSockets: "hibernate" });
    for (let ping = 0; ping < 5; ping++) box.sendRaw("ping"); // answered without waking
    await expect.poll(() => box.raw.filter((frame) => frame === "pong").length).toBe(10);
    const second = await stats(device.deviceId, admin); // this read wakes it once
    expect(second.deviceFrames).toBe(2);
    expect(second.wakes).toBe(1);
    expect(second.recentWakes).toHaveLength(2);
    box.close();
  });

  it("is for admins only, and answers 404 for an unknown device", async () => {
    const { device, token } = await farmerWithDevice();
    expect((await getJson(`/api/admin/devices/${device.deviceId}/hub-stats`, token)).status).toBe(403);
    expect((await getJson("/api/admin/devices/SNC-ZZZZZZZZ/hub-stats", await adminToken())).status).toBe(404);
  });
});
