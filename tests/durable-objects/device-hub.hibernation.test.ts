// State must survive the hub being evicted from memory while its sockets hibernate.
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { farmerWithBox } from "../worker/helpers/boxes.ts";
import { postJson } from "../worker/helpers/http.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";
import { browserWatching } from "../worker/helpers/sockets.ts";

describe("DeviceHub through hibernation and eviction", () => {
  it("keeps relay, presence, cooldown and logs, and its sockets keep working", async () => {
    const { user, device, token, box } = await farmerWithBox({ autoAck: true });
    const browser = await browserWatching(user.mobileNo, { token });
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    expect((await browser.next("powerDataUpdate")).powerData.current).toBe(8.9);

    const stub = hubStub(device.deviceId);
    await evictDurableObject(stub, { webSockets: "hibernate" });

    // A fresh instance, rebuilt from storage:
    expect(await stub.getSnapshot()).toMatchObject({
      motorStatus: "on",
      deviceStatus: "online",
      lastLogs: [expect.objectContaining({ action: "on" })],
    });
    // The cooldown survived too (it holds back an ON; an OFF never waits).
    expect((await postJson("/api/devices/motor", { action: "off" }, token)).status).toBe(200);
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(429);
    // The hub's own zero for the open relay, then the box's reading after the switch.
    expect((await browser.next("powerDataUpdate")).powerData.current).toBe(0);
    expect((await browser.next("powerDataUpdate")).powerData.current).toBe(0);

    // The hibernated sockets still carry frames both ways, and roles still tell them apart.
    box.send({ type: "power", current: 0.1, wattage: 12 });
    expect((await browser.next("powerDataUpdate")).powerData).toEqual({ current: 0.1, wattage: 12 });
    await runInDurableObject(stub, (_hub: DeviceHub, state) => {
      expect(state.getWebSockets("device")).toHaveLength(1);
      expect(state.getWebSockets("browser")).toHaveLength(1);
    });
    box.close();
    browser.close();
  });

  it("answers heartbeats without waking the hub", async () => {
    const { device, box } = await farmerWithBox();
    const stub = hubStub(device.deviceId);
    await evictDurableObject(stub, { webSockets: "hibernate" });
    box.sendRaw("ping");
    await expect.poll(() => box.raw.includes("pong")).toBe(true);
    await runInDurableObject(stub, (_hub: DeviceHub, state) => {
      const [socket] = state.getWebSockets("device");
      expect(state.getWebSocketAutoResponseTimestamp(socket!)).toBeInstanceOf(Date);
    });
    box.close();
  });
});
