// What the pages make of each realtime message: the live state it leaves behind and what else
// they do about it (toasts with their sounds, reading the loader again, debug lines).
import { describe, expect, it } from "vitest";
import type { MessageKey } from "../../app/i18n/i18n.ts";
import { type LiveDeviceState, type LiveEffect, liveDeviceReducer } from "../../app/realtime/live-device.ts";
import type { PumpState } from "../../common/pump-state.ts";
import { type MotorLogEntry, type RealtimeMessage, realtimeMessageSchema } from "../../common/realtime-protocol.ts";
import { OFF_SINCE_HELLO } from "./pump-state-examples.ts";

type MessageOf<T extends RealtimeMessage["type"]> = Extract<RealtimeMessage, { type: T }>;

const pump = OFF_SINCE_HELLO;

const running: PumpState = {
  ...pump,
  status: "on",
  statusSince: 3_000,
  statusSource: "ack",
  powerDataAt: 3_000,
  at: 3_000,
};

function logEntry(id: number): MotorLogEntry {
  return {
    id,
    action: "on",
    logMessage: "Motor turned ON.",
    timestamp: new Date(1_000 * id).toISOString(),
    kind: "switched",
    params: { relay: "on" },
  };
}

const health = {
  uptime: 60,
  signal: -70,
  relay: "off",
  chipId: "C1",
  imei: "123",
  mqtt: "connected",
  sim: "SIM",
  version: "1.0.0",
  connection: "sim",
  reportedAt: null,
} as const;

/** A state as a page holds it after a while: connected, some logs, heard from at 5000. */
const before: LiveDeviceState = {
  pump,
  powerData: { current: 0, wattage: 0 },
  lastLogs: [logEntry(2), logEntry(1)],
  health: null,
  debug: false,
  connected: true,
  ended: null,
  failedAttempts: 0,
  liveUntil: 5_000,
};

/** One message of every type the hub sends, as it sends them. */
const MESSAGES: { [T in RealtimeMessage["type"]]: MessageOf<T> } = {
  initialData: {
    type: "initialData",
    motorStatus: "on",
    deviceStatus: "online",
    powerData: { current: 9.5, wattage: 3_900 },
    lastLogs: [logEntry(3)],
    phaseFault: false,
    health,
    debug: true,
    pump: running,
  },
  motorStatusUpdate: { type: "motorStatusUpdate", status: "on" },
  pumpState: { type: "pumpState", pump: running },
  runningWithoutCommand: { type: "runningWithoutCommand", current: 8.2 },
  noCurrent: { type: "noCurrent" },
  deviceStatusUpdate: { type: "deviceStatusUpdate", deviceStatus: "offline" },
  powerDataUpdate: { type: "powerDataUpdate", powerData: { current: 9.1, wattage: 3_800 } },
  motorLogUpdate: { type: "motorLogUpdate", log: logEntry(3) },
  dryRunDetected: { type: "dryRunDetected" },
  overCurrentDetected: { type: "overCurrentDetected" },
  voltageTripDetected: { type: "voltageTripDetected", breach: "underVoltage" },
  phaseFaultDetected: { type: "phaseFaultDetected" },
  phaseOk: { type: "phaseOk" },
  powerLost: { type: "powerLost" },
  powerRestored: { type: "powerRestored" },
  healthData: { type: "healthData", mobileNo: "9876543210", payload: health },
  debugLog: { type: "debugLog", log: "relay=1", timestamp: "2026-11-23T10:00:00.000Z", mobileNo: "9876543210" },
  debugModeUpdate: { type: "debugModeUpdate", debug: true },
  otaStatus: {
    type: "otaStatus",
    version: "1.2.0",
    stage: "downloading",
    progress: 40,
    error: null,
    reason: null,
    firmware: null,
  },
  commandResult: { type: "commandResult", requestId: "7", result: { ok: true, status: "on" } },
};

type Toast = Extract<LiveEffect, { type: "toast" }>;

/** The toast and sound a message is an alert with, and nothing else. */
function alert(key: MessageKey, kind: Toast["kind"], sound: Toast["sound"]): LiveEffect[] {
  return [{ type: "toast", text: { key }, kind, sound }];
}

/** What each message leaves behind and does; every type of the protocol appears once. */
const EXPECTED: { [T in RealtimeMessage["type"]]: { state: LiveDeviceState; effects: LiveEffect[] } } = {
  initialData: {
    state: {
      pump: running,
      powerData: { current: 9.5, wattage: 3_900 },
      lastLogs: [logEntry(3)],
      health,
      debug: true,
      connected: true,
      ended: null,
      failedAttempts: 0,
      liveUntil: 5_000,
    },
    effects: [],
  },
  motorStatusUpdate: { state: before, effects: [] },
  pumpState: { state: { ...before, pump: running }, effects: [] },
  runningWithoutCommand: { state: before, effects: alert("realtime.runningWithoutCommand", "error", "fault") },
  noCurrent: { state: before, effects: alert("realtime.noCurrent", "error", "fault") },
  deviceStatusUpdate: { state: before, effects: alert("realtime.offline", "error", "notice") },
  powerDataUpdate: { state: { ...before, powerData: { current: 9.1, wattage: 3_800 } }, effects: [] },
  motorLogUpdate: { state: { ...before, lastLogs: [logEntry(3), logEntry(2), logEntry(1)] }, effects: [] },
  dryRunDetected: { state: before, effects: alert("realtime.dryRun", "error", "fault") },
  overCurrentDetected: { state: before, effects: alert("realtime.overCurrent", "error", "fault") },
  voltageTripDetected: { state: before, effects: alert("realtime.underVoltage", "error", "fault") },
  phaseFaultDetected: { state: before, effects: alert("realtime.phaseFault", "error", "fault") },
  phaseOk: { state: before, effects: alert("realtime.phaseOk", "success", "notice") },
  powerLost: { state: before, effects: alert("realtime.powerLost", "error", "fault") },
  powerRestored: { state: before, effects: alert("realtime.powerRestored", "info", "notice") },
  healthData: { state: { ...before, health }, effects: [] },
  debugLog: { state: before, effects: [{ type: "debugLine", timestamp: "2026-11-23T10:00:00.000Z", log: "relay=1" }] },
  debugModeUpdate: { state: { ...before, debug: true }, effects: [] },
  otaStatus: {
    state: before,
    effects: [
      { type: "toast", text: { key: "ota.stage.downloading", percent: 40 }, kind: "info", key: "ota-progress" },
    ],
  },
  // Not the page's state: the socket hook answers the tap that asked (use-device-realtime.ts).
  commandResult: { state: before, effects: [] },
};

describe("liveDeviceReducer", () => {
  it("has a message of every type the protocol knows, each one a valid wire message", () => {
    const types = realtimeMessageSchema.def.options.map((option) => option.def.shape.type.def.values[0]);
    expect(Object.keys(MESSAGES).sort()).toEqual([...types].sort());
    for (const message of Object.values(MESSAGES)) expect(realtimeMessageSchema.parse(message)).toEqual(message);
  });

  for (const type of Object.keys(MESSAGES) as RealtimeMessage["type"][]) {
    it(`${type}: the state it leaves and what the page does`, () => {
      const frozen = structuredClone(before);
      const [state, effects] = liveDeviceReducer(frozen, MESSAGES[type]);
      expect(state).toEqual(EXPECTED[type].state);
      expect(effects).toEqual(EXPECTED[type].effects);
      expect(frozen).toEqual(before); // the state it was given is not changed
    });
  }

  it("initialData reconnects: whatever ended or failed before is cleared, the last time heard from is kept", () => {
    const dropped: LiveDeviceState = {
      ...before,
      connected: false,
      ended: "signedOut",
      failedAttempts: 4,
      liveUntil: 7_000,
    };
    const [state] = liveDeviceReducer(dropped, MESSAGES.initialData);
    expect(state).toMatchObject({ connected: true, ended: null, failedAttempts: 0, liveUntil: 7_000 });
  });

  it("deviceStatusUpdate online is good news, with the quiet sound", () => {
    const [, effects] = liveDeviceReducer(before, { type: "deviceStatusUpdate", deviceStatus: "online" });
    expect(effects).toEqual(alert("realtime.online", "success", "notice"));
  });

  it("motorLogUpdate keeps the newest seven, and a log sent again takes its new place once", () => {
    const seven = [7, 6, 5, 4, 3, 2, 1].map(logEntry);
    const [more] = liveDeviceReducer({ ...before, lastLogs: seven }, { type: "motorLogUpdate", log: logEntry(8) });
    expect(more.lastLogs.map((log) => log.id)).toEqual([8, 7, 6, 5, 4, 3, 2]);
    const [again] = liveDeviceReducer({ ...before, lastLogs: seven }, { type: "motorLogUpdate", log: logEntry(4) });
    expect(again.lastLogs.map((log) => log.id)).toEqual([4, 7, 6, 5, 3, 2, 1]);
  });

  describe("otaStatus", () => {
    const ota = MESSAGES.otaStatus;

    it("each stage replaces the toast before it; a stage without progress says only the stage", () => {
      const [, effects] = liveDeviceReducer(before, { ...ota, stage: "verifying", progress: null });
      expect(effects).toEqual([
        { type: "toast", text: { key: "ota.stage.verifying", percent: null }, kind: "info", key: "ota-progress" },
      ]);
    });

    it("done: a toast with the version and the quiet sound, then the loader again (the box runs another build)", () => {
      const [state, effects] = liveDeviceReducer(before, { ...ota, stage: "done", progress: 100 });
      expect(state).toEqual(before);
      expect(effects).toEqual([
        {
          type: "toast",
          text: { key: "ota.done", values: { version: "1.2.0" } },
          kind: "success",
          sound: "notice",
          key: "ota-progress",
        },
        { type: "revalidate" },
      ]);
    });

    it("failed: worded as the motor log's otaFailed; without a reason the box is the reason", () => {
      const [, effects] = liveDeviceReducer(before, { ...ota, stage: "failed", progress: null, error: "bad hash" });
      expect(effects).toEqual([
        {
          type: "toast",
          text: { log: { kind: "otaFailed", version: "1.2.0", reason: "box", error: "bad hash", firmware: null } },
          kind: "error",
          sound: "fault",
          key: "ota-progress",
        },
      ]);
      const [, otherVersion] = liveDeviceReducer(before, {
        ...ota,
        stage: "failed",
        progress: null,
        reason: "otherVersion",
        firmware: "1.1.0",
      });
      expect(otherVersion[0]).toMatchObject({ text: { log: { reason: "otherVersion", firmware: "1.1.0" } } });
    });
  });
});
