import { describe, expect, it } from "vitest";
import { MOTOR_COOLDOWN_MS } from "../../common/constants.ts";
import {
  afterRestart,
  beliefChange,
  commandFailure,
  decideSwitch,
  pumpStateOf,
  runStarterOf,
  settledSince,
} from "../../durable-objects/device-hub/pump-model.ts";
import { emptyHealth, type MotorBelief, type PendingSwitch } from "../../durable-objects/device-hub/state.ts";
import { stateWith, withRooms } from "./room-support.ts";

const NOW = 1_800_000_000_000;

const pending: PendingSwitch = {
  id: "c1",
  relay: "on",
  source: "app",
  origin: { by: "app" },
  sentAt: NOW - 6_000,
  state: "sent",
};

describe("an ON waits, an OFF never does", () => {
  it("refuses an ON for a phase fault, no mains, the cooldown and a command in flight, in that order", () => {
    const everything = stateWith({ phaseFault: true, supply: false, cooldownUntil: NOW + 4_000 });
    expect(decideSwitch(everything, "on", NOW, 1)).toEqual({ ok: false, code: "phaseFault" });
    expect(decideSwitch({ ...everything, phaseFault: false }, "on", NOW, 1)).toEqual({ ok: false, code: "noSupply" });
    expect(decideSwitch(stateWith({ cooldownUntil: NOW + 4_000 }), "on", NOW, 1)).toEqual({
      ok: false,
      code: "cooldown",
      retryAfterMs: 4_000,
    });
    expect(decideSwitch(stateWith({ cooldownUntil: NOW }), "on", NOW, 1)).toEqual({ ok: false, code: "busy" });
    expect(decideSwitch(stateWith({ cooldownUntil: NOW }), "on", NOW, 0)).toBeNull();
  });

  it("never refuses an OFF, whatever holds an ON back", () => {
    const everything = stateWith({ phaseFault: true, supply: false, cooldownUntil: NOW + 4_000 });
    expect(decideSwitch(everything, "off", NOW, 1)).toBeNull();
  });
});

describe("the belief about the motor", () => {
  it("changes nothing when the status and its source are what the hub already believes", () => {
    const state = stateWith({ motor: { status: "on", since: NOW - 1_000, source: "ack" } });
    expect(beliefChange(state, "on", "ack", NOW)).toBeNull();
  });

  it("keeps the time of the status when only its source changes", () => {
    const state = stateWith({ motor: { status: "on", since: NOW - 1_000, source: "ack" }, relayOnSince: NOW - 1_000 });
    expect(beliefChange(state, "on", "relayFrame", NOW)).toEqual({
      motor: { status: "on", since: NOW - 1_000, source: "relayFrame" },
    });
  });

  it("an OFF reads no current and forgets the start, a breach and missing current", () => {
    const state = stateWith({
      motor: { status: "on", since: NOW - 60_000, source: "ack" },
      relayOnSince: NOW - 60_000,
      power: { current: 8.9, wattage: 5_000 },
      breach: { kind: "dryRun", since: NOW - 1_000 },
      noCurrent: { since: NOW - 30_000, raised: true },
    });
    expect(beliefChange(state, "off", "ack", NOW)).toEqual({
      motor: { status: "off", since: NOW, source: "ack" },
      relayOnSince: null,
      breach: null,
      noCurrent: null,
      power: { current: 0, wattage: 0 },
      powerAt: NOW,
    });
  });

  it("a start answers the last trip; `unknown` leaves the reported relay alone", () => {
    const tripped = stateWith({
      motor: { status: "off", since: NOW - 60_000, source: "event" },
      trip: { kind: "dryRun", at: NOW - 60_000, current: 0.2 },
    });
    expect(beliefChange(tripped, "on", "ack", NOW)).toMatchObject({ trip: null, relayOnSince: NOW });
    const health = emptyHealth(); // relay "off"
    expect(beliefChange(stateWith({ health }), "unknown", "noAnswer", NOW)?.health).toBeUndefined();
    expect(beliefChange(stateWith({ health }), "on", "ack", NOW)?.health).toMatchObject({ relay: "on" });
  });

  it("an unanswered command counts as settled only by what the box said after it left", () => {
    const sent = { ...pending, state: "unanswered" as const };
    const whenSent: MotorBelief = { status: "off", since: NOW - 60_000, source: "ack" };
    const settled = (motor: MotorBelief, belief = whenSent) => settledSince(stateWith({ motor }), sent, belief);
    expect(settled({ status: "on", since: NOW - 1_000, source: "readings" })).toBe(true);
    expect(settled({ status: "on", since: NOW - 10_000, source: "readings" })).toBe(false);
    expect(settled({ status: "unknown", since: NOW - 1_000, source: "noAnswer" })).toBe(false);
    // The runtime's clock stands still within one event: a belief formed just before the
    // command, in its very millisecond, is not news from after it.
    const sameInstant: MotorBelief = { status: "on", since: sent.sentAt, source: "event" };
    expect(settled(sameInstant, sameInstant)).toBe(false);
    // A change of status in that millisecond after the command is; a frame that only restated
    // the status (its source changed) may have left the box before the command arrived.
    expect(settled({ ...sameInstant, status: "off" }, sameInstant)).toBe(true);
    expect(settled({ ...sameInstant, source: "relayFrame" }, sameInstant)).toBe(false);
  });

  it("a hub that restarts with a command in flight says it may have switched; an unanswered one stays as it was", () => {
    const restarted = afterRestart(stateWith({ pendingSwitch: pending, relayOnSince: NOW - 5_000 }), NOW);
    expect(restarted).toMatchObject({
      pendingSwitch: { id: "c1", state: "unanswered" },
      motor: { status: "unknown", since: NOW, source: "noAnswer" },
      relayOnSince: null,
    });
    expect(afterRestart(stateWith({ pendingSwitch: { ...pending, state: "unanswered" } }), NOW)).toBeNull();
    expect(afterRestart(stateWith({}), NOW)).toBeNull();
  });

  it("an OTA refusal is kept in a schedule's outcome as the command refusal it is", () => {
    expect(commandFailure({ ok: false, code: "otaRejected", error: "Low battery" })).toEqual({
      code: "rejected",
      error: "Low battery",
    });
    expect(commandFailure({ ok: false, code: "cooldown", retryAfterMs: 3_000 })).toEqual({
      code: "cooldown",
      error: null,
    });
  });
});

describe("what the hub vouches for", () => {
  it("is offline without the box's socket, whatever the state remembers, with when it was last heard", () => {
    const state = stateWith({
      online: true,
      lastSeenAt: NOW - 9_000,
      pendingSwitch: pending,
      cooldownUntil: NOW + MOTOR_COOLDOWN_MS,
    });
    expect(pumpStateOf(state, null, NOW)).toMatchObject({
      deviceStatus: "offline",
      lastSeenAt: NOW - 9_000,
      pendingCommand: { action: "on", source: "app", sentAt: pending.sentAt, state: "sent" },
      cooldownUntil: NOW + MOTOR_COOLDOWN_MS,
      at: NOW,
    });
    expect(pumpStateOf(state, { lastHeardAt: NOW - 2_000 }, NOW)).toMatchObject({
      deviceStatus: "online",
      lastSeenAt: NOW - 2_000,
    });
  });

  it("shows every fault until it clears, running without a command only while the readings say so", () => {
    const state = stateWith({
      motor: { status: "on", since: NOW - 30_000, source: "readings" },
      trip: { kind: "overCurrent", at: NOW - 90_000, current: 14 },
      phaseFault: true,
      phaseFaultSince: NOW - 60_000,
      phaseFaultDetail: "Phase Y missing",
      phaseFaultPhase: "Y",
      supply: false,
      supplyLostAt: NOW - 50_000,
      noCurrent: { since: NOW - 25_000, raised: true },
    });
    expect(pumpStateOf(state, null, NOW).faults.map((fault) => fault.kind)).toEqual([
      "overCurrent",
      "phaseFault",
      "noSupply",
      "runningWithoutCommand",
      "noCurrent",
    ]);
    expect(
      pumpStateOf({ ...state, motor: { ...state.motor, source: "ack" } }, null, NOW).faults.map((fault) => fault.kind),
    ).not.toContain("runningWithoutCommand");
  });
});

describe("commands without a box", () => {
  it("an ON to a box that is not connected fails at once and starts no cooldown", async () => {
    const { result, state } = await withRooms(async ({ hub, commands }) => ({
      result: await commands.sendSwitch({ action: "on", origin: { by: "app" } }),
      state: hub.state.current,
    }));
    expect(result).toEqual({ ok: false, code: "offline" });
    expect(state).toMatchObject({ cooldownUntil: 0, pendingSwitch: null });
  });

  it("the first word a new hub hears is no news when it is OFF; after that a change is logged once", async () => {
    const deviceId = `room-test-${crypto.randomUUID()}`;
    const logs = await withRooms(async ({ commands, log }) => {
      await commands.setMotor("off", "hello", {
        action: "off",
        event: { kind: "stated", relay: "off", how: "reconnected" },
      });
      await commands.setMotor("on", "relayFrame", {
        action: "on",
        event: { kind: "stated", relay: "on", how: "manual" },
      });
      await commands.setMotor("on", "relayFrame", {
        action: "on",
        event: { kind: "stated", relay: "on", how: "manual" },
      });
      return log.page({ limit: 100 }).rows;
    }, deviceId);
    expect(logs.map((log) => [log.action, log.kind])).toEqual([["on", "stated"]]);
  });

  it("a relay the box states settles a command whose answer was lost: confirmed late, the cooldown kept", async () => {
    const deviceId = `room-test-${crypto.randomUUID()}`;
    const { state, logs } = await withRooms(async ({ hub, commands, log }) => {
      hub.state.save({
        motor: { status: "unknown", since: NOW, source: "noAnswer" },
        pendingSwitch: { ...pending, state: "unanswered" },
        cooldownUntil: 42,
      });
      await commands.adoptStatedRelay("on", "relayFrame", "manual");
      return { state: hub.state.current, logs: log.page({ limit: 100 }).rows };
    }, deviceId);
    expect(state).toMatchObject({
      pendingSwitch: null,
      motor: { status: "on", source: "relayFrame" },
      cooldownUntil: 42,
    });
    expect(logs.map((log) => [log.kind, JSON.parse(log.params)])).toEqual([
      ["switched", { relay: "on", origin: { by: "app" }, confirmed: "late" }],
    ]);
  });
});

describe("who started the run", () => {
  const byRaju = { by: "phone", via: "sms", userId: 7, role: "operator", label: "राजू", forMinutes: null } as const;

  it("is the person or schedule whose ON the box confirmed, kept while unknown, forgotten once OFF", async () => {
    const seen = await withRooms(async ({ hub, commands }) => {
      const starter = () => pumpStateOf(hub.state.current, null, Date.now()).startedBy;
      await commands.setMotor("off", "hello", null);
      await commands.setMotor(
        "on",
        "ack",
        { action: "on", event: { kind: "switched", relay: "on", origin: byRaju, confirmed: "inTime" } },
        { logAlways: true },
      );
      const running = starter();
      // An OFF without an answer leaves the same run going; a page shows no starter while unknown.
      await commands.setMotor("unknown", "noAnswer", null);
      const unknown = starter();
      await commands.setMotor("on", "relayFrame", {
        action: "on",
        event: { kind: "stated", relay: "on", how: "manual" },
      });
      const stillRaju = starter();
      await commands.setMotor("off", "ack", null);
      const off = starter();
      // A hand at the starter is nobody's command.
      await commands.setMotor("on", "relayFrame", {
        action: "on",
        event: { kind: "stated", relay: "on", how: "manual" },
      });
      return { running, unknown, stillRaju, off, manual: starter() };
    });
    expect(seen).toEqual({
      running: { how: "sms", userId: 7, role: "operator", label: "राजू" },
      unknown: null,
      stillRaju: { how: "sms", userId: 7, role: "operator", label: "राजू" },
      off: null,
      manual: null,
    });
  });

  it("names each way an ON is asked for; an app tap on a pump only its owner uses is the owner's", () => {
    expect(runStarterOf({ by: "app" }, 3)).toEqual({ how: "app", userId: 3, role: "owner", label: "" });
    expect(runStarterOf({ by: "app", userId: 7, role: "operator", label: "राजू" }, 3)).toEqual({
      how: "app",
      userId: 7,
      role: "operator",
      label: "राजू",
    });
    expect(runStarterOf(byRaju, 3)?.how).toBe("sms");
    expect(runStarterOf({ ...byRaju, via: "missedCall" }, 3)?.how).toBe("missedCall");
    expect(runStarterOf({ by: "schedule", minuteOfDay: 600, repeat: "daily", forMinutes: null }, 3)).toEqual({
      how: "schedule",
      userId: null,
      role: null,
      label: "",
    });
    expect(runStarterOf({ by: "server", reason: "safety" }, 3)).toBeNull();
  });
});

describe("an ON whose answer was lost, and current that shows the motor running", () => {
  it("credits the ON that left while the motor was believed OFF, not one sent to a motor that ran already", async () => {
    const credited = await withRooms(async ({ hub, commands }) => {
      const answers: boolean[] = [];
      for (const from of ["off", "on", "unknown", undefined] as const) {
        hub.state.save({
          motor: { status: "unknown", since: NOW, source: "noAnswer" },
          pendingSwitch: { ...pending, sentAt: Date.now() - 6_000, state: "unanswered", ...(from ? { from } : {}) },
        });
        answers.push(await commands.creditUnansweredOn(Date.now()));
      }
      return answers;
    });
    // An ON to a running motor, to one nobody could vouch for, or one an older hub stored without
    // saying: the current proves nothing about it, and stays news.
    expect(credited).toEqual([true, false, false, false]);
  });
});
