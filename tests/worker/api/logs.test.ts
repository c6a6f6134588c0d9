// GET /api/logs/motor/{mobileNo} (D1) and GET /api/logs/power/{mobileNo} (the hub's samples).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../worker/db/client.ts";
import { insertMotorLog } from "../../../worker/db/motor-logs.ts";
import { POWER_HISTORY_RETENTION_MS } from "../../../durable-objects/hub-sql.ts";
import {
  adminToken,
  connectDevice,
  farmerWithDevice,
  fireTimer,
  getJson,
  hubStub,
  postJson,
} from "../helpers.ts";

describe("GET /api/logs/motor/{mobileNo}", () => {
  it("answers an array of the device's logs, newest first, page by page", async () => {
    const { user, device, token } = await farmerWithDevice();
    const db = getDb(env.DB);
    for (let index = 0; index < 5; index++) {
      await insertMotorLog(db, {
        deviceId: device.deviceId,
        userId: user.id,
        mobileNo: user.mobileNo,
        action: index % 2 === 0 ? "on" : "off",
        message: `log ${index}`,
        createdAt: Date.now() + index,
        hubRef: `${device.deviceId}:test-${index}`,
      });
    }
    const first = await getJson(`/api/logs/motor/${user.mobileNo}?limit=3`, token);
    expect(first.status).toBe(200);
    const page = (await first.json()) as { id: number; action: string; logMessage: string; timestamp: string }[];
    expect(page.map((log) => log.logMessage)).toEqual(["log 4", "log 3", "log 2"]);
    expect(page[0]).toEqual({ id: expect.any(Number), action: "on", logMessage: "log 4", timestamp: expect.stringMatching(/Z$/) });
    const next = await getJson(`/api/logs/motor/${user.mobileNo}?limit=3&before=${page[2]!.id}`, token);
    expect(((await next.json()) as { logMessage: string }[]).map((log) => log.logMessage)).toEqual(["log 1", "log 0"]);
  });

  it("keeps the order of events that come in the same moment (a phase lost and back, again and again)", async () => {
    const { user, device, token } = await farmerWithDevice();
    const box = await connectDevice(device);
    for (let round = 0; round < 5; round++) {
      box.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase Y missing" });
      box.send({ type: "event", event: "phaseOk", relay: "off" });
    }
    const messages = async () =>
      ((await (await getJson(`/api/logs/motor/${user.mobileNo}`, token)).json()) as { logMessage: string }[]).map((log) => log.logMessage);
    await expect.poll(async () => (await messages()).length).toBe(10);
    const logs = await messages();
    expect(logs.filter((_, index) => index % 2 === 0).every((message) => message === "Phase is OK now.")).toBe(true);
    expect(logs.filter((_, index) => index % 2 === 1).every((message) => message.startsWith("Phase fault detected"))).toBe(true);
  });

  it("is the owner's or an admin's only, and checks its query", async () => {
    const a = await farmerWithDevice();
    const b = await farmerWithDevice();
    expect((await getJson(`/api/logs/motor/${b.user.mobileNo}`, a.token)).status).toBe(403);
    expect((await getJson(`/api/logs/motor/${b.user.mobileNo}`, await adminToken())).status).toBe(200);
    const bad = await getJson(`/api/logs/motor/${a.user.mobileNo}?limit=5000`, a.token);
    expect(bad.status).toBe(400);
  });
});

describe("GET /api/logs/power/{mobileNo}", () => {
  it("answers sampled readings of the running motor: at most one a minute", async () => {
    const { user, device, token } = await farmerWithDevice();
    const box = (await connectDevice(device)).autoAck({ runningCurrent: 9 });
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200); // box reports 9 A
    box.send({ type: "power", current: 9.2, wattage: 5290 }); // within the minute: not sampled
    const response = await getJson(`/api/logs/power/${user.mobileNo}`, token);
    expect(response.status).toBe(200);
    await expect
      .poll(async () => (await (await getJson(`/api/logs/power/${user.mobileNo}`, token)).json()) as unknown[])
      .toEqual([{ id: expect.any(Number), current: 9, wattage: 5175, timestamp: expect.stringMatching(/Z$/) }]);
    box.close();
  });

  it("forgets samples older than the retention period", async () => {
    const { user, device, token } = await farmerWithDevice();
    const box = (await connectDevice(device)).autoAck({ runningCurrent: 9 });
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    await runInDurableObject(hubStub(device.deviceId), (_hub, state) => {
      state.storage.sql.exec(
        "INSERT INTO power_samples (at, current, wattage) VALUES (?, 1, 1)",
        Date.now() - POWER_HISTORY_RETENTION_MS - 60_000,
      );
    });
    expect(((await (await getJson(`/api/logs/power/${user.mobileNo}`, token)).json()) as unknown[]).length).toBe(2);
    await fireTimer(device.deviceId, "prune-power");
    expect(((await (await getJson(`/api/logs/power/${user.mobileNo}`, token)).json()) as unknown[]).length).toBe(1);
    box.close();
  });
});
