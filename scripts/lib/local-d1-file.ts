// The local D1 read and written in place: the SQLite file that workerd serves to `wrangler dev`
// (`--persist-to`). `wrangler d1 execute --local` starts a wrangler and a workerd for every call
// (about 1.8 s of CPU); the operator scripts, the demo seed and the tests call it hundreds of
// times per run, so locally the same SQL goes to the file through `node:sqlite` instead, in one
// transaction as D1 runs a batch, with D1's foreign keys on. Both processes lock the file the way
// SQLite always does, as a second `wrangler d1 execute` beside `wrangler dev` would.
// Decision record: docs/decisions/030-local-d1-through-node-sqlite.md.
import { createHash, createHmac } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { WRANGLER_TOML } from "./wrangler.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("../../migrations/", import.meta.url));

/** Miniflare keeps each local D1 as a Durable Object named by its database_id, in a folder of this name. */
const D1_OBJECT_UNIQUE_KEY = "miniflare-D1DatabaseObject";

/** The local database_id: the first `[[d1_databases]]` entry's, the top level's (local mode). */
export function localDatabaseId(toml: string = readFileSync(WRANGLER_TOML, "utf8")): string {
  const block = toml.slice(toml.indexOf("[[d1_databases]]"));
  const id = /^database_id\s*=\s*"([^"]+)"/m.exec(block)?.[1];
  if (!id) throw new Error("wrangler.toml names no local D1 database_id.");
  return id;
}

/**
 * workerd's name for a Durable Object from its name, as its `idFromName` computes it: the
 * HMAC-SHA256 of the name under the SHA-256 of the namespace's unique key, cut to 16 bytes,
 * followed by the same MAC of those 16 bytes, cut to 16. The local file is `<hex>.sqlite`.
 */
export function durableObjectIdFromName(uniqueKey: string, name: string): string {
  const key = createHash("sha256").update(uniqueKey).digest();
  const base = createHmac("sha256", key).update(name).digest().subarray(0, 16);
  const mac = createHmac("sha256", key).update(base).digest().subarray(0, 16);
  return Buffer.concat([base, mac]).toString("hex");
}

export function localD1File(persistTo: string, databaseId: string = localDatabaseId()): string {
  const id = durableObjectIdFromName(D1_OBJECT_UNIQUE_KEY, databaseId);
  return join(persistTo, "v3", "d1", D1_OBJECT_UNIQUE_KEY, `${id}.sqlite`);
}

/**
 * The statements of a SQL text, split at the semicolons outside quotes and comments (the
 * operator SQL writes its values inline as quoted literals, which may hold semicolons).
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let index = 0;
  const skipTo = (end: string, from: number) => {
    const at = sql.indexOf(end, from);
    return at === -1 ? sql.length : at + end.length;
  };
  while (index < sql.length) {
    const char = sql[index]!;
    if (char === "'" || char === '"' || char === "`") {
      // A doubled quote inside a literal is an escaped quote: skipping to the next one and
      // going on from there reads it as two adjacent literals, which splits the same way.
      index = skipTo(char, index + 1);
    } else if (char === "[") index = skipTo("]", index + 1);
    else if (sql.startsWith("--", index)) index = skipTo("\n", index + 2);
    else if (sql.startsWith("/*", index)) index = skipTo("*/", index + 2);
    else if (char === ";") {
      statements.push(sql.slice(start, index));
      start = ++index;
    } else index++;
  }
  statements.push(sql.slice(start));
  return statements.filter((statement) => statement.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, "").trim() !== "");
}

/** Runs SQL statements against the local D1 file, all or none; returns the rows of the last. */
export function executeLocalFile<Row>(persistTo: string, sql: string): Row[] {
  const file = localD1File(persistTo);
  // Opening a missing file would create an empty database beside the one wrangler dev serves.
  if (!existsSync(file)) {
    throw new Error(`No local D1 at ${file}: apply the migrations first (npm start does it).`);
  }
  const database = new DatabaseSync(file, { timeout: 10_000 });
  try {
    database.exec("PRAGMA foreign_keys = ON");
    const statements = splitStatements(sql);
    let rows: Row[] = [];
    // Reads take no write lock: a `wrangler dev` serving the file goes on writing meanwhile.
    const reads = statements.every((statement) =>
      /^\s*select\b/i.test(statement.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, "")),
    );
    database.exec(reads ? "BEGIN" : "BEGIN IMMEDIATE");
    try {
      for (const statement of statements) {
        const prepared = database.prepare(statement);
        if (prepared.columns().length > 0) rows = prepared.all() as Row[];
        else {
          prepared.run();
          rows = [];
        }
      }
      database.exec("COMMIT");
    } catch (error) {
      database.exec("ROLLBACK");
      throw error;
    }
    return rows;
  } finally {
    database.close();
  }
}

/** The migrations' file names, in the order wrangler applies them. */
export function migrationFiles(directory: string = MIGRATIONS_DIR): string[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith(".sql"))
    .sort();
}

/**
 * The migrations (file names in `migrations/`) the local D1 has not recorded as applied, all of
 * them when it does not exist yet. wrangler records each in `d1_migrations` as it applies it.
 */
export function unappliedLocalMigrations(persistTo: string): string[] {
  const files = migrationFiles();
  const file = localD1File(persistTo);
  if (!existsSync(file)) return files;
  const database = new DatabaseSync(file, { timeout: 10_000, readOnly: true });
  try {
    const recorded = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'")
      .get();
    if (!recorded) return files;
    const applied = new Set(
      database
        .prepare("SELECT name FROM d1_migrations")
        .all()
        .map((row) => String(row.name)),
    );
    return files.filter((name) => !applied.has(name));
  } finally {
    database.close();
  }
}

/** wrangler's table of applied migrations, as `wrangler d1 migrations apply` makes it. */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations(
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/**
 * Applies to the local D1 file every migration it has not recorded, making the file if there is
 * none, and recording each in `d1_migrations` as wrangler does. Each migration is one write
 * transaction that first looks whether it is recorded: two runs at once (`npm start` beside
 * `npm run admin:create`) take turns on SQLite's write lock and the second finds it done, and a
 * run killed midway leaves whole migrations only. `wrangler d1 migrations apply --local` did
 * neither: its launcher runs the real command as a child that goes on applying when the
 * launcher is killed, beside the next run that read the list before it.
 */
export function applyMigrationsToLocalFile(persistTo: string, migrationsDir: string = MIGRATIONS_DIR): void {
  const file = localD1File(persistTo);
  mkdirSync(dirname(file), { recursive: true });
  // A writer holding the lock (another run, `wrangler dev` serving this file) is waited for.
  const database = new DatabaseSync(file, { timeout: 60_000 });
  try {
    // As workerd keeps every Durable Object's database.
    database.exec("PRAGMA journal_mode = WAL");
    database.exec("PRAGMA foreign_keys = ON");
    database.exec(MIGRATIONS_TABLE);
    const recorded = database.prepare("SELECT 1 FROM d1_migrations WHERE name = ?");
    const record = database.prepare("INSERT INTO d1_migrations (name) VALUES (?)");
    for (const name of migrationFiles(migrationsDir)) {
      database.exec("BEGIN IMMEDIATE");
      try {
        if (!recorded.get(name)) {
          for (const statement of splitStatements(readFileSync(join(migrationsDir, name), "utf8"))) {
            database.exec(statement);
          }
          record.run(name);
        }
        database.exec("COMMIT");
      } catch (error) {
        database.exec("ROLLBACK");
        throw new Error(`Migration ${name} failed on ${file}: ${(error as Error).message}`);
      }
    }
  } finally {
    database.close();
  }
}
