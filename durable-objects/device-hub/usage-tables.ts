// Run hours and energy per IST day (`usage_days`) and the one cursor of what is counted so far
// (`usage_cursor`); only the usage room (usage.ts) reads them.

/** One IST day's totals, or what to add to them. */
export type UsageRow = { runningMs: number; starts: number; energyWh: number };

export class UsageTables {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  cursor<Cursor>(): Cursor | null {
    const row = this.#sql.exec<{ cursor: string }>("SELECT cursor FROM usage_cursor WHERE id = 1").toArray()[0];
    return row ? (JSON.parse(row.cursor) as Cursor) : null;
  }

  setCursor(cursor: unknown): void {
    this.#sql.exec(
      "INSERT INTO usage_cursor (id, cursor) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET cursor = excluded.cursor",
      JSON.stringify(cursor),
    );
  }

  add(day: string, add: UsageRow): void {
    this.#sql.exec(
      `INSERT INTO usage_days (day, running_ms, starts, energy_wh) VALUES (?, ?, ?, ?)
       ON CONFLICT(day) DO UPDATE SET running_ms = running_ms + excluded.running_ms,
         starts = starts + excluded.starts, energy_wh = energy_wh + excluded.energy_wh`,
      day,
      add.runningMs,
      add.starts,
      add.energyWh,
    );
  }

  /** Days from `firstDay` ("2026-11-23") on, oldest first. */
  since(firstDay: string): ({ day: string } & UsageRow)[] {
    return this.#sql
      .exec<{ day: string } & UsageRow>(
        "SELECT day, running_ms AS runningMs, starts, energy_wh AS energyWh FROM usage_days WHERE day >= ? ORDER BY day",
        firstDay,
      )
      .toArray();
  }

  deleteBefore(firstDay: string): void {
    this.#sql.exec("DELETE FROM usage_days WHERE day < ?", firstDay);
  }
}
