// The local D1 database that `wrangler dev` serves, reached with `wrangler d1 execute --local`.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runWrangler } from "./wrangler.ts";

export const DEFAULT_PERSIST_DIR = ".wrangler/state";

export async function applyLocalMigrations(persistTo: string): Promise<void> {
  await runWrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo]);
}

/** Runs SQL statements against the local database; returns the rows of the last one. */
export async function executeLocalSql<Row = Record<string, unknown>>(
  persistTo: string,
  sql: string,
): Promise<Row[]> {
  const directory = await mkdtemp(join(tmpdir(), "sinchai-sql-"));
  const file = join(directory, "statements.sql");
  try {
    await writeFile(file, sql);
    const output = await runWrangler([
      "d1", "execute", "DB", "--local", "--persist-to", persistTo, "--file", file, "--json",
    ]);
    const results = JSON.parse(output.slice(output.indexOf("["))) as { results?: Row[] }[];
    return results.at(-1)?.results ?? [];
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** A SQL string literal. Only ever used for values this script generated or validated. */
export function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
