// The rule of a power-window run (docs/decisions/020-power-window-runs.md) as a plain function:
// from the run as stored, what the hub knows and the time, the step the run takes now. The room
// that carries the steps out is window-runs.ts.
import { DEVICE_ACK_TIMEOUT_MS } from "../../common/constants.ts";
import type { ScheduleOutcome } from "../../common/schedule-view.ts";
import type { HubState } from "./state.ts";
import type { WindowRunRow } from "./window-runs-table.ts";

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

export const OUTCOMES: Record<WindowRunEnd, ScheduleOutcome> = {
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
export const STARTING_RECHECK_MS = DEVICE_ACK_TIMEOUT_MS + 5_000;

export const minutesOf = (ms: number) => Math.round(ms / 60_000);

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
