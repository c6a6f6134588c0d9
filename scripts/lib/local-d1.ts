// D1 through `wrangler d1 execute`: the local database that `wrangler dev` serves
// (`--local --persist-to`), or the deployed one (`--remote`, needs wrangler login or
// CLOUDFLARE_API_TOKEN).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runWrangler } from "./wrangler.ts";

export const DEFAULT_PERSIST_DIR = ".wrangler/state";

export async function applyLocalMigrations(persistTo: string): Promise<void> {
  await runWrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo]);
}

/** Which D1 a script talks to. */
export type D1Target = { remote: true } | { remote: false; persistTo: string };

/** Runs SQL statements against the local database; returns the rows of the last one. */
export function executeLocalSql<Row = Record<string, unknown>>(persistTo: string, sql: string): Promise<Row[]> {
  return executeSql<Row>({ remote: false, persistTo }, sql);
}

/** Runs SQL statements against local or remote D1; returns the rows of the last one. */
export async function executeSql<Row = Record<string, unknown>>(target: D1Target, sql: string): Promise<Row[]> {
  const directory = await mkdtemp(join(tmpdir(), "sinchai-sql-"));
  const file = join(directory, "statements.sql");
  try {
    await writeFile(file, sql);
    const where = target.remote ? ["--remote"] : ["--local", "--persist-to", target.persistTo];
    const output = await runWrangler(["d1", "execute", "DB", ...where, "--file", file, "--json", "-c", "wrangler.toml"]);
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
