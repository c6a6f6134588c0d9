// The hub's named timers (`timers`), the table one alarm serves; only HubTimers (timers.ts) reads it.
export class TimersTable {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  set(name: string, dueAt: number): void {
    this.#sql.exec(
      "INSERT INTO timers (name, due_at) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET due_at = excluded.due_at",
      name,
      dueAt,
    );
  }

  delete(name: string): void {
    this.#sql.exec("DELETE FROM timers WHERE name = ?", name);
  }

  dueAt(name: string): number | null {
    return (
      this.#sql.exec<{ due_at: number }>("SELECT due_at FROM timers WHERE name = ?", name).toArray()[0]?.due_at ?? null
    );
  }

  has(name: string): boolean {
    return this.#sql.exec("SELECT 1 FROM timers WHERE name = ?", name).toArray().length > 0;
  }

  nextDue(): number | null {
    return this.#sql.exec<{ due: number | null }>("SELECT MIN(due_at) AS due FROM timers").one().due;
  }

  /** Removes and returns the timers due by `now`, earliest first. */
  takeDue(now: number): string[] {
    const due = this.#sql
      .exec<{ name: string }>("SELECT name FROM timers WHERE due_at <= ? ORDER BY due_at", now)
      .toArray()
      .map((row) => row.name);
    this.#sql.exec("DELETE FROM timers WHERE due_at <= ?", now);
    return due;
  }
}
