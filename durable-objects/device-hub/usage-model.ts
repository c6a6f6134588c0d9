// Run hours and energy as plain functions over the hub's belief (docs/decisions/019): what a
// moment of news credits to the per-day totals, and what is left open. No storage: usage.ts
// keeps the cursor and the days in SQLite and applies what these return.
import { UNWATCHED_POWER_INTERVAL_MS } from "../../common/constants.ts";
import type { MotorStatus } from "../../common/pump-state.ts";

/**
 * A reading stands for the motor's draw this long at most. A running box reports at least once
 * per heartbeat interval even unwatched (docs/device-protocol.md); a gap beyond that, plus slack
 * for a slow SIM link, is time the hub did not see, and credits no energy.
 */
export const READING_HOLDS_MS = UNWATCHED_POWER_INTERVAL_MS + 30_000;

/** A run the hub is counting: the motor has been ON since `beliefSince` by its belief. */
export type OpenRun = {
  /** The belief's `since` that this run follows; another `since` is another run. */
  beliefSince: number;
  /** Running time is credited up to here; null while the box is offline (nothing is credited). */
  countedTo: number | null;
  /** The last wattage reading of this run and when it came. */
  reading: { at: number; watts: number } | null;
  /** Energy is credited up to here. */
  energyTo: number;
};

export type UsageCursor = {
  /** The last status the hub vouched for (`unknown` changes nothing): an ON after an OFF is a start. */
  lastKnown: "on" | "off" | null;
  run: OpenRun | null;
};

/** What the hub believes now (state.ts). */
export type UsageView = {
  status: MotorStatus;
  since: number;
  online: boolean;
  /** The box's last frame: an offline box's run is counted up to here. */
  lastSeenAt: number | null;
};

export type UsageCredit =
  | { kind: "running"; from: number; to: number }
  | { kind: "energy"; from: number; to: number; watts: number }
  | { kind: "start"; at: number };

/**
 * The cursor after the hub's belief is `view` at `now`, and what to credit for the time since the
 * cursor. Idempotent: the same view at the same moment credits nothing the second time.
 * `cursor` null: this hub has never counted; nothing before now is credited.
 */
export function advanceUsage(
  cursor: UsageCursor | null,
  view: UsageView,
  now: number,
): { cursor: UsageCursor; credits: UsageCredit[] } {
  const credits: UsageCredit[] = [];
  const known = view.status === "unknown" ? (cursor?.lastKnown ?? null) : view.status;
  if (cursor === null) {
    const run = view.status === "on" ? openRun(view, now) : null;
    return { cursor: { lastKnown: known, run }, credits };
  }
  // Until when the hub could vouch for what it believes: an offline box was last seen then.
  const vouchedTo = view.online ? now : Math.max(view.lastSeenAt ?? 0, 0);
  let run = cursor.run;
  if (run && !(view.status === "on" && view.since === run.beliefSince)) {
    // The run ended when the belief changed (at `since`); a new ON we did not see end it ends where we last counted.
    const endedAt = view.status === "on" ? (run.countedTo ?? 0) : view.since;
    credit(run, Math.min(endedAt, vouchedTo), credits);
    run = null;
  }
  if (!run && view.status === "on") {
    if (cursor.lastKnown === "off") credits.push({ kind: "start", at: view.since });
    run = openRun(view, view.since);
  }
  if (run) run = follow(run, view.online, vouchedTo, now, credits);
  return { cursor: { lastKnown: known, run }, credits };
}

/** A wattage reading of the running motor at `now` (after advanceUsage to `now`): it stands from now on. */
export function withReading(cursor: UsageCursor, watts: number, now: number): UsageCursor {
  const run = cursor.run;
  if (!run || run.countedTo === null) return cursor;
  return { ...cursor, run: { ...run, reading: { at: now, watts }, energyTo: Math.max(run.energyTo, now) } };
}

function openRun(view: UsageView, from: number): OpenRun {
  return { beliefSince: view.since, countedTo: from, reading: null, energyTo: from };
}

/** A continuing run: counted up to `vouchedTo`; paused while the box is offline, resumed from `now` when it is back. */
function follow(run: OpenRun, online: boolean, vouchedTo: number, now: number, credits: UsageCredit[]): OpenRun {
  if (run.countedTo === null) return online ? { ...run, countedTo: now, energyTo: now, reading: null } : run;
  const to = Math.max(run.countedTo, vouchedTo);
  credit(run, to, credits);
  if (!online) return { ...run, countedTo: null, reading: null };
  const energyTo = run.reading ? Math.max(run.energyTo, Math.min(to, run.reading.at + READING_HOLDS_MS)) : run.energyTo;
  return { ...run, countedTo: to, energyTo };
}

/** Running time from where the run was counted to `to`; energy of its last reading, for as long as that reading holds. */
function credit(run: OpenRun, to: number, credits: UsageCredit[]): void {
  if (run.countedTo !== null && to > run.countedTo) credits.push({ kind: "running", from: run.countedTo, to });
  if (run.countedTo === null || !run.reading) return;
  const energyEnd = Math.min(to, run.reading.at + READING_HOLDS_MS);
  if (energyEnd > run.energyTo)
    credits.push({ kind: "energy", from: run.energyTo, to: energyEnd, watts: run.reading.watts });
}
