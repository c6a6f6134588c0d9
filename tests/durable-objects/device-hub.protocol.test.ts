// Every device → hub message, what the hub makes of it, and what browsers are told.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../worker/db/client.ts";
import { devices } from "../../worker/db/schema.ts";
import { adminToken } from "../worker/helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice } from "../worker/helpers/boxes.ts";
import { postJson, putJson, refusal } from "../worker/helpers/http.ts";
import {
  hubStub,
  liftFrameRateCap,
  motorLogLines,
  rewriteHubState,
  snapshotWithoutClocks,
} from "../worker/helpers/hub-state.ts";
import { browserWatching, connectBrowser, connectDevice } from "../worker/helpers/sockets.ts";

async function watchedFarmer() {
  const farmer = await farmerWithDevice();
  const box = (await connectDevice(farmer.device)).autoAck();
  const browser = await browserWatching(farmer.user.mobileNo, { token: farmer.token });
  return { ...farmer, box, browser };
}

const motor = (token: string, action: "on" | "off") => postJson("/api/devices/motor", { action }, token);

/** Skips the rest of the 10 s cooldown instead of waiting it out. */
const endCooldown = (deviceId: string) => rewriteHubState(deviceId, (state) => ({ ...state, cooldownUntil: 0 }));

describe("events from the box", () => {
  it.each([
    ["dryRun", "dryRunDetected", "Dry run detected. Motor turned OFF automatically."],
    ["overCurrent", "overCurrentDetected", "Overcurrent detected. Motor turned OFF!"],
  ] as const)("%s: logged, motor OFF, browsers told", async (event, broadcast, text) => {
    const { device, token, box, browser } = await watchedFarmer();
    expect((await motor(token, "on")).status).toBe(200);
    await browser.next("motorStatusUpdate");
    box.send({ type: "event", event, relay: "off", current: event === "dryRun" ? 3.1 : 14.2 });
    await browser.next(broadcast);
    expect(await browser.next("motorStatusUpdate")).toEqual({ type: "motorStatusUpdate", status: "off" });
    expect((await browser.next("motorLogUpdate")).log).toMatchObject({ action: "on" });
    expect((await browser.next("motorLogUpdate")).log).toMatchObject({ action: "off", logMessage: text });
    expect(await motorLogLines(device.deviceId)).toEqual([
      ["on", "Motor turned ON from the app"],
      ["off", text],
    ]);
    box.close();
    browser.close();
  });

  it("phase fault: the motor stops and ON is refused until the phase is OK; OFF always works", async () => {
    const { device, token, box, browser } = await watchedFarmer();
    expect((await motor(token, "on")).status).toBe(200);
    await box.next("switch");
    box.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase Y missing" });
    await browser.next("phaseFaultDetected");
    expect((await hubStub(device.deviceId).getSnapshot()).phaseFault).toBe(true);
    await endCooldown(device.deviceId);
    const refused = await motor(token, "on");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual(
      refusal("Phase fault detected. Motor operation is disabled until the phase is OK.", "phaseFault"),
    );
    await box.expectNone("switch", 100);
    expect((await motor(token, "off")).status).toBe(200);

    box.send({ type: "event", event: "phaseOk", relay: "off" });
    await browser.next("phaseOk");
    expect((await hubStub(device.deviceId).getSnapshot()).phaseFault).toBe(false);
    expect(await motorLogLines(device.deviceId)).toEqual([
      ["on", "Motor turned ON from the app"],
      ["off", "Phase fault detected: Phase Y missing. Motor operation is disabled."],
      ["off", "Motor turned OFF from the app"],
      ["other", "Phase is OK now."],
    ]);
    box.close();
    browser.close();
  });

  it("remembers a phase fault the box reports in its hello", async () => {
    const { token, box } = await farmerWithBox({ phaseFault: true });
    expect((await motor(token, "on")).status).toBe(409);
    box.close();
  });

  it("power cut: logged and broadcast; ON refused without mains; the motor stays OFF when power returns", async () => {
    const { device, token, box, browser } = await watchedFarmer();
    expect((await motor(token, "on")).status).toBe(200);
    box.send({ type: "event", event: "powerLost", relay: "off" });
    await browser.next("powerLost");
    await endCooldown(device.deviceId);
    const refused = await motor(token, "on");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject(refusal("There is no mains power at the pump.", "noSupply"));
    box.send({ type: "event", event: "powerRestored", relay: "off" });
    await browser.next("powerRestored");
    expect((await hubStub(device.deviceId).getSnapshot()).motorStatus).toBe("off");
    expect(await motorLogLines(device.deviceId)).toEqual([
      ["on", "Motor turned ON from the app"],
      ["off", "Power cut at the pump. Motor stopped."],
      ["other", "Power is back at the pump. The motor stays OFF until someone switches it on."],
    ]);
    box.close();
    browser.close();
  });

  it("switches OFF a box that restarted its motor by itself after a power cut", async () => {
    const { device, box, browser } = await watchedFarmer();
    box.send({ type: "event", event: "powerLost", relay: "off" });
    box.send({ type: "event", event: "powerRestored", relay: "on" });
    expect(await box.next("switch")).toMatchObject({ relay: "off" });
    await expect.poll(async () => (await hubStub(device.deviceId).getSnapshot()).motorStatus).toBe("off");
    expect((await motorLogLines(device.deviceId)).at(-1)).toEqual([
      "off",
      "Motor turned OFF by the server: it restarted by itself after a power cut.",
    ]);
    box.close();
    browser.close();
  });

  it("a manual switch at the box is believed and logged", async () => {
    const { device, box, browser } = await watchedFarmer();
    box.send({ type: "relay", relay: "on", cause: "manual" });
    expect(await browser.next("motorStatusUpdate")).toEqual({ type: "motorStatusUpdate", status: "on" });
    expect(await motorLogLines(device.deviceId)).toEqual([["on", "Motor turned ON (switched at the box)"]]);
    box.close();
    browser.close();
  });
});

describe("health", () => {
  it("is stored, broadcast as healthData and copied to D1", async () => {
    const { user, device, box, browser } = await watchedFarmer();
    box.send({
      type: "health",
      uptime: 3600,
      signal: -79,
      relay: "off",
      chipId: "A1B2C3",
      imei: "866000000000001",
      connection: "connected",
      sim: "8991000000000000001",
      version: "2.1.0",
    });
    const message = await browser.next("healthData");
    expect(message).toMatchObject({
      mobileNo: user.mobileNo,
      payload: {
        uptime: 3600,
        signal: -79,
        relay: "off",
        chipId: "A1B2C3",
        mqtt: "connected",
        sim: "8991000000000000001",
        version: "2.1.0",
      },
    });
    expect((await hubStub(device.deviceId).getSnapshot()).health).toMatchObject({ uptime: 3600, signal: -79 });
    await expect
      .poll(
        async () => (await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, device.deviceId) }))?.signal,
      )
      .toBe(-79);
    box.close();
    browser.close();
  });
});

describe("debug log lines", () => {
  it("are ignored unless debug mode is on, then reach admin sockets only", async () => {
    const { user, device, box, browser } = await watchedFarmer();
    const admin = await browserWatching(user.mobileNo, { token: await adminToken() });
    box.send({ type: "log", line: "before debug" });
    await admin.expectNone("debugLog", 200);

    const token = await adminToken();
    expect((await putJson("/api/admin/device-config", { mobileNo: user.mobileNo, debug: true }, token)).status).toBe(
      200,
    );
    expect(await box.next("config")).toMatchObject({ config: { debug: true } });
    expect(await admin.next("debugModeUpdate")).toEqual({ type: "debugModeUpdate", debug: true });
    await browser.expectNone("debugModeUpdate", 100);
    expect((await hubStub(device.deviceId).getSnapshot()).debug).toBe(true);
    box.send({ type: "log", line: "I (1234) relay=OFF" });
    expect(await admin.next("debugLog")).toMatchObject({ log: "I (1234) relay=OFF", mobileNo: user.mobileNo });
    await browser.expectNone("debugLog", 200);

    // An admin who opens the console later sees debug mode on and the recent lines.
    const late = await connectBrowser(user.mobileNo, { token });
    expect((await late.next("initialData")).debug).toBe(true);
    expect((await late.next("debugLog")).log).toBe("I (1234) relay=OFF");
    for (const socket of [box, browser, admin, late]) socket.close();
  });
});

describe("invalid frames", () => {
  it("get an error frame and change nothing", async () => {
    const { device, box, browser } = await watchedFarmer();
    // More bad frames at once than a box's frame rate allows: this is about what each one gets.
    await liftFrameRateCap(device.deviceId);
    const before = await snapshotWithoutClocks(device.deviceId);
    const invalid = [
      "not json",
      JSON.stringify({ type: "power", current: -1, wattage: 0 }),
      JSON.stringify({ type: "power", current: "8.9", wattage: 5000 }),
      JSON.stringify({ type: "relay", relay: "maybe", cause: "manual" }),
      JSON.stringify({ type: "event", event: "meteorStrike", relay: "off" }),
      JSON.stringify({ type: "ack", id: "", ok: true, relay: "on" }),
      JSON.stringify({ type: "health", uptime: -5, relay: "off", connection: "connected", version: "1" }),
      JSON.stringify({ type: "hello", protocol: 1, firmware: "x", kind: "2phase", relay: "on" }),
      JSON.stringify({ type: "log", line: "x".repeat(501) }),
      "x".repeat(5000),
      // Under 4,096 characters but over 4,096 bytes of UTF-8 (found by the fuzz suite).
      JSON.stringify({ type: "power", current: 5, wattage: 3000, note: "ऋ".repeat(1400) }),
    ];
    for (const frame of invalid) {
      box.sendRaw(frame);
      expect((await box.next("error")).message).toMatch(/^(Invalid message|Frame is)/);
    }
    await browser.expectNone("motorStatusUpdate", 100);
    await browser.expectNone("powerDataUpdate", 0);
    expect(await snapshotWithoutClocks(device.deviceId)).toEqual(before);
    expect(await motorLogLines(device.deviceId)).toEqual([]);
    box.close();
    browser.close();
  });

  it("are refused before hello", async () => {
    const { box } = await farmerWithBox({ hello: false });
    box.send({ type: "power", current: 5, wattage: 3000 });
    expect(await box.next("error")).toEqual({ type: "error", message: "Say hello first." });
    box.close();
  });

  it("a hello of another protocol version is refused and the socket closed", async () => {
    const { box } = await farmerWithBox({ hello: false });
    box.send({ type: "hello", protocol: 2, firmware: "9.0.0", kind: "3phase", relay: "off" });
    expect(await box.next("error")).toEqual({
      type: "error",
      message: "Unsupported protocol version 2; this server speaks 1.",
    });
    expect((await box.waitForClose()).code).toBe(4002);
  });

  it("binary frames are refused", async () => {
    const { box } = await farmerWithBox();
    box.ws.send(new Uint8Array([1, 2, 3]));
    expect(await box.next("error")).toEqual({ type: "error", message: "Frames must be JSON text." });
    box.close();
  });
});

describe("welcome", () => {
  it("carries the owner's protection settings, the voltage limits of the box's kind, and the number", async () => {
    const { user, box } = await farmerWithBox({ hello: false });
    box.send({ type: "hello", protocol: 1, firmware: "1.0.0", kind: "3phase", relay: "off" });
    expect(await box.next("welcome")).toEqual({
      type: "welcome",
      protocol: 1,
      heartbeatSeconds: 240,
      watched: false,
      config: {
        defaultCurrent: 1,
        dryRunThreshold: 30,
        overCurrentThreshold: 30,
        debug: false,
        mobileNo: user.mobileNo,
        underVoltage: 340,
        overVoltage: 460,
        voltageUnbalance: 6,
      },
    });
    box.close();
  });
});
