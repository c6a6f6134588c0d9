// One alarm per Durable Object, multiplexed over named timers kept in the hub's SQLite: the
// alarm is always set for the earliest of them. Alarms are at-least-once (one may be delivered
// twice, even while the first run is still going), so each timer's handler must be safe to run
// twice; the hub's alarm() hands each due one to its room.
import { TimersTable } from "./timers-table.ts";

export const TIMERS = {
  /** The box must have been heard from by then (device-link.ts). */
  liveness: "liveness",
  /** Set by hubs that wrote their log to D1, to retry it; nothing is waiting any more (alarm.ts drops it). */
  flushLogs: "flush-logs",
  /** A firmware update not finished by then has failed (ota.ts). */
  otaTimeout: "ota-timeout",
  /** Debug mode ends by itself (settings.ts). */
  debugOff: "debug-off",
  /** Power samples older than a week go (power-history.ts). */
  prunePower: "prune-power",
  /** Only a wake-up: the schedules table says what is due (schedules.ts). */
  schedules: "schedules",
  /** The earliest session behind a browser socket runs out (browsers.ts). */
  sessionExpiry: "session-expiry",
  /** A supply cut while the motor ran is compared with the feeder's boxes (theft.ts). */
  supplyCut: "supply-cut",
  /** The box's row of the dashboard's figures is copied to D1 (box-activity.ts). */
  activityCopy: "activity-copy",
  /** A box gone while the motor ran is alerted once its grace is over (offline-alert.ts). */
  offlineAlert: "offline-alert",
} as const;

export type TimerName = (typeof TIMERS)[keyof typeof TIMERS];

/** Whether a stored timer's name is one this hub knows (an older hub may have left others). */
export function isTimerName(name: string): name is TimerName {
  return (Object.values(TIMERS) as string[]).includes(name);
}

export class HubTimers {
  readonly #storage: DurableObjectStorage;
  readonly #table: TimersTable;
  /** When the schedules next want the hub awake (rooms.ts says who answers); unknown until the rooms are wired. */
  #nextScheduleDue: (() => number | null) | null = null;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
    this.#table = new TimersTable(storage.sql);
  }

  set(name: TimerName, dueAt: number): void {
    this.#table.set(name, dueAt);
    this.syncAlarm();
  }

  delete(name: TimerName): void {
    this.#table.delete(name);
    this.syncAlarm();
  }

  dueAt(name: TimerName): number | null {
    return this.#table.dueAt(name);
  }

  has(name: TimerName): boolean {
    return this.#table.has(name);
  }

  /** Removes and returns the timers due by `now`, earliest first. */
  takeDue(now: number): string[] {
    return this.#table.takeDue(now);
  }

  /** Points the alarm at the earliest timer, or clears it when there is none. */
  syncAlarm(): void {
    const next = this.#table.nextDue();
    if (next === null) void this.#storage.deleteAlarm();
    else void this.#storage.setAlarm(next);
  }

  /** Who says when the next schedule run, owed switch-off or power-window look is due. */
  followSchedules(nextDue: () => number | null): void {
    this.#nextScheduleDue = nextDue;
  }

  /** Schedules are the truth, their wake-up timer only a copy: it follows the earliest one due. */
  syncSchedules(): void {
    if (!this.#nextScheduleDue) throw new Error("the schedules' wake-up is synced before the rooms are wired");
    const due = this.#nextScheduleDue();
    if (due === this.#table.dueAt(TIMERS.schedules)) return;
    if (due === null) this.delete(TIMERS.schedules);
    else this.set(TIMERS.schedules, due);
  }
}
