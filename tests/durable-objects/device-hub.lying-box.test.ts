// Boxes that do not tell the whole truth: a lost or late ack, a link that drops mid-command,
// readings that contradict the relay, a restart with the relay stuck. The hub must never say
// OFF while the motor may be running, must log what it could not vouch for, must tell every
// open page, and must still owe a scheduled run its switch-off.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, onTestFinished } from "vitest";
import { readJson } from "../../common/api-client.ts";
import { motorStatusResponseSchema } from "../../common/api-responses/devices.ts";
import { DEVICE_ACK_TIMEOUT_MS, MOTOR_COOLDOWN_MS, UNANSWERED_ON_CREDIT_MS } from "../../common/constants.ts";
import {
  HUB_SAFETY_SUSTAIN_MS,
  NO_CURRENT_ALERT_MS,
  PROTECTION_STARTUP_GRACE_MS,
  protectionLimits,
} from "../../common/protection.ts";
import type { PumpState } from "../../common/pump-state.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { farmerWithDevice } from "../worker/helpers/boxes.ts";
import { getJson, postJson } from "../worker/helpers/http.ts";
import { hubStub, motorLogLines, owedSwitchOffs, rewriteHubState } from "../worker/helpers/hub-state.ts";
import { type BrowserPeer, browserWatching, connectDevice, type DevicePeer } from "../worker/helpers/sockets.ts";
import { createSchedule, listSchedules, makeDue } from "./schedule-support.ts";

/** The farmer's motor: 9 A running. Dry run below 6.3 A, overcurrent above 11.7 A. */
const CONFIG = { defaultCurrent: 9, dryRunThreshold: 30, overCurrentThreshold: 30 };
const DRY_RUN_LIMIT = protectionLimits(CONFIG).dryRunBelow;

type Status = {
  status: PumpState["status"];
  statusSource: PumpState["statusSource"];
  statusSince: number;
  deviceStatus: "online" | "offline";
  lastSeenAt: number | null;
  pendingCommand: PumpState["pendingCommand"];
  faults: PumpState["faults"];
  cooldownUntil: number;
  powerData: { current: number; wattage: number };
};

async function watchedFarmer() {
  const farmer = await farmerWithDevice();
  expect((await postJson(`/api/devices/motor/config/${farmer.user.mobileNo}`, CONFIG, farmer.token)).status).toBe(200);
  const box = await connectDevice(farmer.device);
  const browser = await browserWatching(farmer.user.mobileNo, { token: farmer.token });
  onTestFinished(() => {
    box.close();
    browser.close();
  });
  await box.next("watch");
  const status = async (): Promise<Status> => {
    const response = await getJson(`/api/devices/motor/status/${farmer.user.mobileNo}`, farmer.token);
    expect(response.status).toBe(200);
    const body = await readJson(response, motorStatusResponseSchema);
    // The one rule every case keeps: never OFF while the last reading says current flows.
    if (body.status === "off") expect(body.powerData.current).toBeLessThan(DRY_RUN_LIMIT);
    return body;
  };
  const motor = (action: "on" | "off") => postJson("/api/devices/motor", { action }, farmer.token);
  /** The box answers like a healthy one (`runningCurrent` A once ON), and the farmer switches ON from the app. */
  const onFromApp = async (runningCurrent: number) => {
    box.autoAck({ runningCurrent });
    expect((await motor("on")).status).toBe(200);
  };
  /** The box back on a new link, saying hello with its relay `relay`; closed when the test ends. */
  const reconnect = async (relay: "on" | "off") => {
    const again = await connectDevice(farmer.device, { relay });
    onTestFinished(() => again.close());
    return again;
  };
  return { ...farmer, box, browser, status, motor, onFromApp, reconnect };
}

/** The pump states the browser was sent, oldest first, as `status/source`. */
function statesSeen(browser: BrowserPeer): string[] {
  return browser.received.flatMap((message) =>
    message.type === "pumpState" ? [`${message.pump.status}/${message.pump.statusSource}`] : [],
  );
}

function reading(box: DevicePeer, current: number) {
  box.send({ type: "power", current, wattage: Math.round(current * 575), supply: true });
}

/** Sends ON and lets the box close its relay without answering; resolves with the 504 and the command. */
async function onWithoutAnswer(farmer: Awaited<ReturnType<typeof watchedFarmer>>) {
  const answer = farmer.motor("on");
  const command = await farmer.box.next("switch");
  const response = await answer;
  expect(response.status).toBe(504);
  return { command, response };
}

describe("a lost ack", () => {
  it("without readings: the status is unknown, not OFF, and the log says the motor may be running", async () => {
    const farmer = await watchedFarmer();
    const started = Date.now();
    await onWithoutAnswer(farmer);
    expect(Date.now() - started).toBeGreaterThanOrEqual(DEVICE_ACK_TIMEOUT_MS - 100);

    const status = await farmer.status();
    expect(status).toMatchObject({
      status: "unknown",
      statusSource: "noAnswer",
      deviceStatus: "online",
      pendingCommand: { action: "on", source: "app", state: "unanswered" },
    });
    expect(await motorLogLines(farmer.device.deviceId)).toEqual([
      ["other", "Motor ON from the app: the box did not confirm it (the motor may be running)."],
    ]);
    await expect.poll(() => statesSeen(farmer.browser)).toContain("unknown/noAnswer");
    expect(
      farmer.browser.received.some((message) => message.type === "motorStatusUpdate" && message.status === "unknown"),
    ).toBe(true);
  });

  it("with readings soon after: the person's ON is credited, counted from the tap, no alarm, the safety net armed", async () => {
    const farmer = await watchedFarmer();
    const tappedAt = Date.now();
    const answer = farmer.motor("on");
    await farmer.box.next("switch");
    // The box closed its relay; its ack is lost, its readings are not. While the ack is still
    // due, a reading does not settle anything.
    reading(farmer.box, 9.1);
    expect((await answer).status).toBe(504);
    expect((await farmer.status()).status).toBe("unknown");

    reading(farmer.box, 9.1);
    await expect.poll(() => statesSeen(farmer.browser)).toContain("on/currentAfterCommand");
    const status = await farmer.status();
    expect(status).toMatchObject({
      status: "on",
      statusSource: "currentAfterCommand",
      powerData: { current: 9.1 },
      faults: [],
      pendingCommand: null,
    });
    // The page hears who started it (the pump state, not the status API).
    expect((await hubStub(farmer.device.deviceId).getSnapshot()).pump.startedBy).toEqual({
      how: "app",
      userId: farmer.user.id,
      role: "owner",
      label: "",
    });
    // The run counts from the tap, not from the reading that showed it.
    expect(status.statusSince).toBeGreaterThanOrEqual(tappedAt);
    expect(status.statusSince).toBeLessThan(tappedAt + DEVICE_ACK_TIMEOUT_MS);
    expect(farmer.browser.received.some((message) => message.type === "runningWithoutCommand")).toBe(false);
    expect(await motorLogLines(farmer.device.deviceId)).toEqual([
      ["other", "Motor ON from the app: the box did not confirm it (the motor may be running)."],
      ["on", "Motor turned ON from the app (running, as its current shows; the box did not confirm it)"],
    ]);
    expect(statesSeen(farmer.browser).slice(-2)).toEqual(["unknown/noAnswer", "on/currentAfterCommand"]);

    // Armed: an overcurrent that outlasts the hub's patience is switched off by the hub.
    const longAgo = Date.now() - PROTECTION_STARTUP_GRACE_MS - HUB_SAFETY_SUSTAIN_MS - 1_000;
    await rewriteHubState(farmer.device.deviceId, (state) => ({
      ...state,
      relayOnSince: longAgo,
      breach: { kind: "overCurrent", since: Date.now() - HUB_SAFETY_SUSTAIN_MS - 1 },
    }));
    reading(farmer.box, 14.2);
    expect(await farmer.box.next("switch")).toMatchObject({ relay: "off" });
  });

  it("with readings long after the unanswered ON: nobody is credited, it is ON from the readings, logged and alerted", async () => {
    const farmer = await watchedFarmer();
    await onWithoutAnswer(farmer);
    // The ON went unanswered longer ago than the hub credits it for.
    await rewriteHubState(farmer.device.deviceId, (state) => {
      const pending = state.pendingSwitch as { sentAt: number };
      return { ...state, pendingSwitch: { ...pending, sentAt: Date.now() - UNANSWERED_ON_CREDIT_MS - 1_000 } };
    });

    reading(farmer.box, 9.1);
    expect(await farmer.browser.next("runningWithoutCommand")).toEqual({ type: "runningWithoutCommand", current: 9.1 });
    const status = await farmer.status();
    expect(status).toMatchObject({
      status: "on",
      statusSource: "readings",
      faults: [{ kind: "runningWithoutCommand", since: status.statusSince }],
    });
    expect((await hubStub(farmer.device.deviceId).getSnapshot()).pump.startedBy).toBeNull();
    expect(await motorLogLines(farmer.device.deviceId)).toEqual([
      ["other", "Motor ON from the app: the box did not confirm it (the motor may be running)."],
      ["on", "Motor is running without a confirmed command (9.1 A)."],
    ]);
  });

  it("then OFF is accepted at once (cooldown or not) and the box's answer settles it", async () => {
    const farmer = await watchedFarmer();
    await onWithoutAnswer(farmer);
    expect((await farmer.status()).cooldownUntil).toBeGreaterThan(Date.now());
    farmer.box.autoAck();
    expect((await farmer.motor("off")).status).toBe(200);
    expect(await farmer.status()).toMatchObject({ status: "off", statusSource: "ack", pendingCommand: null });
    // ...while an ON still waits out the cooldown.
    expect((await farmer.motor("on")).status).toBe(429);
  });
});

describe("a late ack", () => {
  it("of a manual ON owes what a timely one does: ON, the log marked late, the cooldown, the broadcast", async () => {
    const farmer = await watchedFarmer();
    const { command } = await onWithoutAnswer(farmer);
    farmer.box.send({ type: "ack", id: command.id, ok: true, relay: "on" });
    expect(await farmer.browser.next("motorStatusUpdate")).toEqual({ type: "motorStatusUpdate", status: "unknown" });
    expect(await farmer.browser.next("motorStatusUpdate")).toEqual({ type: "motorStatusUpdate", status: "on" });
    const lateAt = Date.now();
    const status = await farmer.status();
    expect(status).toMatchObject({ status: "on", statusSource: "lateAck", pendingCommand: null, faults: [] });
    expect(status.cooldownUntil).toBeGreaterThanOrEqual(lateAt + MOTOR_COOLDOWN_MS - 1_000);
    expect(await motorLogLines(farmer.device.deviceId)).toEqual([
      ["other", "Motor ON from the app: the box did not confirm it (the motor may be running)."],
      ["on", "Motor turned ON from the app (confirmed late)"],
    ]);
    expect((await farmer.motor("on")).status).toBe(429);
  });

  it("of a scheduled 'ON for 30 minutes' still owes the switch-off 30 minutes after the run began", async () => {
    const farmer = await watchedFarmer();
    const schedule = await createSchedule(farmer.token, {
      time: "6:00 AM",
      action: "ON",
      repeat: "daily",
      durationMinutes: 30,
    });
    const stub = hubStub(farmer.device.deviceId);
    await makeDue(farmer.device.deviceId, schedule.id);
    const sentAt = Date.now();
    const run = runDurableObjectAlarm(stub);
    const command = await farmer.box.next("switch");
    await run; // no answer within 5 s
    // Owed already: a motor this run may have started stops after 30 minutes, answer or not.
    const owed = await owedSwitchOffs(farmer.device.deviceId);
    expect(owed).toEqual([{ scheduleId: schedule.id, dueAt: expect.any(Number) }]);
    expect(owed[0]!.dueAt).toBeGreaterThanOrEqual(sentAt + 30 * 60_000);
    expect(owed[0]!.dueAt).toBeLessThan(sentAt + 30 * 60_000 + 2_000);
    expect((await farmer.status()).status).toBe("unknown");

    farmer.box.send({ type: "ack", id: command.id, ok: true, relay: "on" });
    await expect.poll(async () => (await farmer.status()).status).toBe("on");
    expect(await owedSwitchOffs(farmer.device.deviceId)).toEqual(owed);
    expect(await motorLogLines(farmer.device.deviceId)).toEqual([
      [
        "other",
        "Motor ON by schedule (6:00 AM, daily, for 30 minutes): the box did not confirm it (the motor may be running).",
      ],
      ["on", "Motor turned ON by schedule (6:00 AM, daily, for 30 minutes) (confirmed late)"],
    ]);
    expect((await listSchedules(farmer.token))[0]!.lastRun).toMatchObject({ outcome: "done", code: "confirmedLate" });

    // When it is due, the hub switches the motor off.
    farmer.box.autoAck();
    await runInDurableObject(stub, (_hub: DeviceHub, state) => {
      state.storage.sql.exec("UPDATE schedule_offs SET due_at = ?", Date.now() - 1);
    });
    await runDurableObjectAlarm(stub);
    expect(await farmer.status()).toMatchObject({ status: "off", statusSource: "ack" });
    expect(await owedSwitchOffs(farmer.device.deviceId)).toEqual([]);
  });
});

describe("a link that drops mid-command", () => {
  it("leaves the status unknown until the box's hello says what the relay did", async () => {
    const farmer = await watchedFarmer();
    const answer = farmer.motor("on");
    await farmer.box.next("switch");
    farmer.box.close(); // the relay closed; the line died before the ack
    const response = await answer;
    expect(response.status).toBe(504);
    expect(await farmer.status()).toMatchObject({
      status: "unknown",
      statusSource: "linkLost",
      deviceStatus: "offline",
      pendingCommand: { action: "on", state: "unanswered" },
    });
    expect(await farmer.browser.next("deviceStatusUpdate")).toEqual({
      type: "deviceStatusUpdate",
      deviceStatus: "offline",
    });

    await farmer.reconnect("on");
    await expect.poll(async () => (await farmer.status()).status).toBe("on");
    expect(await farmer.status()).toMatchObject({
      statusSource: "hello",
      deviceStatus: "online",
      pendingCommand: null,
    });
    expect(await motorLogLines(farmer.device.deviceId)).toEqual([
      ["other", "Motor ON from the app: the box went offline before confirming it (the motor may be running)."],
      ["on", "Motor turned ON from the app (confirmed when the box reconnected)"],
    ]);
  });
});

/** A watched farmer whose box confirmed an ON and then an OFF: the hub says OFF. */
async function confirmedOff() {
  const farmer = await watchedFarmer();
  await farmer.onFromApp(0);
  expect((await farmer.motor("off")).status).toBe(200);
  expect((await farmer.status()).status).toBe("off");
  return farmer;
}

/** `current` A read while OFF made the motor ON: every page was told, and the log says so. */
async function expectRunningWithoutCommand(farmer: Awaited<ReturnType<typeof watchedFarmer>>, current: number) {
  expect(await farmer.browser.next("runningWithoutCommand")).toEqual({ type: "runningWithoutCommand", current });
  expect((await motorLogLines(farmer.device.deviceId)).at(-1)).toEqual([
    "on",
    `Motor is running without a confirmed command (${current} A).`,
  ]);
}

describe("readings that contradict the hub", () => {
  it("current while OFF (a welded contactor, a hand on the starter) makes it ON, alerted and logged", async () => {
    const farmer = await confirmedOff();
    reading(farmer.box, 8.8);
    await expectRunningWithoutCommand(farmer, 8.8);
    expect(await farmer.status()).toMatchObject({
      status: "on",
      statusSource: "readings",
      faults: [{ kind: "runningWithoutCommand" }],
    });
    // The fault goes when its cause does: the box confirms an OFF and the current stops.
    expect((await farmer.motor("off")).status).toBe(200);
    reading(farmer.box, 0);
    await expect.poll(async () => (await farmer.status()).faults).toEqual([]);
    expect((await farmer.status()).status).toBe("off");
  });

  it("a reading and a relay report sent back to back are judged in the order they came", async () => {
    // A reading's copy to the pages leaves before the hub handles the rest of it (device-frames.ts):
    // the frame after it must still wait its turn. Read first, the current contradicts an OFF
    // relay; the hand on the starter is reported after it.
    const farmer = await confirmedOff();
    reading(farmer.box, 8.8);
    farmer.box.send({ type: "relay", relay: "on", cause: "manual" });
    await expectRunningWithoutCommand(farmer, 8.8);
  });

  it("no current while ON is surfaced after 20 s past the start-up grace, and clears when current flows", async () => {
    const farmer = await watchedFarmer();
    await farmer.onFromApp(0);
    expect(await farmer.box.next("switch")).toMatchObject({ relay: "on" });
    const afterGrace = Date.now() - PROTECTION_STARTUP_GRACE_MS - 1_000;
    await rewriteHubState(farmer.device.deviceId, (state) => ({ ...state, relayOnSince: afterGrace }));
    reading(farmer.box, 0.05); // the first reading next to nothing
    await expect.poll(async () => (await farmer.status()).powerData.current).toBe(0.05);
    expect((await farmer.status()).faults).toEqual([]);
    await rewriteHubState(farmer.device.deviceId, (state) => ({
      ...state,
      noCurrent: { since: Date.now() - NO_CURRENT_ALERT_MS - 1, raised: false },
    }));
    reading(farmer.box, 0.05);
    expect(await farmer.browser.next("noCurrent")).toEqual({ type: "noCurrent" });
    const status = await farmer.status();
    expect(status).toMatchObject({ status: "on", statusSource: "ack", faults: [{ kind: "noCurrent" }] });
    expect((await motorLogLines(farmer.device.deviceId)).at(-1)).toEqual([
      "other",
      "Motor is ON but draws no current.",
    ]);
    // Next to no current is not a dry run: the hub does not switch it off as one.
    await farmer.box.expectNone("switch", 100);
    reading(farmer.box, 9.0);
    await expect.poll(async () => (await farmer.status()).faults).toEqual([]);
  });

  it("a relay ON after power returns is switched off; a box that does not answer leaves it unknown, not OFF", async () => {
    const farmer = await watchedFarmer();
    farmer.box.send({ type: "event", event: "powerLost", relay: "off" });
    await farmer.browser.next("powerLost");
    expect((await farmer.status()).faults).toEqual([{ kind: "noSupply", since: expect.any(Number) }]);
    farmer.box.send({ type: "event", event: "powerRestored", relay: "on" });
    expect(await farmer.box.next("switch")).toMatchObject({ relay: "off" }); // never answered
    await farmer.browser.next("powerRestored");
    await expect
      .poll(async () => (await farmer.status()).status, { timeout: DEVICE_ACK_TIMEOUT_MS + 2_000 })
      .toBe("unknown");
    expect(await farmer.status()).toMatchObject({
      statusSource: "noAnswer",
      faults: [],
      pendingCommand: { action: "off", source: "server", state: "unanswered" },
    });
    expect(await motorLogLines(farmer.device.deviceId)).toEqual([
      ["off", "Power cut at the pump. Motor stopped."],
      ["other", "Power is back at the pump. The motor stays OFF until someone switches it on."],
      ["on", "Motor turned ON (restarted by the box after the power cut)"],
      [
        "other",
        "Motor OFF by the server: it restarted by itself after a power cut: the box did not confirm it (the motor may still be running).",
      ],
    ]);
  });

  it("a box that restarts with its relay stuck closed: its hello says OFF, its current says ON", async () => {
    const farmer = await watchedFarmer();
    await farmer.onFromApp(9);
    farmer.box.close(); // a restart
    await farmer.browser.next("deviceStatusUpdate");
    const restarted = await farmer.reconnect("off");
    await expect.poll(async () => (await farmer.status()).status).toBe("off");
    reading(restarted, 9.2);
    expect(await farmer.browser.next("runningWithoutCommand")).toEqual({ type: "runningWithoutCommand", current: 9.2 });
    expect(await farmer.status()).toMatchObject({ status: "on", statusSource: "readings", deviceStatus: "online" });
    expect(await motorLogLines(farmer.device.deviceId)).toEqual([
      ["on", "Motor turned ON from the app"],
      ["off", "Motor turned OFF (reported by the box when it reconnected)"],
      ["on", "Motor is running without a confirmed command (9.2 A)."],
    ]);
  });
});

describe("an offline box", () => {
  it("keeps its last state as what it was when last seen, with the last reading and its time", async () => {
    const farmer = await watchedFarmer();
    await farmer.onFromApp(9);
    reading(farmer.box, 9.1);
    await expect.poll(async () => (await farmer.status()).powerData.current).toBe(9.1);
    const beforeClose = Date.now();
    farmer.box.close();
    await farmer.browser.next("deviceStatusUpdate");
    const status = await farmer.status();
    expect(status).toMatchObject({ status: "on", deviceStatus: "offline", powerData: { current: 9.1 } });
    expect(status.lastSeenAt).toBeGreaterThanOrEqual(beforeClose - 2_000);
    expect(status.lastSeenAt).toBeLessThanOrEqual(Date.now());
  });
});
