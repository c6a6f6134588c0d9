// The protection net (docs/device-protocol.md §7): the faults the box reports (trips, phase
// faults, power cuts) are logged, shown and alerted; readings are evidence of what the motor
// does whatever the hub was told; and as a safety net the hub switches off a breach the box
// did not stop. The decisions over readings are plain functions (safetyNetStep, noCurrentStep).
import type { DeviceMessage } from "../../common/device-protocol.ts";
import type { MotorLogEvent, ServerReason } from "../../common/motor-log-event.ts";
import {
  HUB_SAFETY_SUSTAIN_MS,
  NO_CURRENT_ALERT_MS,
  PROTECTION_STARTUP_GRACE_MS,
  provesRunning,
  safetyNetBreachOf,
  unbalancePercent,
  type VoltageBreach,
  voltageBreachOf,
  voltageLimitsOf,
} from "../../common/protection.ts";
import type { HubAlerts } from "./alerts.ts";
import type { MotorCommands } from "./commands.ts";
import type { MotorLog } from "./motor-log.ts";
import { stated } from "./pump-model.ts";
import type { PumpView } from "./pump-view.ts";
import { Room } from "./room.ts";
import type { Breach, HubState } from "./state.ts";
import type { Theft } from "./theft.ts";

type EventMessage = Extract<DeviceMessage, { type: "event" }>;

/**
 * The safety net's next step after a reading: the breach it now tracks, and the limit to switch
 * off for when a breach has lasted HUB_SAFETY_SUSTAIN_MS (the box should have tripped by then).
 * Only a motor ON past its start-up grace can breach.
 */
export function safetyNetStep(state: HubState, now: number): { breach: HubState["breach"]; switchOff: Breach | null } {
  const { motor, relayOnSince, power, breach, config } = state;
  if (motor.status !== "on" || relayOnSince === null || now - relayOnSince < PROTECTION_STARTUP_GRACE_MS) {
    return { breach: null, switchOff: null };
  }
  // The supply first, as the box judges it: a sagging supply is the cause of the current it draws.
  const kind =
    voltageBreachOf(power.voltages, state.supply, limitsOf(state)) ?? safetyNetBreachOf(power.current, config);
  if (kind === null) return { breach: null, switchOff: null };
  if (!breach || breach.kind !== kind) return { breach: { kind, since: now }, switchOff: null };
  if (now - breach.since < HUB_SAFETY_SUSTAIN_MS) return { breach, switchOff: null };
  return { breach: null, switchOff: kind };
}

/**
 * Next to no current while the motor is ON after its start-up grace: since when, and whether it
 * is now time to say so (once, after NO_CURRENT_ALERT_MS). `running`: the reading proves it runs.
 */
export function noCurrentStep(
  state: HubState,
  running: boolean,
  now: number,
): { noCurrent: HubState["noCurrent"]; raise: boolean } {
  const afterGrace = state.relayOnSince !== null && now - state.relayOnSince >= PROTECTION_STARTUP_GRACE_MS;
  if (running || !afterGrace) return { noCurrent: null, raise: false };
  const noCurrent = state.noCurrent ?? { since: now, raised: false };
  if (!noCurrent.raised && now - noCurrent.since >= NO_CURRENT_ALERT_MS)
    return { noCurrent: { ...noCurrent, raised: true }, raise: true };
  return { noCurrent, raise: false };
}

/** The voltage limits the hub holds the box to: what it sent, else the box's kind's defaults. */
function limitsOf(state: HubState) {
  return voltageLimitsOf(state.kind ?? "3phase", state.config);
}

/** A voltage trip as its log entry keeps it: the offending figure and the limit it crossed. */
export function voltageTripEvent(breach: VoltageBreach, voltages: number[] | null, state: HubState): MotorLogEvent {
  const limits = limitsOf(state);
  const volts = voltages?.length ? voltages : null;
  switch (breach) {
    case "underVoltage":
      return { kind: "tripUnderVoltage", volts: volts && Math.min(...volts), limit: limits.underVoltage };
    case "overVoltage":
      return { kind: "tripOverVoltage", volts: volts && Math.max(...volts), limit: limits.overVoltage };
    case "voltageUnbalance":
      return {
        kind: "tripVoltageUnbalance",
        percent: volts && unbalancePercent(volts),
        limit: limits.voltageUnbalance,
      };
    default: {
      const unreachable: never = breach;
      throw new Error(`unknown voltage breach ${String(unreachable)}`);
    }
  }
}

const NOT_STOPPED: Record<Breach, ServerReason> = {
  dryRun: "dryRunNotStopped",
  overCurrent: "overCurrentNotStopped",
  underVoltage: "underVoltageNotStopped",
  overVoltage: "overVoltageNotStopped",
  voltageUnbalance: "voltageUnbalanceNotStopped",
};

export type ProtectionRooms = {
  commands: MotorCommands;
  log: MotorLog;
  view: PumpView;
  alerts: HubAlerts;
  theft: Theft;
};

export class Protection extends Room<ProtectionRooms> {
  /**
   * A person who may switch the pump has read why it stopped (a dry run, overcurrent, a voltage
   * trip) and takes the banner down. The trip only explains the last stop, as the motor log does
   * for good: it locks nothing out, and the next ON clears it anyway. False when there was none
   * (a form posted twice, or another phone dismissed it first).
   */
  dismissTrip(): boolean {
    const { state } = this.hub;
    if (!state.current.trip) return false;
    state.save({ trip: null });
    this.rooms.view.publish();
    return true;
  }

  /** A fault (or its end) the box reports, with the relay after it. */
  async handleEvent(message: EventMessage): Promise<void> {
    const { state, sockets } = this.hub;
    const commands = this.rooms.commands;
    const now = Date.now();
    // The box states its relay in every event; a command still without an answer is moot.
    if (state.current.pendingSwitch?.state === "unanswered") state.save({ pendingSwitch: null });
    switch (message.event) {
      case "dryRun":
      case "overCurrent": {
        const current = message.current ?? null;
        state.save({ breach: null, trip: { kind: message.event, at: now, current } });
        const event: MotorLogEvent =
          message.event === "dryRun" ? { kind: "tripDryRun", current } : { kind: "tripOverCurrent", current };
        await commands.setMotor(message.relay, "event", { action: message.relay, event }, { logAlways: true });
        sockets.broadcast({ type: message.event === "dryRun" ? "dryRunDetected" : "overCurrentDetected" });
        this.rooms.alerts.raise({ kind: message.event, current: message.current ?? null });
        return;
      }
      case "underVoltage":
      case "overVoltage":
      case "voltageUnbalance": {
        const voltages = message.voltages ?? null;
        state.save({ breach: null, trip: { kind: message.event, at: now, current: null, voltages } });
        const event = voltageTripEvent(message.event, voltages, state.current);
        await commands.setMotor(message.relay, "event", { action: message.relay, event }, { logAlways: true });
        sockets.broadcast({ type: "voltageTripDetected", breach: message.event });
        this.rooms.alerts.raise({ kind: "voltage", breach: message.event, voltages });
        return;
      }
      case "phaseFault":
        state.save({
          phaseFault: true,
          phaseFaultSince: state.current.phaseFaultSince ?? now,
          phaseFaultDetail: message.detail ?? null,
          phaseFaultPhase: message.phase ?? null,
        });
        await commands.setMotor(
          message.relay,
          "event",
          {
            action: message.relay,
            event: { kind: "phaseFault", phase: message.phase ?? null, detail: message.detail ?? null },
          },
          { logAlways: true },
        );
        sockets.broadcast({ type: "phaseFaultDetected" });
        this.rooms.alerts.raise({ kind: "phase", state: "fault", detail: message.detail ?? null });
        return;
      case "phaseOk":
        state.save({ phaseFault: false, phaseFaultSince: null, phaseFaultDetail: null, phaseFaultPhase: null });
        this.rooms.log.record("other", { kind: "phaseOk" });
        await commands.setMotor(message.relay, "event", {
          action: message.relay,
          event: stated(message.relay, "reported"),
        });
        sockets.broadcast({ type: "phaseOk" });
        this.rooms.alerts.raise({ kind: "phase", state: "ok", detail: null });
        return;
      case "powerLost": {
        const wasRunning = state.current.motor.status === "on";
        state.save({ supply: false, supplyLostAt: state.current.supplyLostAt ?? now });
        await commands.setMotor(
          message.relay,
          "event",
          { action: message.relay, event: { kind: "powerLost" } },
          { logAlways: true },
        );
        sockets.broadcast({ type: "powerLost" });
        this.rooms.alerts.raise({ kind: "power", state: "lost" });
        this.rooms.theft.onSupplyLost(message.battery === true, wasRunning, now);
        return;
      }
      case "powerRestored":
        state.save({ supply: true, supplyLostAt: null });
        this.rooms.theft.onSupplyBack();
        this.rooms.log.record("other", { kind: "powerRestored" });
        sockets.broadcast({ type: "powerRestored" });
        this.rooms.alerts.raise({ kind: "power", state: "back" });
        if (message.relay === "on") {
          // A box must never restart a motor by itself after a power cut.
          await commands.setMotor("on", "event", { action: "on", event: stated("on", "afterPowerCut") });
          await commands.forceOff("restartedAfterPowerCut");
        } else {
          await commands.setMotor("off", "event", null);
        }
        return;
      case "tamper":
      case "tamperOk":
        if (message.event === "tamper") this.rooms.theft.onTamper(now);
        else this.rooms.theft.onTamperOk();
        await commands.adoptStatedRelay(message.relay, "event", "reported");
        return;
      default: {
        const unreachable: never = message.event;
        throw new Error(`unhandled event ${String(unreachable)}`);
      }
    }
  }

  /**
   * Readings are evidence too. Current proves the motor turns, whatever the hub was told (a
   * welded contactor, a hand on the starter, an ack that was lost). Next to no current while
   * ON is surfaced, but never taken as proof of OFF: a closed relay without supply starts the
   * motor the moment power returns.
   */
  async reconcileReadings(current: number, now: number): Promise<void> {
    const { state, sockets } = this.hub;
    const { motor, config, pendingSwitch } = state.current;
    const running = provesRunning(current, config);
    if (running && motor.status !== "on") {
      // An ON still waiting for its ack is settled by the ack, due within 5 s.
      if (pendingSwitch?.relay === "on" && this.rooms.commands.isInFlight(pendingSwitch.id)) return;
      // A person's ON whose answer was lost moments ago: their run, said calmly, not an intruder.
      if (await this.rooms.commands.creditUnansweredOn(now)) return;
      await this.rooms.commands.setMotor("on", "readings", {
        action: "on",
        event: { kind: "runningWithoutCommand", current },
      });
      sockets.broadcast({ type: "runningWithoutCommand", current });
      this.rooms.alerts.raise({ kind: "runningWithoutCommand", current });
      return;
    }
    if (motor.status !== "on") return;
    const step = noCurrentStep(state.current, running, now);
    if (step.raise) {
      state.save({ noCurrent: step.noCurrent });
      this.rooms.log.record("other", { kind: "noCurrent" });
      sockets.broadcast({ type: "noCurrent" });
    } else if (step.noCurrent !== state.current.noCurrent) {
      state.save({ noCurrent: step.noCurrent });
    }
  }

  /**
   * The safety net: the box should trip within seconds of a breach; if readings still breach
   * a protection limit HUB_SAFETY_SUSTAIN_MS later, the hub switches the motor off itself.
   */
  async checkSafetyNet(now: number): Promise<void> {
    const { state, sockets } = this.hub;
    const step = safetyNetStep(state.current, now);
    if (step.breach !== state.current.breach) state.save({ breach: step.breach });
    const kind = step.switchOff;
    if (kind === null) return;
    const { current, voltages = null } = state.current.power;
    if (await this.rooms.commands.forceOff(NOT_STOPPED[kind])) {
      if (kind === "dryRun" || kind === "overCurrent") {
        state.save({ trip: { kind, at: Date.now(), current } });
        sockets.broadcast({ type: kind === "dryRun" ? "dryRunDetected" : "overCurrentDetected" });
        this.rooms.alerts.raise({ kind, current });
      } else {
        state.save({ trip: { kind, at: Date.now(), current, voltages } });
        sockets.broadcast({ type: "voltageTripDetected", breach: kind });
        this.rooms.alerts.raise({ kind: "voltage", breach: kind, voltages });
      }
      this.rooms.view.publish();
    }
  }
}
