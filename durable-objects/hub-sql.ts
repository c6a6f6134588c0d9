// The DeviceHub's own SQLite tables. Everything here survives hibernation, eviction and
// restarts; the class keeps only caches in memory.

/** Power history keeps one sample a minute while the motor runs, for this long. */
export const POWER_HISTORY_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
export const POWER_SAMPLE_INTERVAL_MS = 60_000;
/** The admin debug console shows this many recent lines (SPEC §9). */
export const DEBUG_LINE_LIMIT = 200;

export type PowerSample = { id: number; current: number; wattage: number; timestamp: string };

export class HubSql {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    sql.exec(`
      CREATE TABLE IF NOT EXISTS timers (name TEXT PRIMARY KEY, due_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS log_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, row TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS power_samples (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        current REAL NOT NULL,
        wattage REAL NOT NULL
      );
      CREATE INDEX IF NOT EXISTS power_samples_at ON power_samples (at);
      CREATE TABLE IF NOT EXISTS debug_lines (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, line TEXT NOT NULL);
    `);
  }

  // ---- timers: one alarm, many named deadlines ------------------------------------------

  setTimer(name: string, dueAt: number): void {
    this.sql.exec(
      "INSERT INTO timers (name, due_at) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET due_at = excluded.due_at",
      name,
      dueAt,
    );
  }

  deleteTimer(name: string): void {
    this.sql.exec("DELETE FROM timers WHERE name = ?", name);
  }

  hasTimer(name: string): boolean {
    return this.sql.exec("SELECT 1 FROM timers WHERE name = ?", name).toArray().length > 0;
  }

  nextTimerDue(): number | null {
    return this.sql.exec<{ due: number | null }>("SELECT MIN(due_at) AS due FROM timers").one().due;
  }

  /** Removes and returns the timers due by `now`, earliest first. */
  takeDueTimers(now: number): string[] {
    const due = this.sql
      .exec<{ name: string }>("SELECT name FROM timers WHERE due_at <= ? ORDER BY due_at", now)
      .toArray()
      .map((row) => row.name);
    this.sql.exec("DELETE FROM timers WHERE due_at <= ?", now);
    return due;
  }

  // ---- motor log outbox -------------------------------------------------------------------

  addToOutbox(row: unknown): number {
    return this.sql
      .exec<{ id: number }>("INSERT INTO log_outbox (row) VALUES (?) RETURNING id", JSON.stringify(row))
      .one().id;
  }

  removeFromOutbox(id: number): void {
    this.sql.exec("DELETE FROM log_outbox WHERE id = ?", id);
  }

  outbox<Row>(): { id: number; row: Row }[] {
    return this.sql
      .exec<{ id: number; row: string }>("SELECT id, row FROM log_outbox ORDER BY id")
      .toArray()
      .map(({ id, row }) => ({ id, row: JSON.parse(row) as Row }));
  }

  // ---- power history ----------------------------------------------------------------------

  /** Stores a reading if the last sample is older than the sampling interval (or `force`). */
  samplePower(at: number, current: number, wattage: number, force = false): void {
    const last = this.sql
      .exec<{ at: number | null }>("SELECT MAX(at) AS at FROM power_samples")
      .one().at;
    if (!force && last !== null && at - last < POWER_SAMPLE_INTERVAL_MS) return;
    this.sql.exec("INSERT INTO power_samples (at, current, wattage) VALUES (?, ?, ?)", at, current, wattage);
  }

  prunePowerHistory(now: number): void {
    this.sql.exec("DELETE FROM power_samples WHERE at < ?", now - POWER_HISTORY_RETENTION_MS);
  }

  powerHistory(limit: number): PowerSample[] {
    return this.sql
      .exec<{ id: number; at: number; current: number; wattage: number }>(
        "SELECT id, at, current, wattage FROM power_samples ORDER BY at DESC, id DESC LIMIT ?",
        limit,
      )
      .toArray()
      .map((row) => ({
        id: row.id,
        current: row.current,
        wattage: row.wattage,
        timestamp: new Date(row.at).toISOString(),
      }));
  }

  // ---- debug lines --------------------------------------------------------------------------

  addDebugLine(at: number, line: string): void {
    this.sql.exec("INSERT INTO debug_lines (at, line) VALUES (?, ?)", at, line);
    this.sql.exec(
      "DELETE FROM debug_lines WHERE id <= (SELECT MAX(id) FROM debug_lines) - ?",
      DEBUG_LINE_LIMIT,
    );
  }

  debugLines(): { at: number; line: string }[] {
    return this.sql
      .exec<{ at: number; line: string }>("SELECT at, line FROM debug_lines ORDER BY id")
      .toArray();
  }
}
