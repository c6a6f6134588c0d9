// The pump state model (docs/pump-state.md) as plain functions over the hub's state: what an
// ON must wait for, how the belief about the motor changes, which faults a farmer must see and
// what the hub vouches for. No sockets, no storage: commands.ts and pump-view.ts apply them.
import { MOTOR_COOLDOWN_MS, UNANSWERED_ON_CREDIT_MS } from "../../common/constants.ts";
import type { RelayState } from "../../common/device-protocol.ts";
import type { HubFailure } from "../../common/hub-contract.ts";
import type { CommandOrigin, HubFailureCode, MotorLogEvent } from "../../common/motor-log-event.ts";
import { provesRunning } from "../../common/protection.ts";
import {
  boxStatusSources,
  type CommandSource,
  type Fault,
  type MotorStatus,
  type PumpState,
  type RunStarter,
  type StatusSource,
} from "../../common/pump-state.ts";
import { type HubState, type MotorBelief, type PendingSwitch, ZERO_POWER } from "./state.ts";

export const OFFLINE: HubFailure = { ok: false, code: "offline" };
export const NO_CONFIRMATION: HubFailure = { ok: false, code: "timeout" };
export const LINK_LOST: HubFailure = { ok: false, code: "linkLost" };
/** The person's role does not allow the command, by the hub's own copy of owner and members. */
export const NOT_ALLOWED: HubFailure = { ok: false, code: "notAllowed" };
const PHASE_FAULT: HubFailure = { ok: false, code: "phaseFault" };
const NO_SUPPLY: HubFailure = { ok: false, code: "noSupply" };
const BUSY: HubFailure = { ok: false, code: "busy" };

const BOX_SOURCES: ReadonlySet<StatusSource> = new Set(boxStatusSources);

/**
 * The room's decision on a switch (commands.ts sendSwitch): why an ON must not leave now, or
 * null when it goes to the box. OFF is never refused while the box can be reached: not
 * in the cooldown, not while another command is on its way, not during a phase fault or without
 * supply (docs/decisions/009-stopping-is-never-blocked.md).
 */
export function decideSwitch(
  state: HubState,
  action: RelayState,
  now: number,
  commandsInFlight: number,
): HubFailure | null {
  if (action !== "on") return null;
  if (state.phaseFault) return PHASE_FAULT;
  if (!state.supply) return NO_SUPPLY;
  if (now < state.cooldownUntil) return { ok: false, code: "cooldown", retryAfterMs: state.cooldownUntil - now };
  if (commandsInFlight > 0) return BUSY;
  return null;
}

/** The cooldown starts when a command leaves for the box, whatever the outcome. */
export function cooldownAfter(sentAt: number): number {
  return sentAt + MOTOR_COOLDOWN_MS;
}

/**
 * The state after the hub's belief about the motor becomes `status` (told by `source`), or null
 * when nothing changes. A change of status restarts what counts from a start, and an OFF reads
 * no current until the box says otherwise.
 */
export function beliefChange(
  state: HubState,
  status: MotorStatus,
  source: StatusSource,
  now: number,
  since = now,
): Partial<HubState> | null {
  const previous = state.motor;
  const changed = previous.status !== status;
  if (!changed && previous.source === source) return null;
  const changes: Partial<HubState> = { motor: { status, since: changed ? since : previous.since, source } };
  if (changed) {
    changes.relayOnSince = status === "on" ? since : null;
    changes.breach = null;
    changes.noCurrent = null;
    // A start answers the last trip; its banner has nothing left to explain.
    if (status === "on") changes.trip = null;
    // An open relay carries no current; the box's next reading says so or contradicts it.
    if (status === "off") Object.assign(changes, { power: ZERO_POWER, powerAt: now });
    if (status !== "unknown" && state.health) changes.health = { ...state.health, relay: status };
  }
  return changes;
}

/**
 * Whether something the box said since `command` left (a reading that proves the motor runs,
 * a relay frame) already settled what the unanswered command did. `beliefWhenSent`: the belief
 * as the command left. The runtime's clock stands still within one event, so a belief formed
 * just before the command can carry its very millisecond: only a belief other than that one,
 * and no older than the command, counts. `since` is when the status last changed: a frame that
 * only restated it (its source changed, not its status) in the command's millisecond may have
 * left the box before the command arrived, and settles nothing.
 */
export function settledSince(state: HubState, command: PendingSwitch, beliefWhenSent: MotorBelief): boolean {
  const motor = state.motor;
  const newer =
    motor.since > command.sentAt || (motor.since === command.sentAt && motor.status !== beliefWhenSent.status);
  // A stated OFF may have left the box before the command reached it: current read since (left
  // to the ack while it was due) says otherwise, and the status is never OFF against it.
  const contradicted = motor.status === "off" && provesRunning(state.power.current, state.config);
  return (
    motor !== beliefWhenSent && motor.status !== "unknown" && newer && !contradicted && BOX_SOURCES.has(motor.source)
  );
}

/**
 * A command cannot be waiting for its ack in a hub that just started (a deploy, a crash):
 * whatever it did, nobody will hear its answer in time. The state that says so, or null.
 */
export function afterRestart(state: HubState, now: number): HubState | null {
  const pending = state.pendingSwitch;
  if (pending?.state !== "sent") return null;
  return {
    ...state,
    pendingSwitch: { ...pending, state: "unanswered" },
    motor: { status: "unknown", since: now, source: "noAnswer" },
    relayOnSince: null,
  };
}

/**
 * When the run an ON the box now shows began: the tap's time for an ON whose answer was lost
 * (or came late) within UNANSWERED_ON_CREDIT_MS, so a run is counted from when it was asked for
 * and not from the report that proved it; else undefined (now). Only an ON that left while the
 * hub believed the motor OFF started the run: one sent to a motor already running (or that may
 * have been) proves nothing by the current that follows.
 */
export function runStartOf(command: PendingSwitch, now: number): number | undefined {
  const started = command.relay === "on" && command.from === "off";
  return started && now - command.sentAt <= UNANSWERED_ON_CREDIT_MS ? command.sentAt : undefined;
}

/**
 * Who a confirmed ON's origin names as the run's starter. An app tap on a pump only its owner
 * uses does not name the person in its log ("from the app"): it is the owner's (`ownerId`).
 * OFFs and the hub's own switches start no run.
 */
export function runStarterOf(origin: CommandOrigin, ownerId: number | null): RunStarter | null {
  switch (origin.by) {
    case "app":
      return origin.role === undefined
        ? { how: "app", userId: ownerId, role: "owner", label: "" }
        : { how: "app", userId: origin.userId ?? null, role: origin.role, label: origin.label ?? "" };
    case "phone":
      return { how: origin.via, userId: origin.userId, role: origin.role, label: origin.label ?? "" };
    case "call":
      return { how: "call", userId: origin.userId, role: origin.role, label: origin.label ?? "" };
    case "schedule":
      return { how: "schedule", userId: null, role: null, label: "" };
    case "powerWindow":
      return { how: "powerWindow", userId: null, role: null, label: "" };
    case "scheduleOff":
    case "timedOff":
    case "powerWindowEnd":
    case "server":
      return null;
    default: {
      const unreachable: never = origin;
      throw new Error(`unhandled command origin ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The conditions a farmer must see, each until it clears. */
export function faultsOf(state: HubState): Fault[] {
  const faults: Fault[] = [];
  if (state.trip) faults.push(tripFault(state.trip));
  if (state.phaseFault) {
    faults.push({
      kind: "phaseFault",
      since: state.phaseFaultSince ?? state.motor.since,
      detail: state.phaseFaultDetail,
      phase: state.phaseFaultPhase,
    });
  }
  if (!state.supply) faults.push({ kind: "noSupply", since: state.supplyLostAt ?? state.motor.since });
  if (state.motor.status === "on" && state.motor.source === "readings") {
    faults.push({ kind: "runningWithoutCommand", since: state.motor.since });
  }
  if (state.motor.status === "on" && state.noCurrent?.raised)
    faults.push({ kind: "noCurrent", since: state.noCurrent.since });
  return faults;
}

function tripFault(trip: NonNullable<HubState["trip"]>): Fault {
  if (trip.kind === "dryRun" || trip.kind === "overCurrent")
    return { kind: trip.kind, since: trip.at, current: trip.current };
  return { kind: trip.kind, since: trip.at, voltages: trip.voltages ?? null };
}

/**
 * What the hub vouches for, as browsers and the API see it. `device`: the box's open socket,
 * with when it was last heard on it (a frame or a heartbeat); null when it has none.
 * `stopsAt`: the earliest switch-off the hub owes a timed run (schedule_offs), if any.
 */
export function pumpStateOf(
  state: HubState,
  device: { lastHeardAt: number | null } | null,
  now: number,
  stopsAt: number | null = null,
): PumpState {
  const pending = state.pendingSwitch;
  return {
    status: state.motor.status,
    statusSince: state.motor.since,
    statusSource: state.motor.source,
    deviceStatus: state.online && device !== null ? "online" : "offline",
    lastSeenAt: device ? device.lastHeardAt : state.lastSeenAt,
    pendingCommand: pending
      ? { action: pending.relay, source: pending.source, sentAt: pending.sentAt, state: pending.state }
      : null,
    cooldownUntil: state.cooldownUntil,
    faults: faultsOf(state),
    powerDataAt: state.powerAt,
    stopsAt,
    startedBy: state.motor.status === "on" ? state.startedBy : null,
    at: now,
  };
}

/** The pump state without its clocks: what makes it news for browsers. */
export function pumpStateMeaning(pump: PumpState): string {
  const { at: _at, lastSeenAt: _lastSeenAt, ...meaning } = pump;
  return JSON.stringify(meaning);
}

/** How the box stated its relay without a command of ours. */
export type StatedHow = Extract<MotorLogEvent, { kind: "stated" }>["how"];

export function stated(relay: RelayState, how: StatedHow): MotorLogEvent {
  return { kind: "stated", relay, how };
}

/** The pump state's coarse source of a command: a person's (`app`, however they asked), a schedule's, the hub's. */
export function commandSourceOf(origin: CommandOrigin): CommandSource {
  if (
    origin.by === "scheduleOff" ||
    origin.by === "timedOff" ||
    origin.by === "powerWindow" ||
    origin.by === "powerWindowEnd"
  )
    return "schedule";
  return origin.by === "call" || origin.by === "phone" ? "app" : origin.by;
}

/** A refusal as a schedule's log entry and outcome keep it. */
export function commandFailure(failure: HubFailure): { code: HubFailureCode; error: string | null } {
  const code =
    failure.code === "otaBusy"
      ? "busy"
      : failure.code === "otaRejected" || failure.code === "notAllowed"
        ? "rejected"
        : failure.code;
  return { code, error: failure.error ?? null };
}
