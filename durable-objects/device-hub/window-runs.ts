// Power-window runs (docs/decisions/020-power-window-runs.md): "run N minutes as soon as supply
// is present between 22:00 and 06:00". A run is opened by its schedule at the window's opening
// (schedules.ts) and kept in the hub's SQLite (`window_runs`) until it is complete or over. Its
// next step is decided again from what the hub knows each time anything could change it: every
// frame from the box, the run's own wake-up, a switch-off it owed. Each step is claimed in
// SQLite before it acts, so an alarm delivered twice, a frame and an alarm at once, or a hub
// restarted mid-run never start the motor twice; the switch-off a start owes is recorded when
// the ON leaves (commands.ts), so a run whose hub is gone still stops on time.
import { DEVICE_ACK_TIMEOUT_MS } from "../../common/constants.ts";
import type { CommandOrigin, MotorLogEvent } from "../../common/motor-log-event.ts";
import { windowLengthMinutes } from "../../common/schedule-time.ts";
import { MAX_WINDOW_START_DELAY_SECONDS, type ScheduleOutcome } from "../../common/schedule-view.ts";
import type { HubAlerts } from "./alerts.ts";
import type { MotorCommands } from "./commands.ts";
import type { MotorLog } from "./motor-log.ts";
import { commandFailure } from "./pump-model.ts";
import { Room } from "./room.ts";
import type { ScheduleRow, WindowRunRow } from "./sql.ts";
import type { HubState } from "./state.ts";

/** How a run ends: `complete`, or short of its minutes (and why), or never begun. */
export type WindowRunEnd =
  | "complete"
  | "windowClosed"
  | "noSupply"
  | "powerCut"
  | "phaseFault"
  | "stopped"
  | "late"
  | "timeout"
  | "linkLost"
  | "rejected"
  | "underVoltage"
  | "overVoltage"
  | "voltageUnbalance";

const OUTCOMES: Record<WindowRunEnd, ScheduleOutcome> = {
  complete: "done",
  noSupply: "missed",
  late: "missed",
  windowClosed: "failed",
  powerCut: "failed",
  phaseFault: "failed",
  stopped: "failed",
  timeout: "failed",
  linkLost: "failed",
  rejected: "failed",
  underVoltage: "failed",
  overVoltage: "failed",
  voltageUnbalance: "failed",
};

/** A run stuck in `starting` (its hub restarted while the box was asked) is looked at again after this. */
const STARTING_RECHECK_MS = DEVICE_ACK_TIMEOUT_MS + 5_000;

const minutesOf = (ms: number) => Math.round(ms / 60_000);

/** What a run's next step depends on, from the hub's state. */
export type WindowFacts = {
  online: boolean;
  supply: boolean;
  phaseFault: boolean;
  motor: HubState["motor"];
};

/** The step a run takes now: nothing, a state to move to, a start, a pause or an end. */
export type WindowStep =
  | { do: "nothing" }
  | { do: "move"; to: Pick<WindowRunRow, "phase" | "ranMs" | "startAt" | "runningSince" | "wakeAt"> }
  | { do: "start" }
  | { do: "pause"; ranMs: number; reason: "powerCut" | "phaseFault" }
  | { do: "end"; ranMs: number; reason: WindowRunEnd };

/**
 * The rule of a run, as a plain function of the run, what the hub knows and the time. It only
 * ever starts the motor inside the window, with supply present and no phase fault, before the
 * run is complete; and it never starts it again after anything but a power or phase cut.
 */
export function windowStep(run: WindowRunRow, facts: WindowFacts, now: number, delayMs: () => number): WindowStep {
  const ready = facts.online && facts.supply && !facts.phaseFault;
  const stay = (changes: Partial<WindowRunRow>): WindowStep => ({
    do: "move",
    to: {
      phase: run.phase,
      ranMs: run.ranMs,
      startAt: run.startAt,
      runningSince: run.runningSince,
      wakeAt: run.wakeAt,
      ...changes,
    },
  });
  switch (run.phase) {
    case "waiting":
    case "delaying": {
      if (now >= run.closesAt)
        return { do: "end", ranMs: run.ranMs, reason: run.ranMs > 0 ? "windowClosed" : "noSupply" };
      if (!ready) {
        if (run.phase === "waiting" && run.wakeAt === run.closesAt) return { do: "nothing" };
        return stay({ phase: "waiting", startAt: null, wakeAt: run.closesAt });
      }
      if (run.phase === "waiting" && run.randomDelay) {
        const startAt = now + delayMs();
        return stay({ phase: "delaying", startAt, wakeAt: Math.min(startAt, run.closesAt) });
      }
      if (run.phase === "delaying" && run.startAt !== null && now < run.startAt) return { do: "nothing" };
      return { do: "start" };
    }
    case "starting":
      // The start's own continuation settles it; only a hub that restarted meanwhile leaves it here.
      if (run.wakeAt !== null && now < run.wakeAt) return { do: "nothing" };
      if (facts.motor.status === "on") return stay({ phase: "running", runningSince: facts.motor.since, wakeAt: null });
      return stay({ phase: "waiting", startAt: null, wakeAt: run.closesAt });
    case "running":
    case "stopping": {
      // `unknown` may be running: the switch-off the start owes stays until it is settled.
      if (facts.motor.status !== "off") return { do: "nothing" };
      const stoppedAt = Math.max(facts.motor.since, run.runningSince ?? facts.motor.since);
      const ranMs = run.ranMs + (stoppedAt - (run.runningSince ?? stoppedAt));
      if (run.phase === "stopping")
        return { do: "end", ranMs, reason: ranMs >= run.runMs - 1_000 ? "complete" : "windowClosed" };
      const cut = !facts.supply ? "powerCut" : facts.phaseFault ? "phaseFault" : null;
      if (cut === null) return { do: "end", ranMs, reason: "stopped" };
      if (run.resume && ranMs < run.runMs && now < run.closesAt) return { do: "pause", ranMs, reason: cut };
      return { do: "end", ranMs, reason: cut };
    }
    default: {
      const unreachable: never = run.phase;
      throw new Error(`unhandled window phase ${String(unreachable)}`);
    }
  }
}

export type WindowRooms = { commands: MotorCommands; log: MotorLog; alerts: HubAlerts };

export class WindowRuns extends Room<WindowRooms> {
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
    if (!this.hub.sql.openWindowRun(run)) return;
    await this.reconcile();
  }

  /** Takes every run under way one step further. Safe to call any number of times, at once too. */
  async reconcile(): Promise<void> {
    const { sql, timers } = this.hub;
    if (!sql.hasWindowRuns()) return;
    for (const run of sql.windowRuns()) {
      try {
        await this.#step(run);
      } catch (error) {
        this.hub.logError(`power window of schedule ${run.scheduleId} failed`, error);
      }
    }
    timers.syncSchedules();
  }

  /**
   * The switch-off a run's start owed is due (its minutes are run, or its window closes): the
   * origin the switch-off is logged with, and the run now stopping; null when no run of this
   * schedule is running.
   */
  stopping(scheduleId: number, now: number): CommandOrigin | null {
    const { sql } = this.hub;
    const run = sql.windowRun(scheduleId);
    if (!run || (run.phase !== "running" && run.phase !== "stopping")) return null;
    const ranMs = run.ranMs + (run.runningSince === null ? 0 : now - run.runningSince);
    if (run.phase === "running") sql.moveWindowRun(scheduleId, "running", { ...run, phase: "stopping" });
    return {
      by: "powerWindowEnd",
      reason: ranMs >= run.runMs - 1_000 ? "complete" : "windowClosed",
      ranMinutes: minutesOf(Math.min(ranMs, run.runMs)),
      runMinutes: minutesOf(run.runMs),
    };
  }

  async #step(run: WindowRunRow): Promise<void> {
    const { sql, state } = this.hub;
    const schedule = sql.schedule(run.scheduleId);
    if (!schedule) {
      sql.closeWindowRun(run.scheduleId, run.runKey);
      return;
    }
    const { online, supply, phaseFault, motor } = state.current;
    const now = Date.now();
    const step = windowStep(run, { online, supply, phaseFault, motor }, now, randomStartDelayMs);
    switch (step.do) {
      case "nothing":
        return;
      case "move":
        sql.moveWindowRun(run.scheduleId, run.phase, step.to);
        // A delay drawn as 0 s starts at once.
        if (step.to.phase === "delaying") await this.#step(sql.windowRun(run.scheduleId)!);
        return;
      case "start":
        await this.#start(run, schedule, now);
        return;
      case "pause":
        if (
          !sql.moveWindowRun(run.scheduleId, run.phase, {
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
    const { sql } = this.hub;
    // Claimed before the ON leaves: whatever else looks at the run meanwhile finds it starting.
    if (
      !sql.moveWindowRun(run.scheduleId, run.phase, {
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
    const result = await this.rooms.commands.switchMotor({
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
      sql.moveWindowRun(run.scheduleId, "starting", {
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
        sql.moveWindowRun(run.scheduleId, "starting", {
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
    const { sql } = this.hub;
    // A run opened too late was never stored; any other ends once.
    if (reason !== "late" && !sql.closeWindowRun(run.scheduleId, run.runKey)) return;
    const outcome = OUTCOMES[reason];
    const ranMinutes = minutesOf(Math.min(ranMs, run.runMs));
    sql.recordScheduleOutcome(
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
