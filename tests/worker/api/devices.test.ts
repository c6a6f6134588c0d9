import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../worker/db/client.ts";
import { devices } from "../../../worker/db/schema.ts";
import { createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice } from "../helpers/boxes.ts";
import { api, expectRefusedSaying, postJson, refusal } from "../helpers/http.ts";
import { hubStub, motorLogRows } from "../helpers/hub-state.ts";
import { basicAuth, connectDevice } from "../helpers/sockets.ts";

const motor = (token: string, action: string) => postJson("/api/devices/motor", { action }, token);

describe("POST /api/devices/motor", () => {
  it("switches the relay and answers only after the device confirms", async () => {
    const { user, device, token, box } = await farmerWithBox();

    const pending = motor(token, "on");
    const command = await box.next("switch");
    expect(command).toMatchObject({ type: "switch", relay: "on" });
    let settled = false;
    void pending.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false); // no answer before the device confirms

    box.send({ type: "ack", id: command.id, ok: true, relay: "on" });
    const response = await pending;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, message: "Motor turned ON.", status: "on" });

    const logs = await motorLogRows(device.deviceId);
    expect(logs).toHaveLength(1);
    // The owner is named by their number when it happened; the hub keeps no account id in its log.
    expect(logs[0]).toMatchObject({ action: "on", userId: null, mobileNo: user.mobileNo });
    expect(logs[0]!.message).toBe("Motor turned ON from the app");
    box.close();
  });

  it("answers an offline device at once with 503 and a clear message", async () => {
    const { token } = await farmerWithDevice();
    const started = Date.now();
    const response = await motor(token, "on");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual(
      refusal("Device is offline. Check its power and network, then try again.", "offline"),
    );
  });

  it("counts a connected box that has not said hello as offline", async () => {
    const { token, box } = await farmerWithBox({ hello: false });
    const response = await motor(token, "on");
    expect(response.status).toBe(503);
    box.close();
  });

  it("fails with 504 when the device does not confirm within 5 seconds, and adopts a late confirmation", async () => {
    const { device, token, user, box } = await farmerWithBox();
    const started = Date.now();
    const pending = motor(token, "on");
    const command = await box.next("switch");
    const response = await pending;
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual(
      refusal("The device did not confirm the command. Check the motor status and try again.", "timeout"),
    );

    // The box switched after all: its late ack is the truth about the relay.
    const browserToken = await loginToken(user);
    const status = await api(`/api/realtime?mobileNo=${user.mobileNo}`, {
      headers: { Upgrade: "websocket", Authorization: `Bearer ${browserToken}` },
    });
    status.webSocket!.accept();
    const updates: string[] = [];
    status.webSocket!.addEventListener("message", (event) => {
      updates.push(event.data as string);
    });
    box.send({ type: "ack", id: command.id, ok: true, relay: "on" });
    await expect.poll(() => updates.some((update) => update.includes('"motorStatusUpdate"'))).toBe(true);
    const logs = await motorLogRows(device.deviceId);
    expect(logs.map((log) => log.message)).toEqual([
      "Motor ON from the app: the box did not confirm it (the motor may be running).",
      "Motor turned ON from the app (confirmed late)",
    ]);
    box.close();
  });

  it("enforces the 10 second cooldown on ON with 429 and Retry-After; OFF never waits", async () => {
    const { token, box } = await farmerWithBox({ autoAck: true });
    expect((await motor(token, "on")).status).toBe(200);
    expect((await motor(token, "off")).status).toBe(200);
    const restart = await motor(token, "on");
    expect(restart.status).toBe(429);
    expect(restart.headers.get("Retry-After")).toMatch(/^(9|10)$/);
    expect(await restart.json()).toEqual(
      refusal("Please wait for cooldown.", "cooldown", {
        retryAfterSeconds: Number(restart.headers.get("Retry-After")),
      }),
    );
    box.close();
  });

  it("reports a device that refuses the command, with the relay it really has", async () => {
    const { token, box } = await farmerWithBox();
    const pending = motor(token, "on");
    const command = await box.next("switch");
    box.send({ type: "ack", id: command.id, ok: false, relay: "off", error: "Phase missing" });
    const response = await pending;
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject(refusal("Phase missing", "rejected", { error: "Phase missing" }));
    box.close();
  });

  it("fails at once, not after 5 seconds, when the device drops mid-command", async () => {
    const { device, token, box } = await farmerWithBox();
    const started = Date.now();
    const pending = motor(token, "on");
    await box.next("switch");
    box.close();
    const response = await pending;
    expect(response.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(await response.json()).toEqual(
      refusal("The device went offline before confirming the command. The motor may have switched.", "linkLost"),
    );

    // Nobody knows what the relay did: offline, unknown (not OFF), and the log says so.
    const stub = hubStub(device.deviceId);
    expect(await stub.getSnapshot()).toMatchObject({
      deviceStatus: "offline",
      motorStatus: "unknown",
      pump: { status: "unknown", statusSource: "linkLost", pendingCommand: { action: "on", state: "unanswered" } },
    });
    const logs = await motorLogRows(device.deviceId);
    expect(logs.map((log) => [log.action, log.message])).toEqual([
      ["other", "Motor ON from the app: the box went offline before confirming it (the motor may be running)."],
    ]);

    // The box had switched before its line dropped: its hello says so, and the hub believes it.
    const back = await connectDevice(device, { relay: "on" });
    await expect.poll(async () => (await stub.getSnapshot()).motorStatus).toBe("on");
    expect((await stub.getSnapshot()).deviceStatus).toBe("online");
    back.close();
  });

  it("answers an account without a device with 404", async () => {
    const token = await loginToken(await createUser());
    const response = await motor(token, "on");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject(refusal("No device is linked to this account yet.", "noDevice"));
  });

  it.each([
    [{ action: "start" }, 'action must be "on" or "off".'],
    [{}, 'action must be "on" or "off".'],
    ["[1,2", "Request body must be valid JSON."],
  ])("answers bad input %j with 400 and touches no device", async (body, message) => {
    const { token, box } = await farmerWithBox();
    const response = await postJson("/api/devices/motor", body, token);
    await expectRefusedSaying(response, 400, message);
    await box.expectNone("switch");
    box.close();
  });

  it("only ever switches the caller's own device", async () => {
    const a = await farmerWithDevice();
    const b = await farmerWithDevice();
    const boxA = await connectDevice(a.device);
    const boxB = (await connectDevice(b.device)).autoAck();
    expect((await motor(b.token, "on")).status).toBe(200);
    await boxA.expectNone("switch");
    boxA.close();
    boxB.close();
  });
});

describe("GET /api/device/connect", () => {
  it("refuses a wrong key before any Durable Object is touched", async () => {
    const { device } = await farmerWithDevice();
    const before = (await listDurableObjectIds(env.DEVICE_HUB)).length;
    for (const authorization of [
      basicAuth(device.deviceId, "wrong-key"),
      basicAuth("SNC-AAAAAAAA", device.key),
      basicAuth(device.deviceId, ""),
      "Bearer something",
      "Basic !!!",
    ]) {
      const response = await api("/api/device/connect", {
        headers: { Upgrade: "websocket", Authorization: authorization },
      });
      expect(response.status).toBe(401);
      expect(response.webSocket).toBeNull();
    }
    const missing = await api("/api/device/connect", { headers: { Upgrade: "websocket" } });
    await expectRefusedSaying(missing, 401, "Device credentials required.");
    expect((await listDurableObjectIds(env.DEVICE_HUB)).length).toBe(before);
  });

  it("asks for a WebSocket upgrade", async () => {
    const { device } = await farmerWithDevice();
    const response = await api("/api/device/connect", {
      headers: { Authorization: basicAuth(device.deviceId, device.key) },
    });
    expect(response.status).toBe(426);
  });

  it("records identity and presence in D1 from the hello, and offline when the socket closes", async () => {
    const { device, box } = await farmerWithBox();
    const row = () => getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, device.deviceId) });
    await expect.poll(async () => (await row())?.online).toBe(true);
    expect(await row()).toMatchObject({ firmware: "test-1.0.0", imei: "866000000000001", kind: "3phase" });
    box.close();
    await expect.poll(async () => (await row())?.online).toBe(false);
  });

  it("answers an invalid frame with an error frame and keeps the connection", async () => {
    const { token, box } = await farmerWithBox({ autoAck: true });
    box.sendRaw("not json");
    expect(await box.next("error")).toEqual({ type: "error", message: "Frame is not valid JSON." });
    box.sendRaw(JSON.stringify({ type: "power", current: -5, wattage: 10 }));
    expect((await box.next("error")).message).toMatch(/^Invalid message at current/);
    box.sendRaw(JSON.stringify({ type: "selfDestruct" }));
    expect((await box.next("error")).message).toMatch(/^Invalid message at type/);
    expect((await motor(token, "on")).status).toBe(200);
    box.close();
  });

  it("answers heartbeats with pong", async () => {
    const { box } = await farmerWithBox();
    box.sendRaw("ping");
    await expect.poll(() => box.raw.includes("pong")).toBe(true);
    box.close();
  });

  it("replaces an older connection of the same device", async () => {
    const { device, token } = await farmerWithDevice();
    const first = await connectDevice(device);
    const second = (await connectDevice(device)).autoAck();
    expect((await first.waitForClose()).code).toBe(4001);
    expect((await motor(token, "on")).status).toBe(200);
    second.close();
  });
});

describe("a box that reconnects", () => {
  it("is believed about its relay, and the change is logged", async () => {
    const { user, device, token, box } = await farmerWithBox({ autoAck: true });
    expect((await motor(token, "on")).status).toBe(200);
    box.close();
    // The box lost power and restarted with its relay off.
    const again = await connectDevice(device, { relay: "off" });
    const logs = await motorLogRows(device.deviceId);
    expect(logs.map((log) => [log.action, log.message, log.mobileNo])).toEqual([
      ["on", "Motor turned ON from the app", user.mobileNo],
      ["off", "Motor turned OFF (reported by the box when it reconnected)", user.mobileNo],
    ]);
    again.close();
  });

  it("writes no log when its relay is as the hub remembers it", async () => {
    const { device } = await farmerWithDevice();
    (await connectDevice(device)).close();
    const again = await connectDevice(device, { relay: "off" });
    const logs = await motorLogRows(device.deviceId);
    expect(logs).toEqual([]);
    again.close();
  });
});
