// One alarm per Durable Object, multiplexed over named timers kept in the hub's SQLite: the
// alarm is always set for the earliest of them. Alarms are at-least-once (one may be delivered
// twice, even while the first run is still going), so each timer's handler must be safe to run
// twice; the hub's alarm() hands each due one to its room.
import type { HubSql } from "./sql.ts";

export const TIMERS = {
  /** The box must have been heard from by then (device-link.ts). */
  liveness: "liveness",
  /** Motor logs D1 refused are tried again (motor-log.ts). */
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
} as const;

export type TimerName = (typeof TIMERS)[keyof typeof TIMERS];

/** Whether a stored timer's name is one this hub knows (an older hub may have left others). */
export function isTimerName(name: string): name is TimerName {
  return (Object.values(TIMERS) as string[]).includes(name);
}

export class HubTimers {
  readonly #storage: DurableObjectStorage;
  readonly #sql: HubSql;

  constructor(storage: DurableObjectStorage, sql: HubSql) {
    this.#storage = storage;
    this.#sql = sql;
  }

  set(name: TimerName, dueAt: number): void {
    this.#sql.setTimer(name, dueAt);
    this.syncAlarm();
  }

  delete(name: TimerName): void {
    this.#sql.deleteTimer(name);
    this.syncAlarm();
  }

  dueAt(name: TimerName): number | null {
    return this.#sql.timerDue(name);
  }

  has(name: TimerName): boolean {
    return this.#sql.hasTimer(name);
  }

  /** Removes and returns the timers due by `now`, earliest first. */
  takeDue(now: number): string[] {
    return this.#sql.takeDueTimers(now);
  }

  /** Points the alarm at the earliest timer, or clears it when there is none. */
  syncAlarm(): void {
    const next = this.#sql.nextTimerDue();
    if (next === null) void this.#storage.deleteAlarm();
    else void this.#storage.setAlarm(next);
  }

  /** Schedules are the truth, their wake-up timer only a copy: it follows the earliest one due. */
  syncSchedules(): void {
    const due = this.#sql.nextScheduleDue();
    if (due === this.#sql.timerDue(TIMERS.schedules)) return;
    if (due === null) this.delete(TIMERS.schedules);
    else this.set(TIMERS.schedules, due);
  }
}
