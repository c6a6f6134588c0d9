// The outbox (`log_outbox`) in which older hubs kept motor log entries waiting for D1, in the
// order they happened. Only the motor log (motor-log.ts) reads it, once, to move what an older
// hub left there into the log.
export class LogOutboxTable {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  add(row: unknown): number {
    return this.#sql
      .exec<{ id: number }>("INSERT INTO log_outbox (row) VALUES (?) RETURNING id", JSON.stringify(row))
      .one().id;
  }

  /** Removes the entries up to and including `lastId` (those a flush wrote), in one statement. */
  removeUpTo(lastId: number): void {
    this.#sql.exec("DELETE FROM log_outbox WHERE id <= ?", lastId);
  }

  /** The oldest `limit` entries waiting (all without one), oldest first. */
  waiting<Row>(limit = -1): { id: number; row: Row }[] {
    return this.#sql
      .exec<{ id: number; row: string }>("SELECT id, row FROM log_outbox ORDER BY id LIMIT ?", limit)
      .toArray()
      .map(({ id, row }) => ({ id, row: JSON.parse(row) as Row }));
  }
}
