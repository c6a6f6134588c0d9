// The local D1's migrations as `npm start`, `npm run admin:create` and the tests apply them
// (applyLocalMigrations): two runs at once on one database, a run beside an earlier one that was
// killed but goes on, and a migration that fails midway each leave a database every later run
// migrates to the end, with each migration applied whole and once.
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { applyLocalMigrations } from "../../scripts/lib/local-d1.ts";
import {
  applyMigrationsToLocalFile,
  localD1File,
  migrationFiles,
  unappliedLocalMigrations,
} from "../../scripts/lib/local-d1-file.ts";
import { spawnWrangler } from "../../scripts/lib/wrangler.ts";
import { runNode } from "./run-node.ts";

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function emptyDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "sinchai-migrations-"));
  directories.push(directory);
  return directory;
}

/** What `sql` answers on the local D1 of `persistTo`; [] when it fails (no database or table yet). */
function query(persistTo: string, sql: string): Record<string, unknown>[] {
  try {
    const database = new DatabaseSync(localD1File(persistTo), { readOnly: true, timeout: 10_000 });
    try {
      return database.prepare(sql).all();
    } finally {
      database.close();
    }
  } catch {
    return [];
  }
}

/** The names recorded in d1_migrations, in the order recorded, each as often as it was. */
const recorded = (persistTo: string) =>
  query(persistTo, "SELECT name FROM d1_migrations ORDER BY id").map((row) => String(row.name));

/** The pids of a process's children (Linux). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe("applying the local D1's migrations", () => {
  it("two runs on one new database at once, in two processes, both succeed, and each migration is applied once", async () => {
    const persistTo = await emptyDirectory();
    const apply = () =>
      runNode([
        "--input-type=module",
        "-e",
        `import { applyLocalMigrations } from "./scripts/lib/local-d1.ts"; await applyLocalMigrations(${JSON.stringify(persistTo)});`,
      ]);
    const runs = await Promise.all([apply(), apply(), apply()]);
    for (const run of runs) expect(run.code, run.output).toBe(0);
    expect(unappliedLocalMigrations(persistTo)).toEqual([]);
    expect(recorded(persistTo)).toEqual(migrationFiles());
  });

  it("a run beside a killed `wrangler d1 migrations apply` that goes on applying migrates the database to the end", async () => {
    const persistTo = await emptyDirectory();
    const launcher = spawnWrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo]);
    const exited = new Promise((resolve) => launcher.once("exit", resolve));
    // Its launcher killed as soon as the first migration is recorded: the command it started goes on.
    await Promise.race([
      exited,
      (async () => {
        while (recorded(persistTo).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      })(),
    ]);
    const command = childrenOf(launcher.pid!);
    launcher.kill("SIGKILL");
    await exited;
    try {
      await applyLocalMigrations(persistTo);
      expect(recorded(persistTo)).toEqual(migrationFiles());
    } finally {
      for (const pid of command) process.kill(pid, "SIGKILL");
    }
  });

  it("a migration that fails midway is applied not at all, and the next run applies it whole", async () => {
    const persistTo = await emptyDirectory();
    const migrations = await emptyDirectory();
    await mkdir(migrations, { recursive: true });
    await writeFile(join(migrations, "0000_first.sql"), "CREATE TABLE first (id INTEGER PRIMARY KEY);");
    await writeFile(
      join(migrations, "0001_second.sql"),
      "CREATE TABLE second (id INTEGER PRIMARY KEY);--> statement-breakpoint\nINSERT INTO nowhere VALUES (1);",
    );
    expect(() => applyMigrationsToLocalFile(persistTo, migrations)).toThrow(/0001_second.sql.*no such table: nowhere/);
    expect(recorded(persistTo)).toEqual(["0000_first.sql"]);
    expect(query(persistTo, "SELECT name FROM sqlite_master WHERE name = 'second'")).toEqual([]);

    await writeFile(
      join(migrations, "0001_second.sql"),
      "CREATE TABLE second (id INTEGER PRIMARY KEY);--> statement-breakpoint\nINSERT INTO second VALUES (1);",
    );
    applyMigrationsToLocalFile(persistTo, migrations);
    expect(recorded(persistTo)).toEqual(["0000_first.sql", "0001_second.sql"]);
    expect(query(persistTo, "SELECT id FROM second")).toEqual([{ id: 1 }]);
  });
});
