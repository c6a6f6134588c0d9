// The farmer's schedules (docs/user-area.md), carried out here whether or not a browser is
// open: kept in the hub's SQLite, woken by the schedules timer, each run claimed before it
// switches so an alarm delivered twice (even while the first run still waits for the box)
// switches once, and "ON for N minutes" owing its switch-off until the motor is known OFF.
import { DEVICE_ACK_TIMEOUT_MS } from "../../common/constants.ts";
import type { RelayState } from "../../common/device-protocol.ts";
import type { MotorCommandResult, ScheduleFailure, ScheduleResult, SwitchRequest } from "../../common/hub-contract.ts";
import type { CommandOrigin, MotorLogEvent } from "../../common/motor-log-event.ts";
import { roleMay } from "../../common/pump-roles.ts";
import {
  MAX_SCHEDULES_PER_DEVICE,
  type ScheduleInput,
  type ScheduleOutcome,
  type ScheduleView,
} from "../../common/schedule-schemas.ts";
import { istMinuteKey } from "../../common/schedule-time.ts";
import type { HubAlerts } from "./alerts.ts";
import type { MotorCommands } from "./commands.ts";
import type { MotorLog } from "./motor-log.ts";
import { type OwedOff, type OwedSwitchOffs, TIMED_RUN_OFF_ID } from "./owed-switch-offs.ts";
import { loadOwnerAndConfig, loadOwnerAndConfigWithin, STOP_WAITS_FOR_D1_MS } from "./owner.ts";
import { commandFailure } from "./pump-model.ts";
import type { PumpView } from "./pump-view.ts";
import { Room } from "./room.ts";
import type { ScheduleBook, ScheduleRow } from "./schedule-book.ts";
import { clashOf, fieldsOf, nextRunOf, scheduleView } from "./schedule-rules.ts";
import type { WindowRuns } from "./window-runs.ts";

/**
 * A schedule run that comes later than this (the hub could not run: an outage, a deploy) is
 * logged as missed rather than carried out: a motor started hours after the farmer planned
 * could run with nobody expecting it.
 */
export const SCHEDULE_LATE_LIMIT_MS = 10 * 60_000;
/** An owed switch-off that failed (box offline, no confirmation) is tried again this often... */
export const SCHEDULE_OFF_RETRY_MS = 60_000;
/** ...for this long after it was due; then it is given up and logged. */
export const SCHEDULE_OFF_GIVE_UP_MS = 24 * 60 * 60_000;

const SCHEDULE_NOT_FOUND: ScheduleFailure = { ok: false, code: "notFound" };

export type ScheduleRooms = {
  commands: MotorCommands;
  log: MotorLog;
  alerts: HubAlerts;
  windows: WindowRuns;
  view: PumpView;
  book: ScheduleBook;
  offs: OwedSwitchOffs;
};

export class Schedules extends Room<ScheduleRooms> {
  list(userId: number): ScheduleView[] {
    const { book, windows } = this.rooms;
    return book.of(userId).map((row) => scheduleView(row, row.kind === "window" ? windows.runOf(row.id) : null));
  }

  /** `authorUserId`: the member who set it, null for the owner or an admin (ScheduleRow). */
  create(userId: number, input: ScheduleInput, authorUserId: number | null = null): ScheduleResult {
    const { book } = this.rooms;
    if (book.count() >= MAX_SCHEDULES_PER_DEVICE) {
      return { ok: false, code: "limit", max: MAX_SCHEDULES_PER_DEVICE };
    }
    const fields = fieldsOf(input);
    const clash = clashOf(fields, book.others(fields.kind, null));
    if (clash) return clash;
    const now = Date.now();
    // A time already past today (also for "once") means its next occurrence: tomorrow. A
    // window already open today opens next time too: its run never starts by surprise.
    const id = book.insert({
      userId,
      authorUserId,
      ...fields,
      nextRunAt: nextRunOf(fields, now),
      createdAt: now,
    });
    this.hub.timers.syncSchedules();
    return { ok: true, schedule: scheduleView(book.get(id)!) };
  }

  /** Whoever changes a schedule becomes its author: what runs is what they set. */
  update(userId: number, id: number, input: ScheduleInput, authorUserId: number | null = null): ScheduleResult {
    const { book, windows } = this.rooms;
    const existing = book.get(id);
    if (!existing || existing.userId !== userId) return SCHEDULE_NOT_FOUND;
    const fields = fieldsOf(input);
    const clash = clashOf(fields, book.others(fields.kind, id));
    if (clash) return clash;
    book.update(id, { ...fields, authorUserId, nextRunAt: nextRunOf(fields, Date.now()) });
    // A changed window's run under way ends (a switch-off it owes stays), as if deleted.
    windows.forget(id);
    this.hub.timers.syncSchedules();
    return { ok: true, schedule: scheduleView(book.get(id)!) };
  }

  /** A switch-off still owed for a run under way stays: deleting a schedule never leaves a motor running. */
  delete(userId: number, id: number): boolean {
    const existing = this.rooms.book.get(id);
    if (!existing || existing.userId !== userId) return false;
    this.#forget(id);
    this.hub.timers.syncSchedules();
    return true;
  }

  /**
   * A new owner (or none) must never inherit the previous owner's schedules, and a member who
   * may no longer schedule here (removed, or now a viewer) leaves none of theirs behind.
   */
  keepOnlyOwnedBy(userId: number | null): void {
    const { book, windows } = this.rooms;
    book.deleteNotOwnedBy(userId, this.#schedulers());
    windows.keepOnly(book.ids());
    this.hub.timers.syncSchedules();
  }

  /** A schedule goes, and its run under way with it; a switch-off it owes stays (owed-switch-offs.ts). */
  #forget(id: number): void {
    this.rooms.book.delete(id);
    this.rooms.windows.forget(id);
  }

  /** Whether the hub's copy names the schedule's owner as the box's, and its author (if a member) as one who may schedule. */
  #vouchedFor(schedule: ScheduleRow): boolean {
    const ownerId = this.hub.state.current.owner?.userId ?? null;
    const authorGone = schedule.authorUserId !== null && !this.#schedulers().includes(schedule.authorUserId);
    return ownerId === schedule.userId && !authorGone;
  }

  /** The members who may schedule on this box, by the hub's copy. */
  #schedulers(): number[] {
    return this.hub.state.current.members.filter(({ role }) => roleMay(role, "schedule")).map(({ userId }) => userId);
  }

  /** Runs every schedule and owed switch-off that is due. Safe to run twice (claims first). */
  async runDue(): Promise<void> {
    const { book, offs } = this.rooms;
    for (const schedule of book.due(Date.now())) {
      try {
        await this.#run(schedule);
      } catch (error) {
        this.hub.logError(`schedule ${schedule.id} failed`, error);
      }
    }
    for (const off of offs.due(Date.now())) {
      try {
        await this.#runOff(off);
      } catch (error) {
        this.hub.logError(`switch-off of schedule ${off.scheduleId} failed`, error);
      }
    }
    await this.rooms.windows.reconcile();
    this.hub.timers.syncSchedules();
  }

  async #run(schedule: ScheduleRow): Promise<void> {
    const { state } = this.hub;
    const { book } = this.rooms;
    const scheduledAt = schedule.nextRunAt!;
    const runKey = istMinuteKey(scheduledAt);
    const now = Date.now();
    const next = schedule.repeat === "once" ? null : nextRunOf(schedule, Math.max(now, scheduledAt));
    // Claimed before anything is sent: an alarm delivered twice, even while the first run
    // still waits for the box, finds the run taken and switches nothing.
    if (!book.claimRun(schedule.id, runKey, scheduledAt, next)) {
      book.setNextRun(schedule.id, next);
      return;
    }
    // Whose box is it now? Only a schedule of the current owner (or of a member who may still
    // schedule here) may move the motor. The hub's confirmed copy of its people says so without
    // asking D1: every change of access reloads it at once and is told again every minute until
    // the hub confirms (worker/services/hub-notices.ts), so a fleet's schedules firing in the
    // same minute do not queue on the one database before their motors start (decision 045).
    // A copy that does not vouch for the schedule asks D1 before dropping it; a stop waits for
    // D1 only briefly, then goes by the copy: a hanging D1 stops no motor.
    const vouched = state.current.accessConfirmed && this.#vouchedFor(schedule);
    const loaded =
      vouched ||
      (schedule.kind === "clock" && schedule.action === "off"
        ? await loadOwnerAndConfigWithin(this.hub, STOP_WAITS_FOR_D1_MS)
        : await loadOwnerAndConfig(this.hub));
    const ownerId = state.current.owner?.userId ?? null;
    if ((loaded || ownerId !== null) && !this.#vouchedFor(schedule)) {
      this.#forget(schedule.id);
      return;
    }
    if (schedule.kind === "window") {
      await this.rooms.windows.open(schedule, scheduledAt, runKey);
      return;
    }
    const action = schedule.action;
    const { minuteOfDay } = schedule;
    /** `error`: the box's own words when it refused; the page shows them. */
    const finish = async (outcome: ScheduleOutcome, code: string | null, error: string | null, log?: MotorLogEvent) => {
      book.recordOutcome(schedule.id, runKey, outcome, code, error);
      if (log) this.rooms.log.record("other", log);
      this.rooms.alerts.raise({ kind: "schedule", outcome, action, minuteOfDay: schedule.minuteOfDay, reason: code });
    };
    // A start must be vouched for: when the hub was told its people changed and cannot read who
    // they are now, it starts nothing (a stop still runs). The server could not run it.
    const unvouched = action === "on" && !state.current.accessConfirmed;
    if (now - scheduledAt > SCHEDULE_LATE_LIMIT_MS || unvouched) {
      await finish("missed", "late", null, { kind: "scheduleMissed", action, minuteOfDay, reason: "late" });
      return;
    }
    const origin: CommandOrigin = {
      by: "schedule",
      minuteOfDay,
      repeat: schedule.repeat,
      forMinutes: action === "on" && schedule.durationMinutes ? schedule.durationMinutes : null,
    };
    const result = await this.#switch(action, origin, {
      scheduleId: schedule.id,
      runKey,
      offAfterMinutes: action === "on" ? schedule.durationMinutes : null,
    });
    // Deleted (or gone with the member who set it) while it waited: nothing to record.
    if (result === null) return;
    if (result.ok) {
      await finish("done", null, null);
      return;
    }
    if (result.code === "offline") {
      await finish("missed", "offline", null, { kind: "scheduleMissed", action, minuteOfDay, reason: "offline" });
      return;
    }
    if (result.code === "timeout" || result.code === "linkLost") {
      // Logged already, saying the motor may be running; a late answer still completes the run.
      await finish("failed", result.code, null);
      return;
    }
    const failure = commandFailure(result);
    await finish("failed", failure.code, failure.error, { kind: "scheduleNotRun", action, minuteOfDay, failure });
  }

  /**
   * "ON for N minutes" is over (a schedule's, or a person's timed ON from a phone): switch off,
   * unless the motor already stopped.
   */
  async #runOff(off: OwedOff): Promise<void> {
    const { state } = this.hub;
    const { offs } = this.rooms;
    // Only a confirmed OFF lets it go: `unknown` may be running.
    if (state.current.motor.status === "off") {
      offs.forget(off.scheduleId);
      return;
    }
    const now = Date.now();
    if (now - off.plannedAt > SCHEDULE_OFF_GIVE_UP_MS) {
      offs.forget(off.scheduleId);
      this.rooms.log.record("other", { kind: "scheduleOffGivenUp", afterMinutes: off.afterMinutes });
      // The pages stop saying when it will stop.
      this.rooms.view.publish();
      return;
    }
    // Claimed by moving the next attempt on: a second delivery finds nothing due, and a crash
    // mid-attempt is retried a minute later. Stopping a motor twice does no harm.
    offs.owe({ ...off, dueAt: now + SCHEDULE_OFF_RETRY_MS, attempts: off.attempts + 1 });
    const origin: CommandOrigin =
      off.scheduleId === TIMED_RUN_OFF_ID
        ? { by: "timedOff", afterMinutes: off.afterMinutes }
        : (this.rooms.windows.stopping(off.scheduleId, now) ?? { by: "scheduleOff", afterMinutes: off.afterMinutes });
    const result = (await this.#switch("off", origin))!;
    if (result.ok) {
      offs.forget(off.scheduleId);
      await this.rooms.windows.reconcile();
      return;
    }
    if (off.attempts === 0) {
      this.rooms.log.record("other", {
        kind: "scheduleOffFailed",
        afterMinutes: off.afterMinutes,
        failure: commandFailure(result),
      });
    }
  }

  /**
   * A schedule's switch, through the same path as the app's (offline, phase fault, cooldown
   * and logging all apply). A cooldown or a command in flight is waited out once: a farmer who
   * switched by hand a few seconds before the schedule still gets the schedule. Null: the
   * schedule was deleted while it waited (or went with the member who set it), and a schedule
   * that no longer exists starts nothing.
   */
  async #switch(
    action: RelayState,
    origin: CommandOrigin,
    scheduleRun?: SwitchRequest["scheduleRun"],
  ): Promise<MotorCommandResult | null> {
    const request: SwitchRequest = { action, origin, ...(scheduleRun ? { scheduleRun } : {}) };
    const result = await this.rooms.commands.sendSwitch(request);
    if (result.ok || (result.code !== "cooldown" && result.code !== "busy")) return result;
    await new Promise((resolve) => setTimeout(resolve, (result.retryAfterMs ?? DEVICE_ACK_TIMEOUT_MS) + 250));
    if (scheduleRun && !this.rooms.book.get(scheduleRun.scheduleId)) return null;
    return this.rooms.commands.sendSwitch(request);
  }
}
