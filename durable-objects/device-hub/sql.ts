// The DeviceHub's own SQLite tables. Everything here survives hibernation, eviction and
// restarts; the class keeps only caches in memory.
import { DEBUG_LINE_LIMIT, type PowerSample } from "../../common/hub-contract.ts";

/** Power history keeps one sample a minute while the motor runs, for this long. */
export const POWER_HISTORY_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
export const POWER_SAMPLE_INTERVAL_MS = 60_000;

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

/** One IST day's totals, or what to add to them. */
export type UsageRow = { runningMs: number; starts: number; energyWh: number };
/** What a schedule's form decides (common/schedule-schemas.ts ScheduleInput), as stored. */
export type ScheduleFields = Pick<
  ScheduleRow,
  "kind" | "minuteOfDay" | "action" | "repeat" | "daysMask" | "durationMinutes" | "windowEnd" | "randomDelay" | "resume"
>;

/**
 * A power window's run under way (window-runs.ts): one per schedule, from the window's opening
 * until the run is complete or over. Times in ms.
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

const WINDOW_RUN_COLUMNS = `schedule_id AS scheduleId, run_key AS runKey, opens_at AS opensAt, closes_at AS closesAt,
  run_ms AS runMs, ran_ms AS ranMs, phase, start_at AS startAt, running_since AS runningSince, wake_at AS wakeAt,
  resume, random_delay AS randomDelay`;

/** A switch-off owed `afterMinutes` after an "ON for N minutes" run started. */
export type ScheduleOffRow = {
  scheduleId: number;
  plannedAt: number;
  dueAt: number;
  afterMinutes: number;
  attempts: number;
};

const SCHEDULE_COLUMNS = `id, user_id AS userId, kind, minute_of_day AS minuteOfDay, action, repeat,
  days AS daysMask, duration_minutes AS durationMinutes, window_end AS windowEnd, random_delay AS randomDelay,
  resume, next_run_at AS nextRunAt, last_run_key AS lastRunKey, last_run_at AS lastRunAt, last_outcome AS lastOutcome,
  last_code AS lastCode, last_message AS lastError, last_ran_minutes AS lastRanMinutes, created_at AS createdAt,
  author_user_id AS authorUserId`;

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
      -- Motor schedules: minute_of_day is India time; next_run_at is the instant of the next run
      -- (NULL once a one-time schedule has run); last_run_key names the IST minute last carried
      -- out, so a run is attempted at most once however often the alarm is delivered.
      CREATE TABLE IF NOT EXISTS schedules (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL,
        minute_of_day INTEGER NOT NULL,
        action TEXT NOT NULL,
        repeat TEXT NOT NULL,
        duration_minutes INTEGER,
        next_run_at INTEGER,
        last_run_key TEXT,
        last_run_at INTEGER,
        last_outcome TEXT,
        last_code TEXT,
        last_message TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS schedules_next_run_at ON schedules (next_run_at);
      -- "ON for N minutes": the switch-off still owed for a schedule's run. Kept apart from the
      -- schedule, so editing or deleting the schedule never leaves a motor running.
      CREATE TABLE IF NOT EXISTS schedule_offs (
        schedule_id INTEGER PRIMARY KEY,
        planned_at INTEGER NOT NULL,
        due_at INTEGER NOT NULL,
        after_minutes INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0
      );
      -- Run hours and energy per IST day (usage.ts), and the one cursor of what is counted so far.
      CREATE TABLE IF NOT EXISTS usage_days (
        day TEXT PRIMARY KEY,
        running_ms INTEGER NOT NULL DEFAULT 0,
        starts INTEGER NOT NULL DEFAULT 0,
        energy_wh REAL NOT NULL DEFAULT 0
      );
      CREATE TABLE IF NOT EXISTS usage_cursor (id INTEGER PRIMARY KEY CHECK (id = 1), cursor TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS window_runs (
        schedule_id INTEGER PRIMARY KEY,
        run_key TEXT NOT NULL,
        opens_at INTEGER NOT NULL,
        closes_at INTEGER NOT NULL,
        run_ms INTEGER NOT NULL,
        ran_ms INTEGER NOT NULL DEFAULT 0,
        phase TEXT NOT NULL,
        start_at INTEGER,
        running_since INTEGER,
        wake_at INTEGER,
        resume INTEGER NOT NULL,
        random_delay INTEGER NOT NULL
      );
    `);
    upgradeScheduleTables(sql);
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

  timerDue(name: string): number | null {
    return (
      this.sql.exec<{ due_at: number }>("SELECT due_at FROM timers WHERE name = ?", name).toArray()[0]?.due_at ?? null
    );
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

  /** Removes the entries up to and including `lastId` (those a flush wrote), in one statement. */
  removeFromOutboxUpTo(lastId: number): void {
    this.sql.exec("DELETE FROM log_outbox WHERE id <= ?", lastId);
  }

  /** The oldest `limit` entries waiting (all without one), oldest first. */
  outbox<Row>(limit = -1): { id: number; row: Row }[] {
    return this.sql
      .exec<{ id: number; row: string }>("SELECT id, row FROM log_outbox ORDER BY id LIMIT ?", limit)
      .toArray()
      .map(({ id, row }) => ({ id, row: JSON.parse(row) as Row }));
  }

  // ---- power history ----------------------------------------------------------------------

  /** Stores a reading if the last sample is older than the sampling interval (or `force`). */
  samplePower(at: number, current: number, wattage: number, force = false): void {
    const last = this.sql.exec<{ at: number | null }>("SELECT MAX(at) AS at FROM power_samples").one().at;
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

  // ---- run hours and energy (usage.ts) ------------------------------------------------------

  usageCursor<Cursor>(): Cursor | null {
    const row = this.sql.exec<{ cursor: string }>("SELECT cursor FROM usage_cursor WHERE id = 1").toArray()[0];
    return row ? (JSON.parse(row.cursor) as Cursor) : null;
  }

  setUsageCursor(cursor: unknown): void {
    this.sql.exec(
      "INSERT INTO usage_cursor (id, cursor) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET cursor = excluded.cursor",
      JSON.stringify(cursor),
    );
  }

  addUsage(day: string, add: UsageRow): void {
    this.sql.exec(
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
  usageSince(firstDay: string): ({ day: string } & UsageRow)[] {
    return this.sql
      .exec<{ day: string } & UsageRow>(
        "SELECT day, running_ms AS runningMs, starts, energy_wh AS energyWh FROM usage_days WHERE day >= ? ORDER BY day",
        firstDay,
      )
      .toArray();
  }

  deleteUsageBefore(firstDay: string): void {
    this.sql.exec("DELETE FROM usage_days WHERE day < ?", firstDay);
  }

  // ---- debug lines --------------------------------------------------------------------------

  addDebugLine(at: number, line: string): void {
    this.sql.exec("INSERT INTO debug_lines (at, line) VALUES (?, ?)", at, line);
    this.sql.exec("DELETE FROM debug_lines WHERE id <= (SELECT MAX(id) FROM debug_lines) - ?", DEBUG_LINE_LIMIT);
  }

  debugLines(): { at: number; line: string }[] {
    return this.sql.exec<{ at: number; line: string }>("SELECT at, line FROM debug_lines ORDER BY id").toArray();
  }

  // ---- schedules ----------------------------------------------------------------------------

  schedules(userId: number): ScheduleRow[] {
    return this.sql
      .exec<StoredSchedule>(
        `SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE user_id = ? ORDER BY minute_of_day, id`,
        userId,
      )
      .toArray()
      .map(scheduleRowOf);
  }

  schedule(id: number): ScheduleRow | null {
    const row = this.sql
      .exec<StoredSchedule>(`SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE id = ?`, id)
      .toArray()[0];
    return row ? scheduleRowOf(row) : null;
  }

  scheduleCount(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM schedules").one().n;
  }

  /** The device's schedules of one kind but `exceptId`: what a new or changed one must not clash with. */
  otherSchedules(kind: ScheduleRow["kind"], exceptId: number | null): ScheduleRow[] {
    return this.sql
      .exec<StoredSchedule>(`SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE kind = ? AND id IS NOT ?`, kind, exceptId)
      .toArray()
      .map(scheduleRowOf);
  }

  insertSchedule(
    values: ScheduleFields & Pick<ScheduleRow, "userId" | "authorUserId" | "nextRunAt" | "createdAt">,
  ): number {
    return this.sql
      .exec<{ id: number }>(
        `INSERT INTO schedules (user_id, author_user_id, ${SCHEDULE_FIELD_COLUMNS.join(", ")}, next_run_at, created_at)
         VALUES (?, ?, ${SCHEDULE_FIELD_COLUMNS.map(() => "?").join(", ")}, ?, ?) RETURNING id`,
        values.userId,
        values.authorUserId,
        ...scheduleFieldParams(values),
        values.nextRunAt,
        values.createdAt,
      )
      .one().id;
  }

  updateSchedule(id: number, values: ScheduleFields & Pick<ScheduleRow, "authorUserId" | "nextRunAt">): void {
    this.sql.exec(
      `UPDATE schedules SET ${SCHEDULE_FIELD_COLUMNS.map((column) => `${column} = ?`).join(", ")}, next_run_at = ?,
         author_user_id = ?
       WHERE id = ?`,
      ...scheduleFieldParams(values),
      values.nextRunAt,
      values.authorUserId,
      id,
    );
  }

  /** A run under way goes with it; a switch-off it owes stays (schedule_offs). */
  deleteSchedule(id: number): void {
    this.sql.exec("DELETE FROM schedules WHERE id = ?", id);
    this.sql.exec("DELETE FROM window_runs WHERE schedule_id = ?", id);
  }

  /**
   * Schedules of anyone but `userId` (all of them when null: the device changed hands), and
   * those set by a member not among `authors` (they lost the right to schedule here).
   */
  deleteSchedulesNotOwnedBy(userId: number | null, authors: number[]): number {
    const deleted = this.sql.exec(
      `DELETE FROM schedules WHERE user_id IS NOT ?
         OR (author_user_id IS NOT NULL AND author_user_id NOT IN (SELECT value FROM json_each(?)))`,
      userId,
      JSON.stringify(authors),
    ).rowsWritten;
    this.sql.exec("DELETE FROM window_runs WHERE schedule_id NOT IN (SELECT id FROM schedules)");
    return deleted;
  }

  dueSchedules(now: number): ScheduleRow[] {
    return this.sql
      .exec<StoredSchedule>(
        `SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE next_run_at <= ? ORDER BY next_run_at, id`,
        now,
      )
      .toArray()
      .map(scheduleRowOf);
  }

  /**
   * Takes a run before it is attempted: records its key and moves the schedule on to its next
   * run. Returns false when that run was already taken (an alarm delivered twice).
   */
  claimScheduleRun(id: number, runKey: string, scheduledAt: number, nextRunAt: number | null): boolean {
    return (
      this.sql.exec(
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

  setScheduleNextRun(id: number, nextRunAt: number | null): void {
    this.sql.exec("UPDATE schedules SET next_run_at = ? WHERE id = ?", nextRunAt, id);
  }

  recordScheduleOutcome(
    id: number,
    runKey: string,
    outcome: NonNullable<ScheduleRow["lastOutcome"]>,
    code: string | null,
    error: string | null,
    ranMinutes: number | null = null,
  ): void {
    this.sql.exec(
      "UPDATE schedules SET last_outcome = ?, last_code = ?, last_message = ?, last_ran_minutes = ? WHERE id = ? AND last_run_key = ?",
      outcome,
      code,
      error,
      ranMinutes,
      id,
      runKey,
    );
  }

  // ---- power-window runs ------------------------------------------------------------------

  windowRun(scheduleId: number): WindowRunRow | null {
    const row = this.sql
      .exec<StoredWindowRun>(`SELECT ${WINDOW_RUN_COLUMNS} FROM window_runs WHERE schedule_id = ?`, scheduleId)
      .toArray()[0];
    return row ? windowRunRowOf(row) : null;
  }

  windowRuns(): WindowRunRow[] {
    return this.sql
      .exec<StoredWindowRun>(`SELECT ${WINDOW_RUN_COLUMNS} FROM window_runs ORDER BY opens_at`)
      .toArray()
      .map(windowRunRowOf);
  }

  hasWindowRuns(): boolean {
    return this.sql.exec("SELECT 1 FROM window_runs LIMIT 1").toArray().length > 0;
  }

  /** Opens a run, unless this schedule's run `runKey` is already open (an alarm delivered twice). */
  openWindowRun(run: WindowRunRow): boolean {
    return (
      this.sql.exec(
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
  moveWindowRun(
    scheduleId: number,
    from: WindowRunRow["phase"],
    next: Pick<WindowRunRow, "phase" | "ranMs" | "startAt" | "runningSince" | "wakeAt">,
  ): boolean {
    return (
      this.sql.exec(
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
  closeWindowRun(scheduleId: number, runKey: string): boolean {
    return (
      this.sql.exec("DELETE FROM window_runs WHERE schedule_id = ? AND run_key = ?", scheduleId, runKey).rowsWritten > 0
    );
  }

  setScheduleOff(off: ScheduleOffRow): void {
    this.sql.exec(
      `INSERT INTO schedule_offs (schedule_id, planned_at, due_at, after_minutes, attempts) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(schedule_id) DO UPDATE SET planned_at = excluded.planned_at, due_at = excluded.due_at,
         after_minutes = excluded.after_minutes, attempts = excluded.attempts`,
      off.scheduleId,
      off.plannedAt,
      off.dueAt,
      off.afterMinutes,
      off.attempts,
    );
  }

  dueScheduleOffs(now: number): ScheduleOffRow[] {
    return this.sql
      .exec<ScheduleOffRow>(
        `SELECT schedule_id AS scheduleId, planned_at AS plannedAt, due_at AS dueAt, after_minutes AS afterMinutes, attempts
         FROM schedule_offs WHERE due_at <= ? ORDER BY due_at`,
        now,
      )
      .toArray();
  }

  deleteScheduleOff(scheduleId: number): void {
    this.sql.exec("DELETE FROM schedule_offs WHERE schedule_id = ?", scheduleId);
  }

  /** When the earliest switch-off owed to a timed run is due, if any (the pages say when the motor stops). */
  nextScheduleOff(): number | null {
    return this.sql.exec<{ due: number | null }>("SELECT MIN(due_at) AS due FROM schedule_offs").one().due;
  }

  /** The motor stopped: no switch-off is owed any more. */
  clearScheduleOffs(): void {
    this.sql.exec("DELETE FROM schedule_offs");
  }

  /** When the next schedule run, owed switch-off or power-window look is due, if any. */
  nextScheduleDue(): number | null {
    return this.sql
      .exec<{ due: number | null }>(
        `SELECT MIN(due) AS due FROM (SELECT MIN(next_run_at) AS due FROM schedules
           UNION ALL SELECT MIN(due_at) FROM schedule_offs UNION ALL SELECT MIN(wake_at) FROM window_runs)`,
      )
      .one().due;
  }
}

/** The columns of what a schedule's form decides, in the order of `scheduleFieldParams`. */
const SCHEDULE_FIELD_COLUMNS = [
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

function scheduleFieldParams(fields: ScheduleFields): SqlStorageValue[] {
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
type StoredWindowRun = Omit<WindowRunRow, "randomDelay" | "resume"> & { randomDelay: number; resume: number };

function scheduleRowOf(row: StoredSchedule): ScheduleRow {
  return { ...row, randomDelay: row.randomDelay === 1, resume: row.resume === 1 };
}

function windowRunRowOf(row: StoredWindowRun): WindowRunRow {
  return { ...row, randomDelay: row.randomDelay === 1, resume: row.resume === 1 };
}

/**
 * Hubs created before log entries had kinds stored sentences here: an owed switch-off's
 * `label` ("after 30 minutes") and a run's outcome `last_message` (the refusal in English).
 * Both become data, once; safe to run on every start.
 */
function upgradeScheduleTables(sql: SqlStorage): void {
  const columns = sql
    .exec<{ name: string }>("PRAGMA table_info(schedule_offs)")
    .toArray()
    .map((column) => column.name);
  if (columns.includes("label")) {
    sql.exec("ALTER TABLE schedule_offs ADD COLUMN after_minutes INTEGER NOT NULL DEFAULT 0");
    // "after 30 minutes" → 30 (SQLite reads the leading number of "30 minutes").
    sql.exec("UPDATE schedule_offs SET after_minutes = CAST(substr(label, length('after ') + 1) AS INTEGER)");
    sql.exec("ALTER TABLE schedule_offs DROP COLUMN label");
  }
  // Weekly days and power windows came later: older schedules are daily or once, at a time.
  const scheduleColumns = sql
    .exec<{ name: string }>("PRAGMA table_info(schedules)")
    .toArray()
    .map((column) => column.name);
  const added: [string, string][] = [
    ["kind", "TEXT NOT NULL DEFAULT 'clock'"],
    ["days", "INTEGER"],
    ["window_end", "INTEGER"],
    ["random_delay", "INTEGER NOT NULL DEFAULT 0"],
    ["resume", "INTEGER NOT NULL DEFAULT 0"],
    ["last_ran_minutes", "INTEGER"],
    // Older schedules were all the owner's own.
    ["author_user_id", "INTEGER"],
  ];
  for (const [name, type] of added)
    if (!scheduleColumns.includes(name)) sql.exec(`ALTER TABLE schedules ADD COLUMN ${name} ${type}`);
  // Only a box's own words are kept now; the hub's refusals were English sentences of a code.
  sql.exec(
    `UPDATE schedules SET last_message = NULL
     WHERE last_message IS NOT NULL AND (last_code IS NOT 'rejected' OR last_message = 'The device refused the command.')`,
  );
}
