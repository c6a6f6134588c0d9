// The farmer's schedules as stored (`schedules`, India time): the one room that reads and writes
// the table. The room that carries them out (schedules.ts), the power windows' runs
// (window-runs.ts) and the commands that settle a scheduled run late (commands.ts) ask it.
import type { RelayState } from "../../common/device-protocol.ts";
import type { HubAlerts } from "./alerts.ts";
import { Room } from "./room.ts";

export type ScheduleRow = {
  id: number;
  /** The owner whose schedules these are (the box's owner when it was set). */
  userId: number;
  /**
   * Who last set it, when that was a member (an operator) rather than the owner or an admin:
   * the schedule lives only as long as their right to schedule on this box.
   */
  authorUserId: number | null;
  kind: "clock" | "window";
  /** A window's opening. */
  minuteOfDay: number;
  action: "on" | "off";
  repeat: "daily" | "weekly" | "once";
  /** `weekly`: a mask of `1 << IST weekday`; null otherwise. */
  daysMask: number | null;
  /** A window's minutes to run. */
  durationMinutes: number | null;
  /** A window's closing minute of the day. */
  windowEnd: number | null;
  randomDelay: boolean;
  resume: boolean;
  nextRunAt: number | null;
  lastRunKey: string | null;
  lastRunAt: number | null;
  lastOutcome: "done" | "missed" | "failed" | null;
  lastCode: string | null;
  /** The box's own words when it refused the run (`rejected`); null otherwise. */
  lastError: string | null;
  /** A window's minutes run in its last run. */
  lastRanMinutes: number | null;
  createdAt: number;
};

/** What a schedule's form decides (common/schedule-schemas.ts ScheduleInput), as stored. */
export type ScheduleFields = Pick<
  ScheduleRow,
  "kind" | "minuteOfDay" | "action" | "repeat" | "daysMask" | "durationMinutes" | "windowEnd" | "randomDelay" | "resume"
>;

const COLUMNS = `id, user_id AS userId, kind, minute_of_day AS minuteOfDay, action, repeat,
  days AS daysMask, duration_minutes AS durationMinutes, window_end AS windowEnd, random_delay AS randomDelay,
  resume, next_run_at AS nextRunAt, last_run_key AS lastRunKey, last_run_at AS lastRunAt, last_outcome AS lastOutcome,
  last_code AS lastCode, last_message AS lastError, last_ran_minutes AS lastRanMinutes, created_at AS createdAt,
  author_user_id AS authorUserId`;

/** The columns of what a schedule's form decides, in the order of `fieldParams`. */
const FIELD_COLUMNS = [
  "kind",
  "minute_of_day",
  "action",
  "repeat",
  "days",
  "duration_minutes",
  "window_end",
  "random_delay",
  "resume",
];

function fieldParams(fields: ScheduleFields): SqlStorageValue[] {
  return [
    fields.kind,
    fields.minuteOfDay,
    fields.action,
    fields.repeat,
    fields.daysMask,
    fields.durationMinutes,
    fields.windowEnd,
    fields.randomDelay ? 1 : 0,
    fields.resume ? 1 : 0,
  ];
}

/** SQLite keeps booleans as 0 and 1. */
type StoredSchedule = Omit<ScheduleRow, "randomDelay" | "resume"> & { randomDelay: number; resume: number };

function rowOf(row: StoredSchedule): ScheduleRow {
  return { ...row, randomDelay: row.randomDelay === 1, resume: row.resume === 1 };
}

export class ScheduleBook extends Room<{ alerts: HubAlerts }> {
  #select(where: string, ...params: SqlStorageValue[]): ScheduleRow[] {
    return this.hub.ctx.storage.sql
      .exec<StoredSchedule>(`SELECT ${COLUMNS} FROM schedules ${where}`, ...params)
      .toArray()
      .map(rowOf);
  }

  of(userId: number): ScheduleRow[] {
    return this.#select("WHERE user_id = ? ORDER BY minute_of_day, id", userId);
  }

  get(id: number): ScheduleRow | null {
    return this.#select("WHERE id = ?", id)[0] ?? null;
  }

  count(): number {
    return this.hub.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM schedules").one().n;
  }

  /** The ids of every schedule kept. */
  ids(): number[] {
    return this.hub.ctx.storage.sql
      .exec<{ id: number }>("SELECT id FROM schedules")
      .toArray()
      .map((row) => row.id);
  }

  /** The device's schedules of one kind but `exceptId`: what a new or changed one must not clash with. */
  others(kind: ScheduleRow["kind"], exceptId: number | null): ScheduleRow[] {
    return this.#select("WHERE kind = ? AND id IS NOT ?", kind, exceptId);
  }

  due(now: number): ScheduleRow[] {
    return this.#select("WHERE next_run_at <= ? ORDER BY next_run_at, id", now);
  }

  /** When the next schedule runs (a window: opens), if any. */
  nextRunAt(): number | null {
    return this.hub.ctx.storage.sql.exec<{ due: number | null }>("SELECT MIN(next_run_at) AS due FROM schedules").one()
      .due;
  }

  insert(values: ScheduleFields & Pick<ScheduleRow, "userId" | "authorUserId" | "nextRunAt" | "createdAt">): number {
    return this.hub.ctx.storage.sql
      .exec<{ id: number }>(
        `INSERT INTO schedules (user_id, author_user_id, ${FIELD_COLUMNS.join(", ")}, next_run_at, created_at)
         VALUES (?, ?, ${FIELD_COLUMNS.map(() => "?").join(", ")}, ?, ?) RETURNING id`,
        values.userId,
        values.authorUserId,
        ...fieldParams(values),
        values.nextRunAt,
        values.createdAt,
      )
      .one().id;
  }

  update(id: number, values: ScheduleFields & Pick<ScheduleRow, "authorUserId" | "nextRunAt">): void {
    this.hub.ctx.storage.sql.exec(
      `UPDATE schedules SET ${FIELD_COLUMNS.map((column) => `${column} = ?`).join(", ")}, next_run_at = ?,
         author_user_id = ?
       WHERE id = ?`,
      ...fieldParams(values),
      values.nextRunAt,
      values.authorUserId,
      id,
    );
  }

  delete(id: number): void {
    this.hub.ctx.storage.sql.exec("DELETE FROM schedules WHERE id = ?", id);
  }

  /**
   * Schedules of anyone but `userId` (all of them when null: the device changed hands), and
   * those set by a member not among `authors` (they lost the right to schedule here).
   */
  deleteNotOwnedBy(userId: number | null, authors: number[]): number {
    return this.hub.ctx.storage.sql.exec(
      `DELETE FROM schedules WHERE user_id IS NOT ?
         OR (author_user_id IS NOT NULL AND author_user_id NOT IN (SELECT value FROM json_each(?)))`,
      userId,
      JSON.stringify(authors),
    ).rowsWritten;
  }

  /**
   * Takes a run before it is attempted: records its key and moves the schedule on to its next
   * run. Returns false when that run was already taken (an alarm delivered twice).
   */
  claimRun(id: number, runKey: string, scheduledAt: number, nextRunAt: number | null): boolean {
    return (
      this.hub.ctx.storage.sql.exec(
        `UPDATE schedules SET last_run_key = ?, last_run_at = ?, next_run_at = ?, last_outcome = NULL, last_code = NULL, last_message = NULL
         WHERE id = ? AND last_run_key IS NOT ?`,
        runKey,
        scheduledAt,
        nextRunAt,
        id,
        runKey,
      ).rowsWritten > 0
    );
  }

  setNextRun(id: number, nextRunAt: number | null): void {
    this.hub.ctx.storage.sql.exec("UPDATE schedules SET next_run_at = ? WHERE id = ?", nextRunAt, id);
  }

  /** What became of the run `runKey`, if it is still the schedule's last. */
  recordOutcome(
    id: number,
    runKey: string,
    outcome: NonNullable<ScheduleRow["lastOutcome"]>,
    code: string | null,
    error: string | null,
    ranMinutes: number | null = null,
  ): void {
    this.hub.ctx.storage.sql.exec(
      "UPDATE schedules SET last_outcome = ?, last_code = ?, last_message = ?, last_ran_minutes = ? WHERE id = ? AND last_run_key = ?",
      outcome,
      code,
      error,
      ranMinutes,
      id,
      runKey,
    );
  }

  /** The box confirmed a scheduled run's switch late: the run is done, and its alert replaces the "not carried out" one. */
  confirmedLate(run: { scheduleId: number; runKey: string }, action: RelayState): void {
    this.recordOutcome(run.scheduleId, run.runKey, "done", "confirmedLate", null);
    const schedule = this.get(run.scheduleId);
    if (schedule)
      this.rooms.alerts.raise({
        kind: "schedule",
        outcome: "done",
        action,
        minuteOfDay: schedule.minuteOfDay,
        reason: null,
      });
  }
}
