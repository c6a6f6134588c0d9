// The hub's SQLite schema, created and changed by one ordered list of steps: step n brings
// version n - 1 to n. The version is kept in the table `schema_version` (a Durable Object's
// SQLite refuses `PRAGMA user_version`), written in the same transaction as its step, so a hub
// stopped mid-step starts that step again from the start. Runs under blockConcurrencyWhile
// (context.ts): no event reaches a room before its tables are as it expects
// (docs/decisions/029-hub-schema-versions.md).
//
// A step is never edited once released: a change of schema is a new step at the end.

/** Each step is a function of the hub's SQL, run in one transaction with its new version. */
const STEPS: ((sql: SqlStorage) => void)[] = [
  // 1: every table as it is today. Hubs from before versions (version 0) are in one of several
  // shapes, since their tables were created and changed as they started: this step alone may
  // not know what it starts from, and brings each of them to the one shape a new hub is given.
  (sql) => {
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
      -- out, so a run is attempted at most once however often the alarm is delivered. The
      -- columns after created_at came later, in this order (SCHEDULE_COLUMNS_ADDED_LATER).
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
        created_at INTEGER NOT NULL,
        kind TEXT NOT NULL DEFAULT 'clock',
        days INTEGER,
        window_end INTEGER,
        random_delay INTEGER NOT NULL DEFAULT 0,
        resume INTEGER NOT NULL DEFAULT 0,
        last_ran_minutes INTEGER,
        author_user_id INTEGER
      );
      CREATE INDEX IF NOT EXISTS schedules_next_run_at ON schedules (next_run_at);
      -- "ON for N minutes": the switch-off still owed for a schedule's run. Kept apart from the
      -- schedule, so editing or deleting the schedule never leaves a motor running.
      CREATE TABLE IF NOT EXISTS schedule_offs (${SCHEDULE_OFFS_COLUMNS});
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
    reshapeOldScheduleOffs(sql);
    // Weekly days and power windows came later: older schedules are daily or once, at a time.
    const scheduleColumns = columnsOf(sql, "schedules");
    for (const [name, type] of SCHEDULE_COLUMNS_ADDED_LATER)
      if (!scheduleColumns.includes(name)) sql.exec(`ALTER TABLE schedules ADD COLUMN ${name} ${type}`);
    // Only a box's own words are kept now; the hub's refusals were English sentences of a code.
    sql.exec(
      `UPDATE schedules SET last_message = NULL
       WHERE last_message IS NOT NULL AND (last_code IS NOT 'rejected' OR last_message = 'The device refused the command.')`,
    );
  },
  // 2: the box's motor log lives here, no longer in D1 (motor-log-table.ts says how its ids stay
  // comparable with D1's). What an older hub still had in its outbox for D1 is moved in when the
  // hub starts (motor-log.ts), where its device id is known. No index on time: every read pages
  // by id, which is the primary key, and a second index would double each entry's writes.
  (sql) => {
    sql.exec(`
      CREATE TABLE motor_log (
        id INTEGER PRIMARY KEY,
        action TEXT NOT NULL,
        kind TEXT NOT NULL,
        params TEXT NOT NULL,
        message TEXT,
        user_id INTEGER,
        mobile_no TEXT,
        created_at INTEGER NOT NULL,
        hub_ref TEXT
      );
      CREATE UNIQUE INDEX motor_log_hub_ref ON motor_log (hub_ref) WHERE hub_ref IS NOT NULL;
    `);
  },
  // 3: every SMS and call this pump's alerts made, or would have past an account's daily cap
  // (alert-deliveries-table.ts): one per event, account and channel. They were D1's
  // `alert_deliveries` until D1 had to stop growing with the fleet's days (decision 045).
  (sql) => {
    sql.exec(`
      CREATE TABLE IF NOT EXISTS alert_deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        channel TEXT NOT NULL,
        reason TEXT NOT NULL,
        language TEXT NOT NULL,
        "values" TEXT NOT NULL,
        status TEXT NOT NULL,
        provider TEXT,
        provider_id TEXT,
        segments INTEGER,
        duration_seconds INTEGER,
        outcome TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS alert_deliveries_event ON alert_deliveries (event_id, user_id, channel);
      CREATE INDEX IF NOT EXISTS alert_deliveries_recent ON alert_deliveries (user_id, kind, channel, created_at);
      CREATE INDEX IF NOT EXISTS alert_deliveries_created_at ON alert_deliveries (created_at);
    `);
  },
];

/** The version a hub's schema has once every step ran. */
export const HUB_SCHEMA_VERSION = STEPS.length;

const SCHEDULE_OFFS_COLUMNS = `schedule_id INTEGER PRIMARY KEY,
  planned_at INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  after_minutes INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0`;

/** Columns of `schedules` added after its first release, in the order hubs added them. */
const SCHEDULE_COLUMNS_ADDED_LATER: [string, string][] = [
  ["kind", "TEXT NOT NULL DEFAULT 'clock'"],
  ["days", "INTEGER"],
  ["window_end", "INTEGER"],
  ["random_delay", "INTEGER NOT NULL DEFAULT 0"],
  ["resume", "INTEGER NOT NULL DEFAULT 0"],
  ["last_ran_minutes", "INTEGER"],
  // Older schedules were all the owner's own.
  ["author_user_id", "INTEGER"],
];

/** Brings the hub's schema to HUB_SCHEMA_VERSION, one step and one transaction at a time. */
export function migrateHubSchema(storage: DurableObjectStorage): void {
  const { sql } = storage;
  sql.exec(
    "CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)",
  );
  for (let version = hubSchemaVersion(sql); version < STEPS.length; version++) {
    storage.transactionSync(() => {
      STEPS[version]!(sql);
      sql.exec(
        `INSERT INTO schema_version (id, version) VALUES (1, ?)
         ON CONFLICT(id) DO UPDATE SET version = excluded.version`,
        version + 1,
      );
    });
  }
}

/** The version of a hub's schema: 0 for one from before versions (or a new one). */
export function hubSchemaVersion(sql: SqlStorage): number {
  const exists = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").toArray();
  if (exists.length === 0) return 0;
  return sql.exec<{ version: number }>("SELECT version FROM schema_version WHERE id = 1").toArray()[0]?.version ?? 0;
}

function columnsOf(sql: SqlStorage, table: string): string[] {
  return sql
    .exec<{ name: string }>(`PRAGMA table_info(${table})`)
    .toArray()
    .map((column) => column.name);
}

/**
 * Hubs created before log entries had kinds stored a sentence as an owed switch-off's `label`
 * ("after 30 minutes"), and those that read it back into minutes added `after_minutes` after
 * `attempts`. Either is rebuilt in the shape a new hub has, its rows kept.
 */
function reshapeOldScheduleOffs(sql: SqlStorage): void {
  const columns = columnsOf(sql, "schedule_offs");
  if (columns.join() === "schedule_id,planned_at,due_at,after_minutes,attempts") return;
  // "after 30 minutes" → 30 (SQLite reads the leading number of "30 minutes").
  const minutes = columns.includes("label") ? "CAST(substr(label, length('after ') + 1) AS INTEGER)" : "after_minutes";
  sql.exec(`CREATE TABLE schedule_offs_reshaped (${SCHEDULE_OFFS_COLUMNS})`);
  sql.exec(
    `INSERT INTO schedule_offs_reshaped (schedule_id, planned_at, due_at, after_minutes, attempts)
     SELECT schedule_id, planned_at, due_at, ${minutes}, attempts FROM schedule_offs`,
  );
  sql.exec("DROP TABLE schedule_offs");
  sql.exec("ALTER TABLE schedule_offs_reshaped RENAME TO schedule_offs");
}
