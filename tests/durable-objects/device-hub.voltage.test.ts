// Voltage protection at the hub (docs/device-protocol.md §7, decision 019): the safety net over
// readings (under, over and unbalanced voltage; never a box that sends no voltages, never a
// power cut), the voltage trips the box reports, an ON the box refuses for its supply, and the
// last voltages the pages are given.
import { describe, expect, it } from "vitest";
import { HUB_SAFETY_SUSTAIN_MS, PROTECTION_STARTUP_GRACE_MS } from "../../common/protection.ts";
import { safetyNetStep } from "../../durable-objects/device-hub/protection.ts";
import type { HubState } from "../../durable-objects/device-hub/state.ts";
import { farmerWithDevice } from "../worker/helpers/boxes.ts";
import { postJson } from "../worker/helpers/http.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";
import { connectDevice } from "../worker/helpers/sockets.ts";
import { stateWith, withRooms } from "./room-support.ts";
import { ageRun, runningMotor } from "./safety-net-support.ts";

const NOW = 1_800_000_000_000;
const STARTED = NOW - PROTECTION_STARTUP_GRACE_MS - 1_000;
const LIMITS = { underVoltage: 340, overVoltage: 460, voltageUnbalance: 6 };

/** A 3-phase motor ON since `STARTED`, drawing a healthy 1 A, on a supply reading `voltages`. */
function running(voltages: number[] | undefined, changes: Partial<HubState> = {}): HubState {
  const base = stateWith({});
  return stateWith({
    kind: "3phase",
    config: { ...base.config, ...LIMITS },
    motor: { status: "on", since: STARTED, source: "ack" },
    relayOnSince: STARTED,
    power: { current: 1, wattage: 575, ...(voltages ? { voltages } : {}) },
    ...changes,
  });
}

describe("the safety net over voltages", () => {
  it.each([
    ["underVoltage", [331, 335, 338]],
    ["overVoltage", [470, 466, 468]],
    ["voltageUnbalance", [415, 415, 365]],
  ] as const)("counts %s from the first reading and switches off after the sustain", (kind, voltages) => {
    const first = safetyNetStep(running([...voltages]), NOW);
    expect(first).toEqual({ breach: { kind, since: NOW }, switchOff: null });
    const later = running([...voltages], { breach: first.breach });
    expect(safetyNetStep(later, NOW + HUB_SAFETY_SUSTAIN_MS - 1).switchOff).toBeNull();
    expect(safetyNetStep(later, NOW + HUB_SAFETY_SUSTAIN_MS)).toEqual({ breach: null, switchOff: kind });
  });

  it("leaves a healthy or merely sagging supply alone, and anything during the start-up grace", () => {
    expect(safetyNetStep(running([412, 409, 415]), NOW).breach).toBeNull();
    expect(safetyNetStep(running([345, 342, 348]), NOW).breach).toBeNull();
    expect(safetyNetStep(running([300, 300, 300], { relayOnSince: NOW - 1_000 }), NOW).breach).toBeNull();
  });

  it("never trips on a box that sends no voltages", () => {
    expect(safetyNetStep(running(undefined), NOW)).toEqual({ breach: null, switchOff: null });
    const old = running(undefined, { breach: { kind: "underVoltage", since: NOW - HUB_SAFETY_SUSTAIN_MS } });
    expect(safetyNetStep(old, NOW)).toEqual({ breach: null, switchOff: null });
  });

  it("takes a power cut for a power cut, not an under-voltage", () => {
    expect(safetyNetStep(running([0, 0, 0]), NOW).breach).toBeNull();
    expect(safetyNetStep(running([120, 110, 100], { supply: false }), NOW).breach).toBeNull();
  });

  it("holds a box whose config has no limits (an older hub's state) to its kind's defaults", () => {
    const base = stateWith({});
    const oneLimitless = running([180], { kind: "1phase", config: base.config });
    expect(safetyNetStep(oneLimitless, NOW).breach?.kind).toBe("underVoltage");
    expect(safetyNetStep(running([231], { kind: "1phase", config: base.config }), NOW).breach).toBeNull();
  });
});

describe("voltage trips the box reports", () => {
  const RUNNING = { status: "on", since: STARTED, source: "ack" } as const;

  it("are remembered with their voltages, logged with the offending figure and the limit, and shown as a fault", async () => {
    const { state, logs, faults } = await withRooms(async ({ hub, protection, log, view }) => {
      hub.state.save({ kind: "3phase", config: { ...hub.state.current.config, ...LIMITS }, motor: RUNNING });
      await protection.handleEvent({ type: "event", event: "underVoltage", relay: "off", voltages: [330, 326, 333] });
      return { state: hub.state.current, logs: await log.recent(), faults: view.pumpState().faults };
    });
    expect(state).toMatchObject({
      trip: { kind: "underVoltage", voltages: [330, 326, 333] },
      motor: { status: "off", source: "event" },
    });
    expect(logs[0]).toMatchObject({
      kind: "tripUnderVoltage",
      params: { volts: 326, limit: 340 },
      logMessage: "Low voltage (326 V) below the 340 V limit. Motor turned OFF.",
    });
    expect(faults).toEqual([expect.objectContaining({ kind: "underVoltage", voltages: [330, 326, 333] })]);
  });

  it("log an unbalance as its percentage, and a trip without voltages without one", async () => {
    const logs = await withRooms(async ({ hub, protection, log }) => {
      hub.state.save({ kind: "3phase", config: { ...hub.state.current.config, ...LIMITS }, motor: RUNNING });
      await protection.handleEvent({
        type: "event",
        event: "voltageUnbalance",
        relay: "off",
        voltages: [415, 415, 365],
      });
      await protection.handleEvent({ type: "event", event: "overVoltage", relay: "off" });
      return log.recent();
    });
    expect(logs.map((entry) => entry.params)).toEqual([
      { volts: null, limit: 460 },
      { percent: 8.4, limit: 6 },
    ]);
  });
});

describe("DeviceHub voltage protection, end to end", () => {
  it("switches off a low voltage the box did not stop, logs it, tells the browsers and shows the volts", async () => {
    const { device, box, browser } = await runningMotor();
    await ageRun(device.deviceId, null);
    box.send({ type: "power", current: 1.1, wattage: 630, voltages: [321, 318, 325] });
    let update = await browser.next("powerDataUpdate");
    while (!update.powerData.voltages) update = await browser.next("powerDataUpdate"); // the start's own readings first
    expect(update.powerData).toEqual({ current: 1.1, wattage: 630, voltages: [321, 318, 325] });
    await box.expectNone("switch", 200);
    await ageRun(device.deviceId, "underVoltage");
    box.send({ type: "power", current: 1.1, wattage: 630, voltages: [320, 317, 324] });
    expect(await box.next("switch")).toMatchObject({ relay: "off" });
    expect(await browser.next("voltageTripDetected")).toMatchObject({ breach: "underVoltage" });
    const snapshot = await hubStub(device.deviceId).getSnapshot();
    expect(snapshot.motorStatus).toBe("off");
    expect(snapshot.lastLogs[0]?.logMessage).toBe(
      "Motor turned OFF by the server: low voltage that the box did not stop.",
    );
    expect(snapshot.pump.faults).toEqual([
      expect.objectContaining({ kind: "underVoltage", voltages: [320, 317, 324] }),
    ]);
  });

  it("never trips a box that sends no voltages, and gives pages none", async () => {
    const { device, box, browser } = await runningMotor();
    await ageRun(device.deviceId, "underVoltage");
    box.send({ type: "power", current: 1, wattage: 575 });
    expect((await browser.next("powerDataUpdate")).powerData).toEqual({ current: 1, wattage: 575 });
    await box.expectNone("switch", 300);
    const snapshot = await hubStub(device.deviceId).getSnapshot();
    expect(snapshot.motorStatus).toBe("on");
    expect(snapshot.powerData.voltages).toBeUndefined();
  });

  it("takes a reading during a power cut for a power cut, not an under-voltage", async () => {
    const { device, box } = await runningMotor();
    await ageRun(device.deviceId, "underVoltage");
    box.send({ type: "power", current: 0, wattage: 0, voltages: [0, 0, 0], supply: false });
    await box.expectNone("switch", 300);
    const snapshot = await hubStub(device.deviceId).getSnapshot();
    expect(snapshot.pump.faults.map((fault) => fault.kind)).not.toContain("underVoltage");
    expect(snapshot.lastLogs.map((log) => log.kind)).not.toContain("tripUnderVoltage");
  });

  it("answers an ON the box refused for its supply with the refusal's code, worded for the farmer", async () => {
    const { device, token } = await farmerWithDevice();
    const box = await connectDevice(device);
    const answer = postJson("/api/devices/motor", { action: "on" }, token);
    const command = await box.next("switch");
    box.send({
      type: "ack",
      id: command.id,
      ok: false,
      relay: "off",
      error: "Low voltage: motor held off",
      reason: "underVoltage",
    });
    const response = await answer;
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      success: false,
      code: "underVoltage",
      message: "The voltage at the pump is too low to start the motor safely.",
    });
    box.close();
  });
});
