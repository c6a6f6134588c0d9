// Commands to the box and its acks, and the hub's belief about the motor that they settle
// (docs/pump-state.md): a switch is pending until the box answers; confirmed by an ack in time
// or late; unconfirmed (`unknown`: it may be running) when no answer came or the link dropped,
// until anything the box says settles it; and every switch starts the cooldown. setMotor is the
// one place the belief changes. The decisions themselves are plain functions in pump-model.ts;
// the waiting for the box's answers (acks, frames asked for) is command-channel.ts.
import type { DeviceCommand, RelayState } from "../../common/device-protocol.ts";
import type { HubFailure, MotorCommandResult, SwitchRequest } from "../../common/hub-contract.ts";
import type { ServerReason } from "../../common/motor-log-event.ts";
import type { MotorStatus, StatusSource } from "../../common/pump-state.ts";
import { type AckMessage, CommandChannel, type FrameOf } from "./command-channel.ts";
import type { HubContext } from "./context.ts";
import type { MotorLog, MotorLogLine } from "./motor-log.ts";
import { storeOvertakenInFlight } from "./overtaken-switches.ts";
import { type OwedSwitchOffs, owedSwitchOff, TIMED_RUN_OFF_ID } from "./owed-switch-offs.ts";
import {
  beliefChange,
  commandSourceOf,
  cooldownAfter,
  decideSwitch,
  LINK_LOST,
  NO_CONFIRMATION,
  OFFLINE,
  runStarterOf,
  runStartOf,
  type StatedHow,
  settledSince,
  stated,
} from "./pump-model.ts";
import type { PumpView } from "./pump-view.ts";
import { Room } from "./room.ts";
import type { ScheduleBook } from "./schedule-book.ts";
import type { FrameAllowance } from "./socket-caps.ts";
import { type MotorBelief, type PendingSwitch, ZERO_POWER } from "./state.ts";
import type { Usage } from "./usage.ts";

export type CommandRooms = { log: MotorLog; view: PumpView; usage: Usage; offs: OwedSwitchOffs; book: ScheduleBook };

export class MotorCommands extends Room<CommandRooms> {
  /** The commands in flight and the frames awaited (command-channel.ts). */
  readonly #channel: CommandChannel;
  /** Switch commands waiting for their ack right now (memory only: an ack can only be timely while we wait). */
  readonly #switchesInFlight = new Map<string, PendingSwitch>();
  /** Whether overtaken switches are in storage now (overtaken-switches.ts). */
  #overtakenStored = false;

  constructor(hub: HubContext, rooms: CommandRooms, allowance: FrameAllowance) {
    super(hub, rooms);
    this.#channel = new CommandChannel(hub, allowance);
  }

  /**
   * Switches the motor; succeeds only when the box confirms. OFF is never refused while the box
   * can be reached; the cooldown only delays an ON after a change, to protect the motor from
   * quick restarts. `origin` says who asked, for the motor log ("by schedule (10:00 AM, daily)").
   */
  async sendSwitch(command: SwitchRequest): Promise<MotorCommandResult> {
    const { state, sockets, timers, meter } = this.hub;
    const device = sockets.device();
    if (!device) return OFFLINE;
    const now = Date.now();
    const refusal = decideSwitch(state.current, command.action, now, this.#switchesInFlight.size);
    if (refusal) return refusal;
    meter.step("checks");
    const id = crypto.randomUUID();
    const run = command.scheduleRun;
    const pending: PendingSwitch = {
      id,
      relay: command.action,
      source: commandSourceOf(command.origin),
      origin: command.origin,
      sentAt: now,
      from: state.current.motor.status,
      state: "sent",
      ...(run ? { scheduleRun: { scheduleId: run.scheduleId, runKey: run.runKey } } : {}),
    };
    // The cooldown starts when the command leaves for the box, whatever the outcome: a relay
    // that may have switched must not be switched on again straight away.
    state.save({ cooldownUntil: cooldownAfter(now), pendingSwitch: pending });
    const owed = command.action === "on" ? owedSwitchOff(command, now) : null;
    if (owed) {
      // Owed from the moment the ON leaves: whether its answer comes in time, late or never, a
      // motor this run may have started stops after N minutes (stopping an idle one is harmless).
      this.rooms.offs.owe({ ...owed, attempts: 0 });
      timers.syncSchedules();
    }
    meter.step("stateWrite");
    this.#switchesInFlight.set(id, pending);
    if (this.#switchesInFlight.size > 1) this.#storeOvertaken();
    this.rooms.view.publish();
    meter.step("broadcasts");
    const beliefWhenSent = state.current.motor;
    // The ack is settled in its own step, where it arrives: its frame's writes and the switch's
    // are stored in one commit, and the pages' frames leave with it. Settled here instead, after
    // the wait, they would be a second step, a second commit and a hop between the two.
    const acked = this.sendCommand(device, { type: "switch", id, relay: command.action }, async (ack) => {
      this.#notInFlight(id);
      await this.#settleSwitch(pending, ack, "ack");
      // A timed ON the box refused owes nothing: a later ON without minutes must not stop then.
      if (!ack.ok && command.timedRun && ack.relay === "off") this.rooms.offs.forget(TIMED_RUN_OFF_ID);
    });
    meter.step("switchFrame");
    const ack = await acked;
    this.#notInFlight(id);
    if (ack === null) {
      const linkLost = sockets.device() === null;
      await this.#commandUnanswered(pending, beliefWhenSent, linkLost ? "linkLost" : "noAnswer");
      return linkLost ? LINK_LOST : NO_CONFIRMATION;
    }
    // A voltage refusal is a code the pages word; any other refusal only has the box's words.
    if (!ack.ok && ack.reason) return { ok: false, code: ack.reason };
    if (!ack.ok) return { ok: false, code: "rejected", ...(ack.error ? { error: ack.error } : {}) };
    // An ack states the relay as it is when it leaves: switched otherwise since (a hand at the
    // starter, a newer command), it does not confirm this one, and OFF is never answered "ON".
    if (ack.relay !== command.action) return { ok: false, code: "rejected" };
    return { ok: true, status: ack.relay };
  }

  #notInFlight(id: string): void {
    this.#switchesInFlight.delete(id);
    if (this.#overtakenStored) this.#storeOvertaken();
  }

  /** Keeps the switches in flight other than the newest in storage, or clears them when there are none. */
  #storeOvertaken(): void {
    const newest = this.hub.state.current.pendingSwitch?.id;
    const overtaken = [...this.#switchesInFlight.values()].filter((pending) => pending.id !== newest);
    this.#overtakenStored = storeOvertakenInFlight(this.hub.ctx.storage, overtaken);
  }

  /** Whether the switch `id` is waiting for its ack right now. */
  isInFlight(id: string): boolean {
    return this.#switchesInFlight.has(id);
  }

  /**
   * Sends a command and waits for its ack; null when none came in time or the box went away.
   * `onAck` runs in the ack's own step, before the wait ends.
   */
  sendCommand(
    device: WebSocket,
    command: DeviceCommand,
    onAck?: (ack: AckMessage) => Promise<void>,
  ): Promise<AckMessage | null> {
    return this.#channel.send(device, command, onAck);
  }

  /** Sends a `request` and waits for the frame it asks for (health or power), within 5 s. */
  requestFrame<T extends "health" | "power">(what: T): Promise<{ ok: true; message: FrameOf<T> } | HubFailure> {
    return this.#channel.requestFrame(what);
  }

  resolveFrameWaiters<T extends "health" | "power">(type: T, message: FrameOf<T>): void {
    this.#channel.resolveFrameWaiters(type, message);
  }

  /** The box is gone: nothing it was asked will be answered. */
  abandonAll(): void {
    this.#channel.abandonAll();
  }

  /**
   * The one place the hub's belief about the motor changes. `log` is written when the status
   * changed, or whenever `logAlways` (a confirmed command is logged even if it changed nothing).
   * `since`: when a run the status starts began, if not now (an ON's tap, runStartOf).
   */
  async setMotor(
    status: MotorStatus,
    source: StatusSource,
    log: MotorLogLine | null,
    options: { logAlways?: boolean; since?: number | undefined } = {},
  ): Promise<void> {
    const { state, sockets, timers, meter } = this.hub;
    const previous = state.current.motor;
    const changed = previous.status !== status;
    const now = Date.now();
    const changes = beliefChange(state.current, status, source, now, options.since);
    if (changes) state.save(changes);
    this.#followStarter(status, changed, log);
    this.rooms.usage.follow(now);
    meter.step("ackHandling");
    if (changed) {
      sockets.broadcast({ type: "motorStatusUpdate", status });
      if (status === "off") {
        sockets.broadcast({ type: "powerDataUpdate", powerData: ZERO_POWER });
        // Whoever stopped it, a schedule's "ON for N minutes" has nothing left to switch off
        // (and must not stop a run someone starts later). Not so for `unknown`: it may run.
        this.rooms.offs.forgetAll();
        timers.syncSchedules();
      }
    }
    // The first thing a new hub hears is no news when it is OFF.
    const firstWord = previous.source === "none" && status === "off";
    meter.step("broadcasts");
    if (log && !firstWord && (changed || options.logAlways)) this.rooms.log.record(log.action, log.event);
    meter.step("outbox");
    this.rooms.view.publish();
    meter.step("broadcasts");
  }

  /**
   * Who started the run: the person or schedule whose ON the box confirmed when it starts the
   * run (or names a run nobody was credited with yet); nobody once the motor is OFF. A status
   * of `unknown` keeps it: an OFF without an answer leaves the same run going.
   */
  #followStarter(status: MotorStatus, changed: boolean, log: MotorLogLine | null): void {
    const { state } = this.hub;
    if (status === "off") {
      state.save({ startedBy: null });
      return;
    }
    const event = log?.event;
    if (status !== "on" || event?.kind !== "switched" || event.relay !== "on") return;
    if (!changed && state.current.startedBy !== null) return;
    state.save({ startedBy: runStarterOf(event.origin, state.current.owner?.userId ?? null) });
  }

  /**
   * Current proves the motor runs while the hub does not believe it ON. When a person's (or a
   * schedule's) ON went unanswered within UNANSWERED_ON_CREDIT_MS, the run is theirs: ON from
   * the current, counted from the tap, logged as their switch, and no alarm. True when credited;
   * false leaves it to the caller to raise the alarm: an ON nobody asked for is still news.
   */
  async creditUnansweredOn(now: number): Promise<boolean> {
    const { state } = this.hub;
    const pending = state.current.pendingSwitch;
    if (pending?.state !== "unanswered" || this.#switchesInFlight.has(pending.id)) return false;
    const since = runStartOf(pending, now);
    if (since === undefined) return false;
    state.save({ pendingSwitch: null });
    await this.setMotor(
      "on",
      "currentAfterCommand",
      { action: "on", event: { kind: "switched", relay: "on", origin: pending.origin, confirmed: "byCurrent" } },
      { logAlways: true, since },
    );
    if (pending.scheduleRun) this.rooms.book.confirmedLate(pending.scheduleRun, pending.relay);
    return true;
  }

  /**
   * The box stated its relay without being asked (hello, relay frame, health): believed. A
   * command whose answer was lost is settled by it: carried out if the relay is as asked.
   */
  async adoptStatedRelay(relay: RelayState, source: StatusSource, how: StatedHow): Promise<void> {
    const pending = this.hub.state.current.pendingSwitch;
    if (pending && !this.#switchesInFlight.has(pending.id)) {
      this.hub.state.save({ pendingSwitch: null });
      if (relay === pending.relay) {
        const confirmed = source === "hello" ? "onReconnect" : "late";
        await this.setMotor(
          relay,
          source,
          { action: relay, event: { kind: "switched", relay, origin: pending.origin, confirmed } },
          { logAlways: true, since: runStartOf(pending, Date.now()) },
        );
        if (pending.scheduleRun) this.rooms.book.confirmedLate(pending.scheduleRun, pending.relay);
        return;
      }
    }
    await this.setMotor(relay, source, { action: relay, event: stated(relay, how) });
  }

  /** An ack: to the command waiting for it, or, when none waits any more, a switch's late confirmation. */
  async handleAck(ack: AckMessage): Promise<void> {
    if (await this.#channel.answer(ack)) return;
    const pending = this.hub.state.current.pendingSwitch;
    if (pending?.id === ack.id) {
      await this.#settleSwitch(pending, ack, "lateAck");
      return;
    }
    // The ack of a command this hub no longer tracks (superseded by a newer one): the box still
    // tells the truth about its relay.
    await this.setMotor(ack.relay, "lateAck", { action: ack.relay, event: stated(ack.relay, "reported") });
  }

  /** Switches the motor off for safety (OFF ignores the cooldown). True when the box confirmed. */
  async forceOff(reason: ServerReason): Promise<boolean> {
    const result = await this.sendSwitch({ action: "off", origin: { by: "server", reason } });
    if (result.ok && result.status === "off") return true;
    // No answer is already logged, with the motor's status now unknown; a refusal is not.
    if (result.ok || result.code === "rejected") {
      this.rooms.log.record("other", { kind: "serverOffFailed", reason });
    }
    return false;
  }

  /** The box answered a switch command (in time, or late): it did what it says it did. */
  async #settleSwitch(command: PendingSwitch, ack: AckMessage, source: "ack" | "lateAck"): Promise<void> {
    const { state } = this.hub;
    if (state.current.pendingSwitch?.id === command.id) state.save({ pendingSwitch: null });
    const late = source === "lateAck";
    // A late answer owes what a timely one does, the cooldown included.
    if (late && ack.ok) state.save({ cooldownUntil: Math.max(state.current.cooldownUntil, cooldownAfter(Date.now())) });
    // A refusal, or a relay other than the one asked for (switched again before the box
    // answered): the box's word on its relay is believed, and nobody is named for it.
    if (!ack.ok || ack.relay !== command.relay) {
      if (!ack.ok && command.scheduleRun && ack.relay === "off") this.rooms.offs.forget(command.scheduleRun.scheduleId);
      await this.setMotor(ack.relay, source, { action: ack.relay, event: stated(ack.relay, "reported") });
      return;
    }
    await this.setMotor(
      ack.relay,
      source,
      {
        action: ack.relay,
        event: { kind: "switched", relay: ack.relay, origin: command.origin, confirmed: late ? "late" : "inTime" },
      },
      { logAlways: true, since: late ? runStartOf(command, Date.now()) : undefined },
    );
    if (late && command.scheduleRun) this.rooms.book.confirmedLate(command.scheduleRun, command.relay);
  }

  /** A switch got no answer in 5 s, or its box dropped first: the motor may or may not have switched. */
  async #commandUnanswered(
    command: PendingSwitch,
    beliefWhenSent: MotorBelief,
    how: "noAnswer" | "linkLost",
  ): Promise<void> {
    const { state } = this.hub;
    const unconfirmed: MotorLogLine = {
      action: "other",
      event: { kind: "unconfirmed", relay: command.relay, origin: command.origin, why: how },
    };
    const pending = state.current.pendingSwitch;
    const latest = pending?.id === command.id;
    if (latest) state.save({ pendingSwitch: { ...pending, state: "unanswered" } });
    // A newer command (its own answer settles the belief), or something the box said since this
    // one left (a relay frame, a reading that proves the motor runs), may leave the status as it
    // is; the log still says this command went unconfirmed, never silence.
    if (!latest || settledSince(state.current, command, beliefWhenSent)) {
      this.rooms.log.record(unconfirmed.action, unconfirmed.event);
      this.rooms.view.publish();
      return;
    }
    await this.setMotor("unknown", how, unconfirmed, { logAlways: true });
  }
}
