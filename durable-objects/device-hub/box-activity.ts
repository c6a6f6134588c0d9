// The box's row of `box_activity` in D1: what the admin's fleet-wide figures count of it (runs
// today, trips today, a phase fault now, theft alerts this week, the size of its log), kept by
// the hub as its log is written, so the dashboard never counts over anyone's history
// (docs/decisions/045-history-lives-with-its-box.md).
//
// A change the dashboard shows (the day's first switch, a trip, a phase fault or its end, a theft
// alert) is copied within the environment's DASHBOARD_COPY_WITHIN_SECONDS (10 minutes deployed, at
// once locally); the count of entries alone within six times that (the hour; at once locally).
// Each at a random moment of its window: at the 6 a.m. minute a third of a fleet switches in the
// same second, and their copies, all at once, would be that many writes on the one database in
// that second; spread over minutes they are a small share of it, and no switch waits for them.
// A copy D1 refuses is tried again a minute later. Each copy writes the whole row as the hub
// knows it: a copy repeated is the same write.
import { sql } from "drizzle-orm";
import { THEFT_ALERTS_KEPT, THEFT_ALERTS_WINDOW_MS, THEFT_KINDS, TRIP_KINDS } from "../../common/box-activity.ts";
import { istDay } from "../../common/pump-usage.ts";
import { z } from "../../common/zod.ts";
import { getDb } from "../../worker/db/client.ts";
import type { HubContext } from "./context.ts";
import { TIMERS } from "./timers.ts";

/** How long a change the dashboard shows waits for its copy, at most, where the environment does not say. */
const ACTIVITY_NEWS_WITHIN_MS = 10 * 60_000;
const newsWithinSchema = z.coerce.number().int().min(0).max(3600);

/** The environment's `DASHBOARD_COPY_WITHIN_SECONDS` (wrangler.toml), in ms. */
function newsWithinMs(env: Partial<Pick<Env, "DASHBOARD_COPY_WITHIN_SECONDS">>): number {
  const parsed = newsWithinSchema.safeParse(env.DASHBOARD_COPY_WITHIN_SECONDS);
  return parsed.success ? parsed.data * 1000 : ACTIVITY_NEWS_WITHIN_MS;
}
/**
 * A change only of the entries' count waits this many times the news's window (within the hour
 * where news waits 10 minutes; at once where news does), at least half of it.
 */
const COUNT_WINDOWS_PER_NEWS_WINDOW = 6;
/** D1 refused a copy: the next try. */
const ACTIVITY_RETRY_MS = 60_000;
/**
 * Without a window, how long after its step a copy starts: not in the step, whose answer would
 * wait behind it at the output gate (and, locally, behind D1 on the same thread).
 */
const ACTIVITY_COPY_AFTER_MS = 5;

type Activity = {
  lastSwitchAt: number | null;
  lastTripAt: number | null;
  phaseFault: boolean | null;
  theftAlerts: number[];
};

const ACTIVITY_KEY = "boxActivity";

export class BoxActivity {
  readonly #hub: HubContext;
  readonly #countEntries: () => number;
  /** A copy right after the current step is planned (no window). */
  #copyPlanned = false;

  constructor(hub: HubContext, countEntries: () => number) {
    this.#hub = hub;
    this.#countEntries = countEntries;
  }

  #current(): Activity {
    return (
      this.#hub.ctx.storage.kv.get<Activity>(ACTIVITY_KEY) ?? {
        lastSwitchAt: null,
        lastTripAt: null,
        phaseFault: null,
        theftAlerts: [],
      }
    );
  }

  /** A log entry was written at `at`: what it changes of the box's row, copied soon or within the hour. */
  noted(action: "on" | "off" | "other", kind: string, at: number): void {
    const before = this.#current();
    const after = { ...before };
    let urgent = false;
    if (action === "on" || action === "off") {
      urgent ||= before.lastSwitchAt === null || istDay(before.lastSwitchAt) !== istDay(at);
      after.lastSwitchAt = at;
    }
    if (TRIP_KINDS.includes(kind)) {
      after.lastTripAt = at;
      urgent = true;
    }
    if (kind === "phaseFault" || kind === "phaseOk") {
      after.phaseFault = kind === "phaseFault";
      urgent ||= after.phaseFault !== before.phaseFault;
    }
    if (THEFT_KINDS.includes(kind)) {
      after.theftAlerts = [at, ...before.theftAlerts.filter((t) => t > at - THEFT_ALERTS_WINDOW_MS)].slice(
        0,
        THEFT_ALERTS_KEPT,
      );
      urgent = true;
    }
    this.#hub.ctx.storage.kv.put(ACTIVITY_KEY, after);
    if (urgent) this.#copyWithin(at, 0, newsWithinMs(this.#hub.env));
    else {
      const within = newsWithinMs(this.#hub.env) * COUNT_WINDOWS_PER_NEWS_WINDOW;
      this.#copyWithin(at, within / 2, within);
    }
  }

  /** Rows moved in from D1: only their count changes (the migration carried the rest over). */
  imported(): void {
    this.#copyWithin(Date.now(), 0, newsWithinMs(this.#hub.env));
  }

  /** Sets the copy's timer at a random moment between `from` and `to` after `at`, unless it is due sooner. */
  #copyWithin(at: number, from: number, to: number): void {
    // No window (local mode): right after the step, as soon as its answer has left; a copy D1
    // refuses sets the timer.
    if (to === 0) {
      this.#copySoon();
      return;
    }
    const { timers } = this.#hub;
    const dueAt = at + from + Math.floor(Math.random() * (to - from));
    const planned = timers.dueAt(TIMERS.activityCopy);
    if (planned === null || planned > dueAt) timers.set(TIMERS.activityCopy, dueAt);
  }

  #copySoon(): void {
    if (this.#copyPlanned) return;
    this.#copyPlanned = true;
    setTimeout(() => {
      this.#copyPlanned = false;
      void this.copy();
    }, ACTIVITY_COPY_AFTER_MS);
  }

  /** Writes the row as the hub knows it; a refusal sets the timer to try again. */
  async copy(): Promise<void> {
    const { deviceId, env, timers } = this.#hub;
    const activity = this.#current();
    const now = Date.now();
    const row = {
      logEntries: this.#countEntries(),
      lastSwitchAt: activity.lastSwitchAt,
      lastTripAt: activity.lastTripAt,
      phaseFault: activity.phaseFault === true ? 1 : 0,
      theftAlerts: JSON.stringify(activity.theftAlerts),
      updatedAt: now,
    };
    try {
      // Only for a box D1 knows (a hub of a test or of the health check has none). What this hub
      // has not seen yet (it started after the row was carried over from D1's log) keeps what
      // the row had.
      await getDb(env.DB).run(sql`
        INSERT INTO box_activity (device_id, log_entries, last_switch_at, last_trip_at, phase_fault, theft_alerts, updated_at)
        SELECT id, ${row.logEntries}, ${row.lastSwitchAt}, ${row.lastTripAt}, ${row.phaseFault}, ${row.theftAlerts}, ${row.updatedAt}
        FROM devices WHERE id = ${deviceId}
        ON CONFLICT (device_id) DO UPDATE SET
          log_entries = excluded.log_entries,
          last_switch_at = coalesce(excluded.last_switch_at, box_activity.last_switch_at),
          last_trip_at = coalesce(excluded.last_trip_at, box_activity.last_trip_at),
          phase_fault = ${activity.phaseFault === null ? sql`box_activity.phase_fault` : sql`excluded.phase_fault`},
          theft_alerts = CASE WHEN excluded.theft_alerts = '[]' THEN box_activity.theft_alerts ELSE excluded.theft_alerts END,
          updated_at = excluded.updated_at`);
    } catch (error) {
      this.#hub.logError("D1 box activity copy failed, will retry", error);
      timers.set(TIMERS.activityCopy, now + ACTIVITY_RETRY_MS);
    }
  }
}
