// Power-window runs under way (`window_runs`), one per schedule; only the power windows' room
// (window-runs.ts) reads it. Every change is a claim: it says whether this call made it.

/**
 * A power window's run under way: one per schedule, from the window's opening until the run is
 * complete or over. Times in ms.
 */
export type WindowRunRow = {
  scheduleId: number;
  runKey: string;
  opensAt: number;
  closesAt: number;
  runMs: number;
  /** Confirmed running time before `runningSince`. */
  ranMs: number;
  phase: "waiting" | "delaying" | "starting" | "running" | "stopping";
  /** `delaying`: when the random delay ends. */
  startAt: number | null;
  /** `running`/`stopping`: when the box confirmed ON. */
  runningSince: number | null;
  /** When the hub must look at the run again with no event to wake it. */
  wakeAt: number | null;
  resume: boolean;
  randomDelay: boolean;
};

const COLUMNS = `schedule_id AS scheduleId, run_key AS runKey, opens_at AS opensAt, closes_at AS closesAt,
  run_ms AS runMs, ran_ms AS ranMs, phase, start_at AS startAt, running_since AS runningSince, wake_at AS wakeAt,
  resume, random_delay AS randomDelay`;

/** SQLite keeps booleans as 0 and 1. */
type StoredWindowRun = Omit<WindowRunRow, "randomDelay" | "resume"> & { randomDelay: number; resume: number };

function rowOf(row: StoredWindowRun): WindowRunRow {
  return { ...row, randomDelay: row.randomDelay === 1, resume: row.resume === 1 };
}

export class WindowRunsTable {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  get(scheduleId: number): WindowRunRow | null {
    const row = this.#sql
      .exec<StoredWindowRun>(`SELECT ${COLUMNS} FROM window_runs WHERE schedule_id = ?`, scheduleId)
      .toArray()[0];
    return row ? rowOf(row) : null;
  }

  all(): WindowRunRow[] {
    return this.#sql.exec<StoredWindowRun>(`SELECT ${COLUMNS} FROM window_runs ORDER BY opens_at`).toArray().map(rowOf);
  }

  any(): boolean {
    return this.#sql.exec("SELECT 1 FROM window_runs LIMIT 1").toArray().length > 0;
  }

  /** When the hub must next look at a run, if ever. */
  nextWake(): number | null {
    return this.#sql.exec<{ due: number | null }>("SELECT MIN(wake_at) AS due FROM window_runs").one().due;
  }

  /** Opens a run, unless this schedule's run `runKey` is already open (an alarm delivered twice). */
  open(run: WindowRunRow): boolean {
    return (
      this.#sql.exec(
        `INSERT INTO window_runs (schedule_id, run_key, opens_at, closes_at, run_ms, ran_ms, phase, start_at,
           running_since, wake_at, resume, random_delay)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(schedule_id) DO UPDATE SET run_key = excluded.run_key, opens_at = excluded.opens_at,
           closes_at = excluded.closes_at, run_ms = excluded.run_ms, ran_ms = excluded.ran_ms, phase = excluded.phase,
           start_at = excluded.start_at, running_since = excluded.running_since, wake_at = excluded.wake_at,
           resume = excluded.resume, random_delay = excluded.random_delay
         WHERE window_runs.run_key IS NOT excluded.run_key`,
        run.scheduleId,
        run.runKey,
        run.opensAt,
        run.closesAt,
        run.runMs,
        run.ranMs,
        run.phase,
        run.startAt,
        run.runningSince,
        run.wakeAt,
        run.resume ? 1 : 0,
        run.randomDelay ? 1 : 0,
      ).rowsWritten > 0
    );
  }

  /**
   * Moves a run from `from` to its next state; false when it was no longer in `from` (another
   * delivery of the same event moved it first).
   */
  move(
    scheduleId: number,
    from: WindowRunRow["phase"],
    next: Pick<WindowRunRow, "phase" | "ranMs" | "startAt" | "runningSince" | "wakeAt">,
  ): boolean {
    return (
      this.#sql.exec(
        `UPDATE window_runs SET phase = ?, ran_ms = ?, start_at = ?, running_since = ?, wake_at = ?
         WHERE schedule_id = ? AND phase = ?`,
        next.phase,
        next.ranMs,
        next.startAt,
        next.runningSince,
        next.wakeAt,
        scheduleId,
        from,
      ).rowsWritten > 0
    );
  }

  /** Ends a run; false when it had ended already. */
  close(scheduleId: number, runKey: string): boolean {
    return (
      this.#sql.exec("DELETE FROM window_runs WHERE schedule_id = ? AND run_key = ?", scheduleId, runKey).rowsWritten >
      0
    );
  }

  /** The run of a schedule that is gone, whatever its key. */
  delete(scheduleId: number): void {
    this.#sql.exec("DELETE FROM window_runs WHERE schedule_id = ?", scheduleId);
  }

  /** The runs of every schedule but `scheduleIds` (those that are gone). */
  deleteAllBut(scheduleIds: number[]): void {
    this.#sql.exec(
      "DELETE FROM window_runs WHERE schedule_id NOT IN (SELECT value FROM json_each(?))",
      JSON.stringify(scheduleIds),
    );
  }
}
