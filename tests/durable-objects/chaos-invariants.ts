// The rules the chaos simulation (chaos-sim.ts) holds the hub to after every step, checked
// against what the simulation knows and the hub cannot: the box's true relay, supply and phases,
// which frames reached the hub and when, which command each person asked for and what they were
// answered. Each violation names its rule by number (docs/pump-state.md, "Proof under chaos").

import { DEVICE_ACK_TIMEOUT_MS, MOTOR_COOLDOWN_MS } from "../../common/constants.ts";
import type { DeviceMessage, RelayState } from "../../common/device-protocol.ts";
import type { MotorLogEvent } from "../../common/motor-log-event.ts";
import type { MotorStatus, StatusSource } from "../../common/pump-state.ts";
import { SCHEDULE_LATE_LIMIT_MS } from "../../durable-objects/device-hub/schedules.ts";
import type { Step } from "./chaos-steps.ts";

/** At or above this, a reading proves the motor turns (docs/pump-state.md, "Readings are evidence"). */
const RUNNING_THRESHOLD = 0.3;

/** OFF is refused only when the box cannot be reached, or by the person's rights: never for these. */
const NEVER_FOR_OFF = new Set(["cooldown", "busy", "phaseFault", "noSupply"]);

export type Outcome = { ok: true; status: RelayState } | { ok: false; code: string };

/** A person's switch as the simulation asked it, and what they were answered. */
export type PersonRequest = {
  n: number;
  action: RelayState;
  via: "http" | "socket" | "phone";
  minutes: number | null;
  startedAt: number;
  /** The switch command it sent the box, once the box received one. */
  switchId: string | null;
  result: Outcome | null;
  checked: boolean;
  /** Sent on a page's socket after its session was signed out, or its member removed. */
  sessionEnded: boolean;
  /** The owner, or the operator they may share the pump with. */
  by: "owner" | "member";
  /** Asked by the operator while they were none of the pump's people (not yet, or removed). */
  outsider: boolean;
};

/** A schedule a person set, as the hub accepted it: its one occurrence in a run (a window's: open until `closesAt`). */
export type ScheduleSet = {
  id: number;
  kind: "clock" | "window";
  action: RelayState;
  at: number;
  closesAt: number | null;
  /** A clock ON's run: the hub owes its switch-off this long after the ON leaves. */
  forMinutes: number | null;
  byMember: boolean;
};

/**
 * A switch-off the hub owes, by `dueAt`: a timed run's end (a phone's ON for N minutes, a
 * schedule's), a power window's close, or a clock OFF schedule. `settled` once an OFF leaves
 * for it (or the ON is refused), or the hub says the motor is OFF.
 */
type OwedOff = {
  what: string;
  dueAt: number;
  settled: boolean;
  /** A clock OFF: owed at its minute whatever came before, so only an OFF from then on settles it. */
  fromDue: boolean;
  /** The ON it is owed for, when an ON made it owed. */
  switchId: string | null;
  scheduleId: number | null;
  /** When an alarm first ran with it due (a clock OFF's), and the box linked throughout since. */
  dueAlarmAt: number | null;
};

/**
 * A clock schedule's ON may leave this late at most: the hub's late limit, a cooldown it waits
 * out once, and the ack window of a command it found on its way.
 */
const SCHEDULE_ON_LATEST_MS = SCHEDULE_LATE_LIMIT_MS + MOTOR_COOLDOWN_MS + DEVICE_ACK_TIMEOUT_MS + 1_000;

/**
 * An owed OFF may leave this long after the alarm that found it due: the alarm may first wait
 * out a command on its way, or another schedule's ON waiting out the cooldown and its ack.
 */
const OFF_AFTER_ALARM_LATEST_MS = MOTOR_COOLDOWN_MS + 2 * DEVICE_ACK_TIMEOUT_MS + 1_000;

export type LogEntry = { id: number; action: "on" | "off" | "other"; event: MotorLogEvent };

/** The hub as its own state says, read after the step settled. */
export type HubView = {
  status: MotorStatus;
  source: StatusSource;
  since: number;
  online: boolean;
  pending: { relay: RelayState; state: "sent" | "unanswered" } | null;
  faults: string[];
  cooldownUntil: number;
  stopsAt: number | null;
  /** The switch commands (of those the box received) still waiting for their ack. */
  inFlight: string[];
};

/** What happened during one step, as the simulation saw it. */
export type StepEvents = {
  requested: PersonRequest[];
  /** Switch commands the box received, in order. */
  switches: { id: string; relay: RelayState; sentAt: number }[];
  /** Acks that reached the hub: `timely` when the hub was still waiting for it. */
  acks: { id: string; ok: boolean; relay: RelayState; timely: boolean }[];
  /** Relays the box stated in frames that reached the hub, in order. */
  stated: { relay: RelayState; source: DeviceMessage["type"] }[];
  /** Currents the box reported. */
  readings: number[];
  /** Frames that report supply and phases: hello, events, readings. */
  reported: DeviceMessage[];
  /** When the hub's alarm ran. */
  alarms: number[];
  /** The box's true relay changed. */
  relayChanged: boolean;
  /** Operations that threw (an RPC, a request): never expected. */
  failures: string[];
  /** The box's link dropped or was replaced during the step. */
  linkBroke: boolean;
};

export type Observation = {
  step: Step;
  stepIndex: number;
  now: number;
  box: { relay: RelayState; supply: boolean; phaseFault: boolean; linked: boolean };
  hub: HubView;
  /** Motor log entries written during the step, oldest first. */
  entries: LogEntry[];
  /** Requests answered since the last check. */
  answered: PersonRequest[];
  events: StepEvents;
};

type SwitchRecord = {
  id: string;
  relay: RelayState;
  sentAt: number;
  byRequest: number | null;
  fate: "waiting" | "acked" | "unanswered";
  /** A late answer or a stated relay confirmed it after it went unanswered. */
  lateConfirmed: boolean;
  refused: boolean;
};

const TRIP_KINDS = new Set(["dryRun", "overCurrent", "underVoltage", "overVoltage", "voltageUnbalance"]);

export class InvariantChecker {
  readonly #switches = new Map<string, SwitchRecord>();
  /** The relay the box last stated to the hub, while it is still the truth (null once it changed unseen). */
  #heard: RelayState | null = null;
  /** Supply and phases as the box last reported them to the hub. */
  #reportedSupply = true;
  #reportedPhaseFault = false;
  #tripBanner = new Set<string>();
  /** The switch-offs owed: timed runs' ends (a phone's, a schedule's), windows' closes, clock OFFs. */
  #owed: OwedOff[] = [];
  #linkedAtStart = false;
  /** The schedules set and not deleted (nor gone with the member who set them); `used`: its ON has left. */
  readonly #schedules = new Map<number, ScheduleSet & { used: boolean }>();

  scheduleSet(schedule: ScheduleSet): void {
    this.#schedules.set(schedule.id, { ...schedule, used: false });
    if (schedule.kind === "clock" && schedule.action === "off")
      this.#owe({
        what: "a clock schedule's OFF",
        dueAt: schedule.at,
        fromDue: true,
        switchId: null,
        scheduleId: schedule.id,
      });
  }

  scheduleDeleted(id: number): void {
    this.#schedules.delete(id);
    // A deleted clock OFF owes nothing; a run it started still owes its end (the hub keeps it apart).
    this.#owed = this.#owed.filter((off) => !(off.fromDue && off.scheduleId === id));
  }

  #owe(off: Omit<OwedOff, "settled" | "dueAlarmAt">): void {
    this.#owed.push({ ...off, settled: false, dueAlarmAt: null });
  }

  oldestSchedule(): number | null {
    return this.#schedules.keys().next().value ?? null;
  }

  /** The member's schedules go with them: none may run after this. */
  memberRemoved(): void {
    for (const [id, schedule] of this.#schedules) {
      if (!schedule.byMember) continue;
      this.#schedules.delete(id);
      this.#owed = this.#owed.filter((off) => !(off.fromDue && off.scheduleId === id));
    }
  }

  /**
   * Whether an ON nobody asked for in this step is a schedule's own: a power window open now,
   * or a clock ON whose time has come (not too long ago) and that has not switched yet. An open
   * window is taken first, as it may start the motor any number of times while open: an ON
   * counted against a clock due at the same time would leave that clock's own ON, which may
   * wait out the window's command and cooldown and leave after the window has closed, owed by
   * nothing (seed 1735792344).
   */
  #scheduledOn(at: number): ScheduleSet | null {
    const schedules = [...this.#schedules.values()];
    const window = schedules.find(
      (schedule) => schedule.kind === "window" && schedule.at <= at && at < schedule.closesAt!,
    );
    if (window) return window;
    const clock = schedules.find(
      (schedule) =>
        schedule.kind === "clock" &&
        schedule.action === "on" &&
        !schedule.used &&
        schedule.at <= at &&
        at <= schedule.at + SCHEDULE_ON_LATEST_MS,
    );
    if (clock) clock.used = true;
    return clock ?? null;
  }

  /** The switch commands the checker follows, for the simulation to ask the hub which are in flight. */
  switchIds(): string[] {
    return [...this.#switches.values()].filter((record) => record.fate === "waiting").map((record) => record.id);
  }

  /** Before a step runs: whether the box's link is up. */
  beforeStep(linked: boolean): void {
    this.#linkedAtStart = linked;
  }

  check(observation: Observation): string[] {
    const violations: string[] = [];
    const { events, hub, box } = observation;
    for (const failure of events.failures) violations.push(`an operation failed: ${failure}`);

    // ---- what the box said, in order ----------------------------------------------------------
    for (const sent of events.switches) {
      const asker = events.requested.find((request) => request.switchId === sent.id);
      const schedule = sent.relay === "on" && !asker ? this.#scheduledOn(sent.sentAt) : null;
      this.#switches.set(sent.id, {
        id: sent.id,
        relay: sent.relay,
        sentAt: sent.sentAt,
        byRequest: asker?.n ?? null,
        fate: "waiting",
        lateConfirmed: false,
        refused: false,
      });
      // 2. Nothing switches the motor ON that no person (or their own schedule) asked for; a
      // schedule switches at most once per occurrence, and never once deleted or its setter removed.
      if (sent.relay === "on" && !asker && !schedule)
        violations.push(
          `2: the hub sent the box an ON that nobody asked for (no person, no schedule due at ${new Date(sent.sentAt).toISOString()}; schedules set: ${JSON.stringify([...this.#schedules.values()])})`,
        );
      // 8. A person who is none of the pump's people (a member removed) never switches anything.
      if (asker?.outsider)
        violations.push(`8: a tap of the operator while not a member sent the box ${sent.relay.toUpperCase()}`);
      // 7. A socket whose session ended never switches anything.
      if (asker?.sessionEnded)
        violations.push(`7: a tap on a signed-out page's socket sent the box ${sent.relay.toUpperCase()}`);
      if (sent.relay === "off")
        for (const off of this.#owed) if (!off.fromDue || sent.sentAt >= off.dueAt) off.settled = true;
      const minutes = asker?.via === "phone" ? asker.minutes : schedule?.forMinutes;
      if (sent.relay === "on" && minutes) {
        this.#owe({
          what: asker ? "a timed run's switch-off" : "a clock schedule's run's switch-off",
          dueAt: sent.sentAt + minutes * 60_000,
          fromDue: false,
          switchId: sent.id,
          scheduleId: schedule?.id ?? null,
        });
      } else if (sent.relay === "on" && schedule?.kind === "window") {
        this.#owe({
          what: "a power window's close",
          dueAt: schedule.closesAt!,
          fromDue: false,
          switchId: sent.id,
          scheduleId: schedule.id,
        });
      }
    }
    const timelyOk = new Map<RelayState, number>();
    for (const ack of events.acks) {
      const record = this.#switches.get(ack.id);
      if (!record) continue;
      if (ack.timely && record.fate === "waiting") {
        record.fate = "acked";
        record.refused = !ack.ok;
        if (ack.ok && ack.relay === record.relay) timelyOk.set(record.relay, (timelyOk.get(record.relay) ?? 0) + 1);
        if (!ack.ok) for (const off of this.#owed) if (off.switchId === record.id) off.settled = true;
      }
    }
    // Commands no longer waiting that got no ack in time: the hub owes each a "did not confirm" entry.
    const unanswered = new Map<RelayState, number>();
    for (const record of this.#switches.values()) {
      if (record.fate !== "waiting" || hub.inFlight.includes(record.id)) continue;
      record.fate = "unanswered";
      unanswered.set(record.relay, (unanswered.get(record.relay) ?? 0) + 1);
    }

    // 1. Never OFF while the true relay is ON and the box has shown it.
    if (events.relayChanged) this.#heard = null;
    for (const stated of events.stated) this.#heard = stated.relay;
    if (events.readings.some((current) => current >= RUNNING_THRESHOLD) && box.relay === "on") this.#heard = "on";
    // While a command waits for its ack the hub says so ("switching ON…"), not its status.
    const saysOff = hub.status === "off" && hub.pending?.state !== "sent";
    if (box.relay === "on" && this.#heard === "on" && saysOff) {
      violations.push("1: the hub says OFF while the relay is ON and the box has said so");
    }

    // 3. OFF is never refused for the cooldown (nor while busy, in a phase fault, without supply).
    for (const request of observation.answered) {
      const result = request.result!;
      if (request.outsider && result.ok)
        violations.push(`8: a tap of the operator while not a member was answered as a success`);
      if (request.sessionEnded && (result.ok || result.code !== "answerLost")) {
        violations.push(`7: a tap on a signed-out page's socket was answered: ${JSON.stringify(result)}`);
      }
      if (request.action === "off" && !result.ok && NEVER_FOR_OFF.has(result.code)) {
        violations.push(`3: OFF #${request.n} (${request.via}) was refused: ${result.code}`);
      }
      // 4. A command reported as a success was acked by the box, with the relay asked for.
      if (result.ok) {
        const record = request.switchId ? this.#switches.get(request.switchId) : undefined;
        if (result.status !== request.action) {
          violations.push(
            `4: ${request.action.toUpperCase()} #${request.n} (${request.via}) was answered as a success: the motor is ${result.status.toUpperCase()}`,
          );
        } else if (record?.fate !== "acked" || record.refused) {
          violations.push(
            `4: ${request.action.toUpperCase()} #${request.n} (${request.via}) was answered as a success without the box's ack`,
          );
        }
      }
    }
    // ...and an owed switch-off happens by its deadline while the box is reachable.
    const linkedThroughout = this.#linkedAtStart && box.linked && !events.linkBroke;
    for (const off of this.#owed) {
      if (hub.status === "off" && (!off.fromDue || observation.now >= off.dueAt)) off.settled = true;
      if (off.settled) continue;
      if (!linkedThroughout) {
        off.dueAlarmAt = null;
        continue;
      }
      if (!off.fromDue) {
        // The hub's own list of what it owes says when it will try (a retry moves it on).
        const due =
          hub.stopsAt === null ? undefined : events.alarms.find((at) => at >= hub.stopsAt! && at >= off.dueAt);
        if (due !== undefined) off.dueAlarmAt ??= due;
        else if (hub.stopsAt === null || (off.dueAlarmAt !== null && hub.stopsAt > off.dueAlarmAt))
          off.dueAlarmAt = null;
        if (off.dueAlarmAt !== null && observation.now >= off.dueAlarmAt + OFF_AFTER_ALARM_LATEST_MS)
          violations.push(`3: the hub's alarm ran after ${off.what} was due, and no OFF left`);
        continue;
      }
      // A clock OFF leaves from the alarm, after a command on its way (its ack window) if there is one.
      off.dueAlarmAt ??=
        events.alarms.find((at) => at >= off.dueAt && at <= off.dueAt + SCHEDULE_LATE_LIMIT_MS) ?? null;
      if (
        off.dueAlarmAt !== null &&
        hub.status === "on" &&
        observation.now >= off.dueAlarmAt + OFF_AFTER_ALARM_LATEST_MS
      )
        violations.push(`3: the hub's alarm ran after ${off.what} was due, the motor ON, and no OFF left`);
    }
    this.#owed = this.#owed.filter((off) => !off.settled);

    // 5. The motor log never calls unconfirmed what was confirmed, nor the reverse.
    const loggedUnconfirmed = new Map<RelayState, number>();
    const loggedInTime = new Map<RelayState, number>();
    for (const entry of observation.entries) {
      const event = entry.event;
      if (event.kind === "unconfirmed")
        loggedUnconfirmed.set(event.relay, (loggedUnconfirmed.get(event.relay) ?? 0) + 1);
      if (event.kind !== "switched") continue;
      if (event.confirmed === "inTime" || event.confirmed === undefined) {
        loggedInTime.set(event.relay, (loggedInTime.get(event.relay) ?? 0) + 1);
        continue;
      }
      // Confirmed late: by an answer or a stated relay of this step, for a command left unanswered;
      // or an ON credited by the current that a reading of this step shows.
      const stated =
        event.confirmed === "byCurrent"
          ? event.relay === "on" && events.readings.some((current) => current >= RUNNING_THRESHOLD)
          : events.stated.some((said) => said.relay === event.relay);
      const command = [...this.#switches.values()].find(
        (record) => record.fate === "unanswered" && !record.lateConfirmed && record.relay === event.relay,
      );
      if (!stated || !command) {
        violations.push(
          `5: the log says the box confirmed ${event.relay.toUpperCase()} late, but no ${event.relay.toUpperCase()} it was sent was left unconfirmed and then stated`,
        );
      } else {
        command.lateConfirmed = true;
      }
    }
    for (const relay of ["on", "off"] as const) {
      const owed = unanswered.get(relay) ?? 0;
      const logged = loggedUnconfirmed.get(relay) ?? 0;
      if (logged < owed)
        violations.push(
          `5: ${owed - logged} ${relay.toUpperCase()} command(s) got no ack and the log does not say the box did not confirm them`,
        );
      if (logged > owed)
        violations.push(
          `5: the log says the box did not confirm ${relay.toUpperCase()} ${logged - owed} time(s) more than it failed to`,
        );
      const confirmed = timelyOk.get(relay) ?? 0;
      const loggedConfirmed = loggedInTime.get(relay) ?? 0;
      if (loggedConfirmed > confirmed)
        violations.push(
          `5: the log says the box confirmed ${relay.toUpperCase()} in time, but no ${relay.toUpperCase()} it was sent was acked so`,
        );
      if (loggedConfirmed < confirmed)
        violations.push(`5: the box acked ${relay.toUpperCase()} in time and the log does not say so`);
    }

    // 6. A fault banner clears only when its fault does (and shows only while the box reports it).
    for (const frame of events.reported) {
      if (frame.type === "hello") {
        this.#reportedSupply = frame.supply ?? true;
        this.#reportedPhaseFault = frame.phaseFault ?? false;
      } else if (frame.type === "power" && frame.supply !== undefined) {
        this.#reportedSupply = frame.supply;
      } else if (frame.type === "event") {
        if (frame.event === "powerLost") this.#reportedSupply = false;
        if (frame.event === "powerRestored") this.#reportedSupply = true;
        if (frame.event === "phaseFault") this.#reportedPhaseFault = true;
        if (frame.event === "phaseOk") this.#reportedPhaseFault = false;
      }
    }
    if (hub.faults.includes("noSupply") !== !this.#reportedSupply) {
      violations.push(
        `6: the no-supply banner is ${this.#reportedSupply ? "shown" : "gone"} while the box reports supply ${this.#reportedSupply ? "present" : "lost"}`,
      );
    }
    if (hub.faults.includes("phaseFault") !== this.#reportedPhaseFault) {
      violations.push(
        `6: the phase-fault banner is ${this.#reportedPhaseFault ? "gone" : "shown"} while the box reports ${this.#reportedPhaseFault ? "a fault" : "its phases fine"}`,
      );
    }
    const trips = new Set(hub.faults.filter((kind) => TRIP_KINDS.has(kind)));
    const wentOn = hub.status === "on" || observation.entries.some((entry) => entry.action === "on");
    // One banner says why the motor last stopped: a newer trip takes its place.
    for (const kind of this.#tripBanner) {
      if (!trips.has(kind) && trips.size === 0 && !wentOn)
        violations.push(`6: the ${kind} banner cleared without the motor going ON again`);
    }
    this.#tripBanner = trips;
    return violations;
  }
}
