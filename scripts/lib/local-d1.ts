// D1 through `wrangler d1 execute`: the local database that `wrangler dev` serves
// (`--local --persist-to`), or an environment's deployed one (`--remote --env <environment>`,
// needs `wrangler login` or CLOUDFLARE_API_TOKEN). Both run the same SQL; only the flags differ.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runWrangler } from "./wrangler.ts";

export { sqlText } from "./operator-sql.ts";

export const DEFAULT_PERSIST_DIR = ".wrangler/state";

export async function applyLocalMigrations(persistTo: string): Promise<void> {
  await runWrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo]);
}

/** Which D1 a script talks to: a local one, or the deployed one of a wrangler.toml environment. */
export type D1Target = { remote: false; persistTo: string } | { remote: true; environment: string };

/** How a script names its target to the operator. */
export function describeTarget(target: D1Target): string {
  return target.remote ? `the ${target.environment} D1 (remote)` : `local D1 (${target.persistTo})`;
}

/**
 * The `wrangler d1 execute` arguments for SQL against a target. Locally the SQL goes in a file
 * (any size: the load fleets are thousands of statements). Remotely it goes in `--command`: a
 * remote `--file` is an import, which makes the database unavailable while it runs and answers
 * with a summary instead of the rows. `-c` names the user's file, since a build leaves a
 * redirect to its own generated copy.
 */
export function d1ExecuteArgs(target: D1Target, statements: { sql: string; file: string }): string[] {
  const where = target.remote
    ? ["--remote", "--env", target.environment, "--command", statements.sql]
    : ["--local", "--persist-to", target.persistTo, "--file", statements.file];
  return ["d1", "execute", "DB", ...where, "--json", "-c", "wrangler.toml"];
}

/** Runs SQL statements against the local database; returns the rows of the last one. */
export function executeLocalSql<Row = Record<string, unknown>>(persistTo: string, sql: string): Promise<Row[]> {
  return executeSql<Row>({ remote: false, persistTo }, sql);
}

/** Runs SQL statements against local or remote D1; returns the rows of the last one. */
export async function executeSql<Row = Record<string, unknown>>(target: D1Target, sql: string): Promise<Row[]> {
  const directory = await mkdtemp(join(tmpdir(), "sinchai-sql-"));
  const file = join(directory, "statements.sql");
  try {
    if (!target.remote) await writeFile(file, sql);
    const output = await runWrangler(d1ExecuteArgs(target, { sql, file }));
    const results = JSON.parse(output.slice(output.indexOf("["))) as { results?: Row[] }[];
    return results.at(-1)?.results ?? [];
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
