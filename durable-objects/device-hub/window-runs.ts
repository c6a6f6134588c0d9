// Power-window runs (docs/decisions/020-power-window-runs.md): "run N minutes as soon as supply
// is present between 22:00 and 06:00". A run is opened by its schedule at the window's opening
// (schedules.ts) and kept in the hub's SQLite (`window_runs`) until it is complete or over. Its
// next step is decided again from what the hub knows each time anything could change it: every
// frame from the box, the run's own wake-up, a switch-off it owed. Each step is claimed in
// SQLite before it acts, so an alarm delivered twice, a frame and an alarm at once, or a hub
// restarted mid-run never start the motor twice; the switch-off a start owes is recorded when
// the ON leaves (commands.ts), so a run whose hub is gone still stops on time.
import type { CommandOrigin, MotorLogEvent } from "../../common/motor-log-event.ts";
import { windowLengthMinutes } from "../../common/schedule-time.ts";
import { MAX_WINDOW_START_DELAY_SECONDS } from "../../common/schedule-view.ts";
import type { HubAlerts } from "./alerts.ts";
import type { MotorCommands } from "./commands.ts";
import type { HubContext } from "./context.ts";
import type { MotorLog } from "./motor-log.ts";
import { commandFailure } from "./pump-model.ts";
import { Room } from "./room.ts";
import type { ScheduleBook, ScheduleRow } from "./schedule-book.ts";
import { type WindowRunRow, WindowRunsTable } from "./window-runs-table.ts";
import { minutesOf, OUTCOMES, STARTING_RECHECK_MS, type WindowRunEnd, windowStep } from "./window-step.ts";

export type WindowRooms = { commands: MotorCommands; log: MotorLog; alerts: HubAlerts; book: ScheduleBook };

export class WindowRuns extends Room<WindowRooms> {
  readonly #runs: WindowRunsTable;

  constructor(hub: HubContext, rooms: WindowRooms) {
    super(hub, rooms);
    this.#runs = new WindowRunsTable(hub.ctx.storage.sql);
  }

  /** The run of schedule `scheduleId` under way, if any. */
  runOf(scheduleId: number): WindowRunRow | null {
    return this.#runs.get(scheduleId);
  }

  /** When a run must next be looked at with no event to wake it, if ever. */
  nextWake(): number | null {
    return this.#runs.nextWake();
  }

  /** The schedule `scheduleId` is gone or changed: its run under way ends (a switch-off it owes stays). */
  forget(scheduleId: number): void {
    this.#runs.delete(scheduleId);
  }

  /** Only the runs of schedules still kept (`scheduleIds`) go on. */
  keepOnly(scheduleIds: number[]): void {
    this.#runs.deleteAllBut(scheduleIds);
  }

  /**
   * The schedule's window opened at `opensAt` and its run `runKey` is claimed (schedules.ts):
   * the run waits for supply from now until the window closes.
   */
  async open(schedule: ScheduleRow, opensAt: number, runKey: string): Promise<void> {
    const closesAt = opensAt + windowLengthMinutes(schedule.minuteOfDay, schedule.windowEnd ?? 0) * 60_000;
    const run: WindowRunRow = {
      scheduleId: schedule.id,
      runKey,
      opensAt,
      closesAt,
      runMs: (schedule.durationMinutes ?? 0) * 60_000,
      ranMs: 0,
      phase: "waiting",
      startAt: null,
      runningSince: null,
      wakeAt: closesAt,
      resume: schedule.resume,
      randomDelay: schedule.randomDelay,
    };
    if (Date.now() >= closesAt) {
      // The hub could not look while the window was open (an outage, a deploy).
      await this.#end(run, schedule, 0, "late");
      return;
    }
    if (!this.#runs.open(run)) return;
    await this.reconcile();
  }

  /** Takes every run under way one step further. Safe to call any number of times, at once too. */
  async reconcile(): Promise<void> {
    if (!this.#runs.any()) return;
    for (const run of this.#runs.all()) {
      try {
        await this.#step(run);
      } catch (error) {
        this.hub.logError(`power window of schedule ${run.scheduleId} failed`, error);
      }
    }
    this.hub.timers.syncSchedules();
  }

  /**
   * The switch-off a run's start owed is due (its minutes are run, or its window closes): the
   * origin the switch-off is logged with, and the run now stopping; null when no run of this
   * schedule is running.
   */
  stopping(scheduleId: number, now: number): CommandOrigin | null {
    const run = this.#runs.get(scheduleId);
    if (!run || (run.phase !== "running" && run.phase !== "stopping")) return null;
    const ranMs = run.ranMs + (run.runningSince === null ? 0 : now - run.runningSince);
    if (run.phase === "running") this.#runs.move(scheduleId, "running", { ...run, phase: "stopping" });
    return {
      by: "powerWindowEnd",
      reason: ranMs >= run.runMs - 1_000 ? "complete" : "windowClosed",
      ranMinutes: minutesOf(Math.min(ranMs, run.runMs)),
      runMinutes: minutesOf(run.runMs),
    };
  }

  async #step(run: WindowRunRow): Promise<void> {
    const { state } = this.hub;
    const schedule = this.rooms.book.get(run.scheduleId);
    if (!schedule) {
      this.#runs.close(run.scheduleId, run.runKey);
      return;
    }
    const { online, supply, phaseFault, motor } = state.current;
    const now = Date.now();
    const step = windowStep(run, { online, supply, phaseFault, motor }, now, randomStartDelayMs);
    switch (step.do) {
      case "nothing":
        return;
      case "move":
        this.#runs.move(run.scheduleId, run.phase, step.to);
        // A delay drawn as 0 s starts at once.
        if (step.to.phase === "delaying") await this.#step(this.#runs.get(run.scheduleId)!);
        return;
      case "start":
        await this.#start(run, schedule, now);
        return;
      case "pause":
        if (
          !this.#runs.move(run.scheduleId, run.phase, {
            phase: "waiting",
            ranMs: step.ranMs,
            startAt: null,
            runningSince: null,
            wakeAt: run.closesAt,
          })
        )
          return;
        this.rooms.log.record("other", {
          kind: "powerWindowPaused",
          reason: step.reason,
          ranMinutes: minutesOf(step.ranMs),
          runMinutes: minutesOf(run.runMs),
          toMinute: schedule.windowEnd ?? 0,
        });
        return;
      case "end":
        await this.#end(run, schedule, step.ranMs, step.reason);
        return;
      default: {
        const unreachable: never = step;
        throw new Error(`unhandled window step ${JSON.stringify(unreachable)}`);
      }
    }
  }

  async #start(run: WindowRunRow, schedule: ScheduleRow, now: number): Promise<void> {
    // Claimed before the ON leaves: whatever else looks at the run meanwhile finds it starting.
    if (
      !this.#runs.move(run.scheduleId, run.phase, {
        phase: "starting",
        ranMs: run.ranMs,
        startAt: run.startAt,
        runningSince: null,
        wakeAt: now + STARTING_RECHECK_MS,
      })
    )
      return;
    const leftMs = run.runMs - run.ranMs;
    const offDueAt = Math.min(now + leftMs, run.closesAt);
    const result = await this.rooms.commands.sendSwitch({
      action: "on",
      origin: {
        by: "powerWindow",
        fromMinute: schedule.minuteOfDay,
        toMinute: schedule.windowEnd ?? 0,
        runMinutes: minutesOf(run.runMs),
        leftMinutes: Math.max(1, minutesOf(leftMs)),
      },
      scheduleRun: {
        scheduleId: run.scheduleId,
        runKey: run.runKey,
        offAfterMinutes: Math.max(1, Math.ceil((offDueAt - now) / 60_000)),
        offDueAt,
      },
    });
    if (result.ok) {
      this.#runs.move(run.scheduleId, "starting", {
        phase: "running",
        ranMs: run.ranMs,
        startAt: null,
        runningSince: this.hub.state.current.motor.since || Date.now(),
        wakeAt: null,
      });
      return;
    }
    switch (result.code) {
      // Not now: the run waits for the next change (supply back, the box back) or the cooldown's end.
      case "offline":
      case "noSupply":
      case "phaseFault":
      case "cooldown":
      case "busy":
        this.#runs.move(run.scheduleId, "starting", {
          phase: "waiting",
          ranMs: run.ranMs,
          startAt: null,
          runningSince: null,
          wakeAt: result.retryAfterMs ? Date.now() + result.retryAfterMs + 250 : run.closesAt,
        });
        return;
      default: {
        // The box said no (a supply out of its voltage limits among its reasons), or nothing
        // settled what it did (the motor may be running: the switch-off owed from the ON
        // stays). Never tried again by itself: a box refusing every few seconds helps no one.
        const { code } = commandFailure(result);
        const reason: WindowRunEnd =
          code === "timeout" ||
          code === "linkLost" ||
          code === "underVoltage" ||
          code === "overVoltage" ||
          code === "voltageUnbalance"
            ? code
            : "rejected";
        await this.#end({ ...run, phase: "starting" }, schedule, run.ranMs, reason);
      }
    }
  }

  async #end(run: WindowRunRow, schedule: ScheduleRow, ranMs: number, reason: WindowRunEnd): Promise<void> {
    // A run opened too late was never stored; any other ends once.
    if (reason !== "late" && !this.#runs.close(run.scheduleId, run.runKey)) return;
    const outcome = OUTCOMES[reason];
    const ranMinutes = minutesOf(Math.min(ranMs, run.runMs));
    this.rooms.book.recordOutcome(
      run.scheduleId,
      run.runKey,
      outcome,
      reason === "complete" ? null : reason,
      null,
      ranMinutes,
    );
    // A run the hub stopped itself was logged with that switch-off (its origin says why).
    if (run.phase !== "stopping" && reason !== "complete") {
      const event: MotorLogEvent = {
        kind: "powerWindowEnded",
        reason,
        ranMinutes,
        runMinutes: minutesOf(run.runMs),
        fromMinute: schedule.minuteOfDay,
        toMinute: schedule.windowEnd ?? 0,
      };
      this.rooms.log.record("other", event);
    }
    this.rooms.alerts.raise({
      kind: "schedule",
      outcome,
      action: "on",
      minuteOfDay: schedule.minuteOfDay,
      reason: reason === "complete" ? null : reason,
    });
  }
}

/** 0–120 s, so that a village's pumps do not all start on the same second when supply returns. */
function randomStartDelayMs(): number {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return Math.floor(((value ?? 0) / 2 ** 32) * (MAX_WINDOW_START_DELAY_SECONDS * 1000 + 1));
}
