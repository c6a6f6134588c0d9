// The hub's SQLite schema comes from one ordered list of steps (durable-objects/device-hub/
// schema-versions.ts). Hubs from before versions exist in every shape their tables once had,
// with rows in them: each is built here in a hub's own storage, brought up, and must end with
// exactly the schema a new hub gets, its rows kept (and a run again changes nothing).
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  HUB_SCHEMA_VERSION,
  hubSchemaVersion,
  migrateHubSchema,
} from "../../durable-objects/device-hub/schema-versions.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";
import { uniqueHubName } from "./room-support.ts";

/** Every table and index as SQLite describes them: columns in order with types, defaults and keys. */
function schemaOf(sql: SqlStorage) {
  const objects = sql
    .exec<{ type: string; name: string; tbl_name: string }>(
      `SELECT type, name, tbl_name FROM sqlite_master
       WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY type, name`,
    )
    .toArray();
  return objects.map((object) =>
    object.type === "table"
      ? { ...object, columns: sql.exec(`PRAGMA table_info(${object.name})`).toArray() }
      : {
          ...object,
          on: sql.exec(`PRAGMA index_list(${object.tbl_name})`).toArray(),
          columns: sql.exec(`PRAGMA index_info(${object.name})`).toArray(),
        },
  );
}

const HUB_TABLES = [
  "alert_deliveries",
  "timers",
  "log_outbox",
  "power_samples",
  "debug_lines",
  "schedules",
  "schedule_offs",
  "usage_days",
  "usage_cursor",
  "window_runs",
  "motor_log",
];

function contentsOf(sql: SqlStorage) {
  return Object.fromEntries(
    HUB_TABLES.map((table) => [table, sql.exec(`SELECT * FROM ${table} ORDER BY 1`).toArray()]),
  );
}

/** An empty SQLite in a hub of its own (the one its constructor set up is dropped). */
function emptied(sql: SqlStorage): void {
  const tables = sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    )
    .toArray();
  for (const { name } of tables) sql.exec(`DROP TABLE ${name}`);
}

// The tables as each release of the hub created them, before schema versions.
const FIRST = `
  CREATE TABLE timers (name TEXT PRIMARY KEY, due_at INTEGER NOT NULL);
  CREATE TABLE log_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, row TEXT NOT NULL);`;
const POWER_AND_DEBUG = `
  CREATE TABLE power_samples (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, current REAL NOT NULL,
    wattage REAL NOT NULL);
  CREATE INDEX power_samples_at ON power_samples (at);
  CREATE TABLE debug_lines (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, line TEXT NOT NULL);`;
const FIRST_SCHEDULES = `
  CREATE TABLE schedules (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id INTEGER NOT NULL,
    minute_of_day INTEGER NOT NULL, action TEXT NOT NULL, repeat TEXT NOT NULL, duration_minutes INTEGER,
    next_run_at INTEGER, last_run_key TEXT, last_run_at INTEGER, last_outcome TEXT, last_code TEXT,
    last_message TEXT, created_at INTEGER NOT NULL);
  CREATE INDEX schedules_next_run_at ON schedules (next_run_at);`;
const OFFS_WITH_LABEL = `
  CREATE TABLE schedule_offs (schedule_id INTEGER PRIMARY KEY, planned_at INTEGER NOT NULL, due_at INTEGER NOT NULL,
    label TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0);`;
/** A hub that read its labels back into minutes: the column added last, the label dropped. */
const OFFS_LABEL_READ_BACK = `
  CREATE TABLE schedule_offs (schedule_id INTEGER PRIMARY KEY, planned_at INTEGER NOT NULL, due_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, after_minutes INTEGER NOT NULL DEFAULT 0);`;
const OFFS_WITH_MINUTES = `
  CREATE TABLE schedule_offs (schedule_id INTEGER PRIMARY KEY, planned_at INTEGER NOT NULL, due_at INTEGER NOT NULL,
    after_minutes INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0);`;
const WINDOW_COLUMNS = `
  ALTER TABLE schedules ADD COLUMN kind TEXT NOT NULL DEFAULT 'clock';
  ALTER TABLE schedules ADD COLUMN days INTEGER;
  ALTER TABLE schedules ADD COLUMN window_end INTEGER;
  ALTER TABLE schedules ADD COLUMN random_delay INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE schedules ADD COLUMN resume INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE schedules ADD COLUMN last_ran_minutes INTEGER;
  CREATE TABLE window_runs (schedule_id INTEGER PRIMARY KEY, run_key TEXT NOT NULL, opens_at INTEGER NOT NULL,
    closes_at INTEGER NOT NULL, run_ms INTEGER NOT NULL, ran_ms INTEGER NOT NULL DEFAULT 0, phase TEXT NOT NULL,
    start_at INTEGER, running_since INTEGER, wake_at INTEGER, resume INTEGER NOT NULL, random_delay INTEGER NOT NULL);`;
const USAGE = `
  CREATE TABLE usage_days (day TEXT PRIMARY KEY, running_ms INTEGER NOT NULL DEFAULT 0,
    starts INTEGER NOT NULL DEFAULT 0, energy_wh REAL NOT NULL DEFAULT 0);
  CREATE TABLE usage_cursor (id INTEGER PRIMARY KEY CHECK (id = 1), cursor TEXT NOT NULL);`;
const AUTHORS = "ALTER TABLE schedules ADD COLUMN author_user_id INTEGER;";

const OLDER_SHAPES: Record<string, string[]> = {
  "the first hub: timers and the log outbox": [FIRST],
  "power history and debug lines": [FIRST, POWER_AND_DEBUG],
  "schedules, their switch-offs labelled in English": [FIRST, POWER_AND_DEBUG, FIRST_SCHEDULES, OFFS_WITH_LABEL],
  "labels read back into minutes, added last": [FIRST, POWER_AND_DEBUG, FIRST_SCHEDULES, OFFS_LABEL_READ_BACK],
  "switch-offs in minutes from the start": [FIRST, POWER_AND_DEBUG, FIRST_SCHEDULES, OFFS_WITH_MINUTES],
  "weekly schedules and power windows": [FIRST, POWER_AND_DEBUG, FIRST_SCHEDULES, OFFS_WITH_MINUTES, WINDOW_COLUMNS],
  "run hours and energy": [FIRST, POWER_AND_DEBUG, FIRST_SCHEDULES, OFFS_WITH_MINUTES, WINDOW_COLUMNS, USAGE],
  "members' schedules: the last shape before versions": [
    FIRST,
    POWER_AND_DEBUG,
    FIRST_SCHEDULES,
    OFFS_LABEL_READ_BACK,
    WINDOW_COLUMNS,
    USAGE,
    AUTHORS,
  ],
};

const has = (sql: SqlStorage, table: string, column?: string) =>
  sql
    .exec<{ name: string }>(`PRAGMA table_info(${table})`)
    .toArray()
    .some((entry) => column === undefined || entry.name === column);

/** Rows in whichever of the tables the shape has, as that shape stored them. */
function fillOlderRows(sql: SqlStorage): void {
  sql.exec("INSERT INTO timers (name, due_at) VALUES ('liveness', 1000), ('flush-logs', 2000)");
  sql.exec(`INSERT INTO log_outbox (row) VALUES ('{"action":"on"}'), ('{"action":"off"}')`);
  if (has(sql, "power_samples")) {
    sql.exec("INSERT INTO power_samples (at, current, wattage) VALUES (5000, 8.5, 4800), (65000, 8.7, 4900)");
    sql.exec("INSERT INTO debug_lines (at, line) VALUES (5000, 'boot'), (6000, 'relay on')");
  }
  if (!has(sql, "schedules")) return;
  const insertRun = `INSERT INTO schedules (user_id, minute_of_day, action, repeat, duration_minutes, next_run_at,
      last_run_key, last_run_at, created_at, last_outcome, last_code, last_message)
    VALUES (7, ?, 'on', 'daily', 30, 90000, '2026-11-20T06:00', 80000, 100, 'failed', ?, ?)`;
  sql.exec(insertRun, 360, "phaseFault", "Phase fault detected. Motor operation is disabled until the phase is OK.");
  sql.exec(insertRun, 361, "rejected", "The device refused the command.");
  sql.exec(insertRun, 362, "rejected", "Relay stuck");
  if (has(sql, "schedule_offs", "label"))
    sql.exec(
      "INSERT INTO schedule_offs (schedule_id, planned_at, due_at, label, attempts) VALUES (1, 1000, 2000, 'after 45 minutes', 1)",
    );
  else
    sql.exec(
      "INSERT INTO schedule_offs (schedule_id, planned_at, due_at, after_minutes, attempts) VALUES (1, 1000, 2000, 45, 1)",
    );
  if (has(sql, "window_runs")) {
    sql.exec(`INSERT INTO schedules (user_id, kind, minute_of_day, action, repeat, days, duration_minutes, window_end,
        random_delay, resume, next_run_at, created_at) VALUES (7, 'window', 1320, 'on', 'weekly', 3, 120, 360, 1, 1, 99000, 200)`);
    sql.exec(`INSERT INTO window_runs (schedule_id, run_key, opens_at, closes_at, run_ms, ran_ms, phase, start_at,
        running_since, wake_at, resume, random_delay) VALUES (4, '2026-11-20T22:00', 10, 20, 30, 5, 'running', NULL, 15, NULL, 1, 1)`);
  }
  if (has(sql, "usage_days")) {
    sql.exec("INSERT INTO usage_days (day, running_ms, starts, energy_wh) VALUES ('2026-11-20', 600000, 2, 812.5)");
    sql.exec(`INSERT INTO usage_cursor (id, cursor) VALUES (1, '{"lastKnown":null,"run":null}')`);
  }
  if (has(sql, "schedules", "author_user_id"))
    sql.exec(
      "INSERT INTO schedules (user_id, author_user_id, minute_of_day, action, repeat, created_at) VALUES (7, 9, 420, 'off', 'once', 300)",
    );
}

/** What the rows above are once brought up: each kept, sentences the hub wrote gone, minutes read. */
function expectedRows(shape: string[]) {
  const at = (piece: string) => shape.includes(piece);
  const schedule = (minuteOfDay: number, code: string, message: string | null, id: number) => ({
    id,
    user_id: 7,
    minute_of_day: minuteOfDay,
    action: "on",
    repeat: "daily",
    duration_minutes: 30,
    next_run_at: 90000,
    last_run_key: "2026-11-20T06:00",
    last_run_at: 80000,
    last_outcome: "failed",
    last_code: code,
    last_message: message,
    created_at: 100,
    kind: "clock",
    days: null,
    window_end: null,
    random_delay: 0,
    resume: 0,
    last_ran_minutes: null,
    author_user_id: null,
  });
  const scheduled = at(FIRST_SCHEDULES);
  const windowSchedule = {
    ...schedule(1320, "", null, 4),
    kind: "window",
    repeat: "weekly",
    days: 3,
    duration_minutes: 120,
    window_end: 360,
    random_delay: 1,
    resume: 1,
    next_run_at: 99000,
    last_run_key: null,
    last_run_at: null,
    last_outcome: null,
    last_code: null,
    created_at: 200,
  };
  const memberSchedule = {
    ...schedule(420, "", null, at(WINDOW_COLUMNS) ? 5 : 4),
    action: "off",
    repeat: "once",
    duration_minutes: null,
    next_run_at: null,
    last_run_key: null,
    last_run_at: null,
    last_outcome: null,
    last_code: null,
    created_at: 300,
    author_user_id: 9,
  };
  return {
    timers: [
      { name: "flush-logs", due_at: 2000 },
      { name: "liveness", due_at: 1000 },
    ],
    alert_deliveries: [],
    // Moved into the log by the hub when it starts, where its device id is known (motor-log.ts).
    log_outbox: [
      { id: 1, row: '{"action":"on"}' },
      { id: 2, row: '{"action":"off"}' },
    ],
    motor_log: [],
    power_samples: at(POWER_AND_DEBUG)
      ? [
          { id: 1, at: 5000, current: 8.5, wattage: 4800 },
          { id: 2, at: 65000, current: 8.7, wattage: 4900 },
        ]
      : [],
    debug_lines: at(POWER_AND_DEBUG)
      ? [
          { id: 1, at: 5000, line: "boot" },
          { id: 2, at: 6000, line: "relay on" },
        ]
      : [],
    schedules: scheduled
      ? [
          schedule(360, "phaseFault", null, 1),
          schedule(361, "rejected", null, 2),
          schedule(362, "rejected", "Relay stuck", 3),
          ...(at(WINDOW_COLUMNS) ? [windowSchedule] : []),
          ...(at(AUTHORS) ? [memberSchedule] : []),
        ]
      : [],
    schedule_offs: scheduled
      ? [{ schedule_id: 1, planned_at: 1000, due_at: 2000, after_minutes: 45, attempts: 1 }]
      : [],
    usage_days: at(USAGE) ? [{ day: "2026-11-20", running_ms: 600000, starts: 2, energy_wh: 812.5 }] : [],
    usage_cursor: at(USAGE) ? [{ id: 1, cursor: '{"lastKnown":null,"run":null}' }] : [],
    window_runs: at(WINDOW_COLUMNS)
      ? [
          {
            schedule_id: 4,
            run_key: "2026-11-20T22:00",
            opens_at: 10,
            closes_at: 20,
            run_ms: 30,
            ran_ms: 5,
            phase: "running",
            start_at: null,
            running_since: 15,
            wake_at: null,
            resume: 1,
            random_delay: 1,
          },
        ]
      : [],
  };
}

const freshSchema = () =>
  runInDurableObject(hubStub(uniqueHubName()), (_hub: DeviceHub, state) => ({
    version: hubSchemaVersion(state.storage.sql),
    schema: schemaOf(state.storage.sql),
  }));

describe("the hub's schema versions", () => {
  it("a new hub starts at the last version, with every table", async () => {
    const fresh = await freshSchema();
    expect(fresh.version).toBe(HUB_SCHEMA_VERSION);
    const tables = fresh.schema.filter((object) => object.type === "table").map((object) => object.name);
    expect(tables.sort()).toEqual([...HUB_TABLES, "schema_version"].sort());
  });

  for (const [name, shape] of Object.entries(OLDER_SHAPES)) {
    it(`a hub from before versions (${name}) comes up to a new hub's schema, its rows kept; again changes nothing`, async () => {
      const fresh = await freshSchema();
      const result = await runInDurableObject(hubStub(uniqueHubName()), (_hub: DeviceHub, state) => {
        const { sql } = state.storage;
        emptied(sql);
        for (const piece of shape) sql.exec(piece);
        fillOlderRows(sql);
        const before = hubSchemaVersion(sql);
        migrateHubSchema(state.storage);
        const once = { version: hubSchemaVersion(sql), schema: schemaOf(sql), rows: contentsOf(sql) };
        migrateHubSchema(state.storage);
        const twice = { version: hubSchemaVersion(sql), schema: schemaOf(sql), rows: contentsOf(sql) };
        return { before, once, twice };
      });
      expect(result.before).toBe(0);
      expect(result.once.version).toBe(HUB_SCHEMA_VERSION);
      expect(result.once.schema).toEqual(fresh.schema);
      expect(result.once.rows).toEqual(expectedRows(shape));
      expect(result.twice).toEqual(result.once);
    });
  }

  it("a hub at the last version is left as it is, rows and all", async () => {
    const result = await runInDurableObject(hubStub(uniqueHubName()), (_hub: DeviceHub, state) => {
      const { sql } = state.storage;
      fillOlderRows(sql);
      const before = { schema: schemaOf(sql), rows: contentsOf(sql) };
      migrateHubSchema(state.storage);
      return { before, after: { schema: schemaOf(sql), rows: contentsOf(sql) } };
    });
    expect(result.after).toEqual(result.before);
  });
});
