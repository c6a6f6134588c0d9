// The power history's samples (`power_samples`); only the power history (power-history.ts) reads it.
import type { PowerSample } from "../../common/hub-contract.ts";

/** Power history keeps one sample a minute while the motor runs, for this long. */
export const POWER_HISTORY_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const POWER_SAMPLE_INTERVAL_MS = 60_000;

export class PowerSamplesTable {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Stores a reading if the last sample is older than the sampling interval (or `force`). */
  sample(at: number, current: number, wattage: number, force = false): void {
    const last = this.#sql.exec<{ at: number | null }>("SELECT MAX(at) AS at FROM power_samples").one().at;
    if (!force && last !== null && at - last < POWER_SAMPLE_INTERVAL_MS) return;
    this.#sql.exec("INSERT INTO power_samples (at, current, wattage) VALUES (?, ?, ?)", at, current, wattage);
  }

  prune(now: number): void {
    this.#sql.exec("DELETE FROM power_samples WHERE at < ?", now - POWER_HISTORY_RETENTION_MS);
  }

  latest(limit: number): PowerSample[] {
    return this.#sql
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
}
