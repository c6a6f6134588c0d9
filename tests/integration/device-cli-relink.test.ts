// `npm run device -- assign` against the real local Worker (wrangler dev, its D1 and hubs): the
// operators' relink is the admin API's own change. The old owner's farm hand, with a raw socket
// open on the pump, loses it: his membership is gone in the same D1 run, the CLI has the Worker
// deliver the hub's notice, the hub closes his socket, and he cannot switch the new owner's pump
// by socket or by HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { ApiClient } from "../../common/api-client.ts";
import { pumpMemberResponseSchema } from "../../common/api-responses/pumps.ts";
import { accessChangeResponseSchema } from "../../common/api-responses/refusals.ts";
import { BROWSER_CLOSE } from "../../common/hub-contract.ts";
import { type RealtimeMessage, realtimeMessageSchema } from "../../common/realtime-protocol.ts";
import { localDeviceSocketUrl, type SimulatedDevice, simulateBox } from "../../device-sim/simulated-device.ts";
import { assignDevice } from "../../scripts/lib/device-admin.ts";
import { executeLocalSql } from "../../scripts/lib/local-d1.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { markNumberVerified, registerFarmer, uniqueMobileNo } from "./accounts.ts";
import { sharedAdmin, sharedWorker } from "./shared-worker.ts";

const { worker } = sharedWorker();
let admin: ApiClient;
const devicesToStop: SimulatedDevice[] = [];

beforeAll(async () => {
  admin = await sharedAdmin();
});

afterAll(async () => {
  await Promise.all(devicesToStop.map((device) => device.stop()));
});

/** A raw realtime socket, as any program (not only our page) can open one, with what it receives. */
async function rawSocket(deviceId: string, token: string) {
  const socket = new WebSocket(`ws://localhost:${worker.port}/api/realtime?deviceId=${deviceId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const received: RealtimeMessage[] = [];
  const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
  socket.on("message", (data) => {
    if (data.toString() !== "pong") received.push(realtimeMessageSchema.parse(JSON.parse(data.toString())));
  });
  const deadline = Date.now() + CONDITION_LIMIT_MS;
  while (!received.some((message) => message.type === "initialData")) {
    if (Date.now() > deadline) throw new Error("no initialData");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { socket, received, closed };
}

/** Whether `condition` holds within `ms`. */
async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe("npm run device -- assign", () => {
  it("takes the old owner's people with the box, and the farm hand's open socket closes before it can switch", async () => {
    const [ownerNo, ramNo, nextNo] = [uniqueMobileNo(), uniqueMobileNo(), uniqueMobileNo()];
    const owner = await registerFarmer(worker.url, ownerNo);
    const ram = await registerFarmer(worker.url, ramNo);
    await markNumberVerified(worker.persistTo, ramNo);
    await registerFarmer(worker.url, nextNo);
    const provisioned = await admin.provisionDevice("3phase", ownerNo);
    const deviceId = provisioned.device.id;
    const box = simulateBox(
      localDeviceSocketUrl(worker.port),
      { deviceId, key: provisioned.key, kind: "3phase", horsePower: 5 },
      { restartDelayMs: 200, reconnectBaseMs: 100, reconnectMaxMs: 1_000 },
    );
    devicesToStop.push(box);
    box.start();
    await box.waitUntilConnected(CONDITION_LIMIT_MS);

    await owner.post(`/api/pumps/${deviceId}/members`, pumpMemberResponseSchema, {
      mobileNo: ramNo,
      role: "operator",
      label: "Ram",
    });
    await ram.post(`/api/pumps/${deviceId}/invitation`, accessChangeResponseSchema, { answer: "accept" });
    const ramSocket = await rawSocket(deviceId, ram.token!);

    const hub = await assignDevice({ remote: false, persistTo: worker.persistTo }, deviceId, nextNo, worker.url);

    // The hub closed his socket at once: nothing is left to switch with. (ws reports the close
    // code once the connection has ended, which the runtime may take a while to do.)
    expect(await until(() => ramSocket.socket.readyState !== WebSocket.OPEN, CONDITION_LIMIT_MS)).toBe(true);
    expect(await ramSocket.closed).toBe(BROWSER_CLOSE.deviceUnlinked);
    const tap = await ram.request("POST", `/api/pumps/${deviceId}/motor`, accessChangeResponseSchema, {
      action: "on",
    });
    expect(tap).toMatchObject({ ok: false, status: 404, error: { code: "pumpNotFound" } });
    const again = new WebSocket(`ws://localhost:${worker.port}/api/realtime?deviceId=${deviceId}`, {
      headers: { Authorization: `Bearer ${ram.token}` },
    });
    const refused = await new Promise<number>((resolve) => {
      again.once("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      again.once("open", () => resolve(101));
    });
    expect(refused).toBe(404);
    expect(box.relay).toBe("off");
    expect(hub).toEqual({ told: true });
    expect(
      await executeLocalSql(worker.persistTo, `SELECT mobile_no FROM device_members WHERE device_id = '${deviceId}';`),
    ).toEqual([]);
    expect(
      await executeLocalSql(worker.persistTo, `SELECT version FROM hub_notices WHERE device_id = '${deviceId}';`),
    ).toEqual([]);
  });
});
