// The box's motor log (`motor_log`), in its hub: the home of its history
// (docs/decisions/045-history-lives-with-its-box.md). Only the motor log room (motor-log.ts) reads it.
//
// Ids stay comparable with D1's and the R2 archive's, so "older than id N" pages through all
// three in one order: a row moved from D1 keeps D1's id; a row the hub writes takes an id from
// its time (milliseconds × 1000, then one more than the last when two fall in one millisecond),
// above every id D1's autoincrement could have reached (about 10^15 rows).
import type { MotorLogRow } from "../../worker/db/schema.ts";

/** Ids a hub gives per millisecond before it borrows from the next one. */
const IDS_PER_MS = 1000;

/** A row of `motor_log` as stored; `message` only on rows moved from D1 (the sentence it kept). */
type StoredRow = {
  id: number;
  action: MotorLogRow["action"];
  kind: string;
  params: string;
  message: string | null;
  user_id: number | null;
  mobile_no: string | null;
  created_at: number;
  hub_ref: string | null;
};

/** An entry as the hub writes it: its event already split into kind and parameters. */
export type MotorLogRecord = Pick<MotorLogRow, "userId" | "mobileNo" | "action" | "kind" | "params" | "createdAt">;

export type MotorLogPageQuery = { limit: number; before?: number; since?: number };

export class MotorLogTable {
  readonly #sql: SqlStorage;
  readonly #deviceId: string;
  /** The largest id stored, once read: new ids go above it. */
  #lastId: number | null = null;

  constructor(sql: SqlStorage, deviceId: string) {
    this.#sql = sql;
    this.#deviceId = deviceId;
  }

  /** Stores a new entry with the next time-based id; answers the row as a reader gets it. */
  add(record: MotorLogRecord, hubRef: string | null = null): MotorLogRow {
    const id = Math.max(this.#largestId() + 1, record.createdAt * IDS_PER_MS);
    this.#sql.exec(
      `INSERT INTO motor_log (id, action, kind, params, message, user_id, mobile_no, created_at, hub_ref)
       VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?)`,
      id,
      record.action,
      record.kind,
      record.params,
      record.userId,
      record.mobileNo,
      record.createdAt,
      hubRef,
    );
    this.#lastId = id;
    return { ...record, id, deviceId: this.#deviceId, message: "", hubRef };
  }

  /**
   * Rows moved from D1, with their D1 ids, in one statement each; a row already here (by id, or
   * by the `hub_ref` of an entry this hub once wrote to D1 and still had) is left as it is, so
   * a move repeated after a crash adds nothing. Answers how many were new.
   */
  importFromD1(rows: MotorLogRow[]): number {
    let added = 0;
    for (const row of rows) {
      const cursor = this.#sql.exec(
        `INSERT OR IGNORE INTO motor_log (id, action, kind, params, message, user_id, mobile_no, created_at, hub_ref)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        row.id,
        row.action,
        row.kind,
        row.params,
        row.message,
        row.userId,
        row.mobileNo,
        row.createdAt,
        row.hubRef,
      );
      added += cursor.rowsWritten > 0 ? 1 : 0;
    }
    if (this.#lastId !== null) this.#lastId = Math.max(this.#lastId, ...rows.map((row) => row.id));
    return added;
  }

  /** The newest `limit` rows, newest first. */
  newest(limit: number): MotorLogRow[] {
    return this.page({ limit });
  }

  /** One page, newest first by id: older than `before`, written from `since` on. */
  page({ limit, before, since }: MotorLogPageQuery): MotorLogRow[] {
    return this.#sql
      .exec<StoredRow>(
        `SELECT * FROM motor_log WHERE id < ? AND created_at >= ? ORDER BY id DESC LIMIT ?`,
        before ?? Number.MAX_SAFE_INTEGER,
        since ?? 0,
        limit,
      )
      .toArray()
      .map((row) => this.#rowOf(row));
  }

  /** How many entries the box's hub holds. */
  count(): number {
    return this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM motor_log").one().n;
  }

  #largestId(): number {
    this.#lastId ??= this.#sql.exec<{ id: number | null }>("SELECT max(id) AS id FROM motor_log").one().id ?? 0;
    return this.#lastId;
  }

  #rowOf(row: StoredRow): MotorLogRow {
    return {
      id: row.id,
      deviceId: this.#deviceId,
      userId: row.user_id,
      mobileNo: row.mobile_no,
      action: row.action,
      kind: row.kind,
      params: row.params,
      message: row.message ?? "",
      createdAt: row.created_at,
      hubRef: row.hub_ref,
    };
  }
}
