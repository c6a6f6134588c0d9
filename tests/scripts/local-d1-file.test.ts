// The operator scripts, the demo seed and the tests write the local D1 in place, in the file
// workerd serves to `wrangler dev`: the same database `wrangler d1 execute --local` reaches, with
// D1's rules (a batch is all or none, foreign keys enforced).
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeLocalSql, sqlText } from "../../scripts/lib/local-d1.ts";
import {
  durableObjectIdFromName,
  localD1File,
  localDatabaseId,
  splitStatements,
  unappliedLocalMigrations,
} from "../../scripts/lib/local-d1-file.ts";
import { LOCAL_ENV, WRANGLER_BIN } from "../../scripts/lib/wrangler.ts";
import { freshPersistDir } from "../integration/local-worker.ts";
import { runNode } from "./run-node.ts";

let persistTo: string;

beforeAll(async () => {
  persistTo = await freshPersistDir();
});

afterAll(() => rm(persistTo, { recursive: true, force: true }));

describe("the local D1 file", () => {
  it("is the one wrangler made for wrangler.toml's local database_id", () => {
    expect(localDatabaseId()).toBe("00000000-0000-4000-8000-000000000000");
    // workerd's own name for it, as a known pair (the file a local `wrangler dev` keeps).
    expect(durableObjectIdFromName("miniflare-D1DatabaseObject", localDatabaseId())).toBe(
      "faaf2b0445ab934c3aac48ddf0cdfade8f9bac050be98993748742cdd2cb05fb",
    );
    expect(existsSync(localD1File(persistTo))).toBe(true);
  });

  it("holds what `wrangler d1 execute --local` wrote, and wrangler reads what it wrote", async () => {
    await executeLocalSql(persistTo, "CREATE TABLE crossing (side TEXT NOT NULL);");
    await executeLocalSql(persistTo, `INSERT INTO crossing (side) VALUES (${sqlText("node:sqlite")});`);
    const wrangler = await runNode(
      [
        WRANGLER_BIN,
        ...["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--json", "-c", "wrangler.toml"],
        ...["--command", "INSERT INTO crossing (side) VALUES ('wrangler'); SELECT side FROM crossing ORDER BY side;"],
      ],
      { env: { ...process.env, ...LOCAL_ENV } },
    );
    expect(wrangler.code, wrangler.output).toBe(0);
    expect(wrangler.stdout).toContain('"side": "node:sqlite"');
    const rows = await executeLocalSql<{ side: string }>(persistTo, "SELECT side FROM crossing ORDER BY side;");
    expect(rows.map((row) => row.side)).toEqual(["node:sqlite", "wrangler"]);
  });

  it("answers the rows of the last statement", async () => {
    const rows = await executeLocalSql<{ answer: number; text: string }>(
      persistTo,
      "SELECT 1 AS answer; SELECT 42 AS answer, 'a;b' AS text;",
    );
    expect(rows).toEqual([{ answer: 42, text: "a;b" }]);
    expect(await executeLocalSql(persistTo, "CREATE TABLE IF NOT EXISTS crossing (side TEXT);")).toEqual([]);
  });

  it("runs a batch all or none: a failing statement leaves the earlier ones unwritten", async () => {
    await executeLocalSql(persistTo, "CREATE TABLE batch_check (n INTEGER NOT NULL);");
    await expect(
      executeLocalSql(persistTo, "INSERT INTO batch_check (n) VALUES (1); INSERT INTO batch_check (n) VALUES (NULL);"),
    ).rejects.toThrow(/NOT NULL/);
    expect(await executeLocalSql(persistTo, "SELECT n FROM batch_check;")).toEqual([]);
  });

  it("enforces foreign keys, as D1 does", async () => {
    await executeLocalSql(
      persistTo,
      "CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parent_id INTEGER NOT NULL REFERENCES parent (id));",
    );
    await expect(executeLocalSql(persistTo, "INSERT INTO child (parent_id) VALUES (7);")).rejects.toThrow(
      /FOREIGN KEY/,
    );
  });

  it("reads beside a writer that holds the lock, as `wrangler dev` serving the file may, without taking the lock itself", async () => {
    const writer = new DatabaseSync(localD1File(persistTo));
    writer.exec("BEGIN IMMEDIATE");
    try {
      // A write lock asked for here would wait the file's 10 s busy timeout, then fail.
      expect(await executeLocalSql(persistTo, "SELECT 7 AS answer;")).toEqual([{ answer: 7 }]);
    } finally {
      writer.exec("ROLLBACK");
      writer.close();
    }
  });

  it("refuses a directory with no migrated database rather than making an empty one beside it", async () => {
    const empty = await mkdtemp(join(tmpdir(), "sinchai-empty-"));
    try {
      await expect(executeLocalSql(empty, "SELECT 1;")).rejects.toThrow(/No local D1 .* apply the migrations first/);
      expect(existsSync(localD1File(empty))).toBe(false);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe("unappliedLocalMigrations: what spares a migrated database the migration run", () => {
  it("is every migration for a directory with no database, none for a migrated one, and a forgotten one by name", async () => {
    const migrations = (await readdir("migrations")).filter((name) => name.endsWith(".sql"));
    expect(migrations.length).toBeGreaterThan(10);
    expect(unappliedLocalMigrations(join(tmpdir(), "sinchai-nothing-here"))).toEqual(migrations);
    const own = await freshPersistDir();
    try {
      expect(unappliedLocalMigrations(own)).toEqual([]);
      await executeLocalSql(own, `DELETE FROM d1_migrations WHERE name = ${sqlText(migrations[3]!)};`);
      expect(unappliedLocalMigrations(own)).toEqual([migrations[3]]);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});

describe("splitStatements", () => {
  it("splits at the semicolons outside literals, quoted names and comments", () => {
    expect(
      splitStatements(
        "INSERT INTO t VALUES ('it''s; fine', \"a;b\"); -- a note; not a statement\nSELECT [x;y] FROM t /* ; */;\n  ",
      ),
    ).toEqual([
      "INSERT INTO t VALUES ('it''s; fine', \"a;b\")",
      " -- a note; not a statement\nSELECT [x;y] FROM t /* ; */",
    ]);
  });

  it("keeps a last statement without its semicolon and drops empty ones", () => {
    expect(splitStatements(";;SELECT 1;  ;SELECT 2")).toEqual(["SELECT 1", "SELECT 2"]);
  });
});
