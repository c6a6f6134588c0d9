// The protection net (durable-objects/device-hub/protection.ts) over readings alone: when the
// safety net starts counting a breach, waits, switches off or forgets it, and when next to no
// current becomes something to tell the farmer. Then the faults the box reports, without a box.
import { describe, expect, it } from "vitest";
import { HUB_SAFETY_SUSTAIN_MS, NO_CURRENT_ALERT_MS, PROTECTION_STARTUP_GRACE_MS } from "../../common/protection.ts";
import { noCurrentStep, safetyNetStep } from "../../durable-objects/device-hub/protection.ts";
import { decideSwitch } from "../../durable-objects/device-hub/pump-model.ts";
import type { HubState } from "../../durable-objects/device-hub/state.ts";
import { stateWith, withRooms } from "./room-support.ts";

const NOW = 1_800_000_000_000;
const STARTED = NOW - PROTECTION_STARTUP_GRACE_MS - 1_000;

/** A motor ON since `STARTED` reading `current`, with the farmer's default limits (0.7 A to 1.3 A). */
function running(current: number, changes: Partial<HubState> = {}): HubState {
  return stateWith({
    motor: { status: "on", since: STARTED, source: "ack" },
    relayOnSince: STARTED,
    power: { current, wattage: current * 575 },
    ...changes,
  });
}

describe("the safety net", () => {
  it("counts nothing during the start-up grace, whatever the current", () => {
    const starting = running(6, { relayOnSince: NOW - 1_000 });
    expect(safetyNetStep(starting, NOW)).toEqual({ breach: null, switchOff: null });
  });

  it("starts counting a breach, waits while it lasts, switches off after the sustain", () => {
    const first = safetyNetStep(running(2.5), NOW);
    expect(first).toEqual({ breach: { kind: "overCurrent", since: NOW }, switchOff: null });
    const later = running(2.5, { breach: first.breach });
    expect(safetyNetStep(later, NOW + HUB_SAFETY_SUSTAIN_MS - 1)).toEqual({ breach: first.breach, switchOff: null });
    expect(safetyNetStep(later, NOW + HUB_SAFETY_SUSTAIN_MS)).toEqual({ breach: null, switchOff: "overCurrent" });
  });

  it("forgets a breach that healed, and counts anew when the breach changes kind", () => {
    const breach = { kind: "overCurrent" as const, since: NOW - 5_000 };
    expect(safetyNetStep(running(1, { breach }), NOW)).toEqual({ breach: null, switchOff: null });
    expect(safetyNetStep(running(0.5, { breach }), NOW)).toEqual({
      breach: { kind: "dryRun", since: NOW },
      switchOff: null,
    });
  });

  it("next to no current is not a dry run for the hub, and a motor not ON breaches nothing", () => {
    expect(safetyNetStep(running(0.1), NOW).breach).toBeNull();
    expect(
      safetyNetStep(running(2.5, { motor: { status: "unknown", since: STARTED, source: "noAnswer" } }), NOW).breach,
    ).toBeNull();
  });
});

describe("no current while ON", () => {
  it("is noted after the grace, raised once after NO_CURRENT_ALERT_MS, and forgotten when current flows", () => {
    const first = noCurrentStep(running(0), false, NOW);
    expect(first).toEqual({ noCurrent: { since: NOW, raised: false }, raise: false });
    const waiting = running(0, { noCurrent: first.noCurrent });
    expect(noCurrentStep(waiting, false, NOW + NO_CURRENT_ALERT_MS - 1)).toEqual({
      noCurrent: first.noCurrent,
      raise: false,
    });
    const raised = noCurrentStep(waiting, false, NOW + NO_CURRENT_ALERT_MS);
    expect(raised).toEqual({ noCurrent: { since: NOW, raised: true }, raise: true });
    expect(noCurrentStep(running(0, { noCurrent: raised.noCurrent }), false, NOW + 60_000).raise).toBe(false);
    expect(noCurrentStep(running(8.9, { noCurrent: raised.noCurrent }), true, NOW + 60_000)).toEqual({
      noCurrent: null,
      raise: false,
    });
  });

  it("says nothing during the start-up grace", () => {
    expect(noCurrentStep(running(0, { relayOnSince: NOW - 1_000 }), false, NOW)).toEqual({
      noCurrent: null,
      raise: false,
    });
  });
});

describe("faults the box reports", () => {
  it("a phase fault locks ON commands out with the box's words and phase, and its end lifts the lock", async () => {
    const { during, after } = await withRooms(async ({ hub, protection }) => {
      await protection.handleEvent({
        type: "event",
        event: "phaseFault",
        relay: "off",
        detail: "Phase Y missing",
        phase: "Y",
      });
      const during = hub.state.current;
      await protection.handleEvent({ type: "event", event: "phaseOk", relay: "off" });
      return { during, after: hub.state.current };
    });
    expect(during).toMatchObject({
      phaseFault: true,
      phaseFaultDetail: "Phase Y missing",
      phaseFaultPhase: "Y",
      motor: { status: "off" },
    });
    expect(decideSwitch(during, "on", Date.now(), 0)).toEqual({ ok: false, code: "phaseFault" });
    expect(after).toMatchObject({
      phaseFault: false,
      phaseFaultSince: null,
      phaseFaultDetail: null,
      phaseFaultPhase: null,
    });
  });

  it("a trip is remembered as the reason the motor stopped, with its current", async () => {
    const state = await withRooms(async ({ hub, protection }) => {
      await protection.handleEvent({ type: "event", event: "dryRun", relay: "off", current: 0.3 });
      return hub.state.current;
    });
    expect(state).toMatchObject({
      trip: { kind: "dryRun", current: 0.3 },
      breach: null,
      motor: { status: "off", source: "event" },
    });
  });

  it("a trip's banner goes when someone who may switch dismisses it; the motor log keeps it, and a later trip shows again", async () => {
    const seen = await withRooms(async ({ hub, protection, view }) => {
      await protection.handleEvent({ type: "event", event: "dryRun", relay: "off", current: 0.3 });
      const before = (await view.snapshot()).pump.faults.map((fault) => fault.kind);
      const first = protection.dismissTrip();
      const after = (await view.snapshot()).pump.faults.map((fault) => fault.kind);
      // Twice (a form posted twice on a slow line): the second finds nothing to dismiss.
      const again = protection.dismissTrip();
      await protection.handleEvent({ type: "event", event: "overCurrent", relay: "off", current: 9.1 });
      const next = (await view.snapshot()).pump.faults.map((fault) => fault.kind);
      return { before, first, after, again, next, motor: hub.state.current.motor.status };
    });
    expect(seen).toEqual({
      before: ["dryRun"],
      first: true,
      after: [],
      again: false,
      next: ["overCurrent"],
      motor: "off",
    });
  });
});
