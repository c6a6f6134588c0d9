// D1 for the operator scripts: the local database that `wrangler dev` serves (`--persist-to`),
// written in place (./local-d1-file.ts), or an environment's deployed one through
// `wrangler d1 execute --remote --env <environment>` (needs `wrangler login` or
// CLOUDFLARE_API_TOKEN). Both run the same SQL.
import { applyMigrationsToLocalFile, executeLocalFile, unappliedLocalMigrations } from "./local-d1-file.ts";
import { runWrangler } from "./wrangler.ts";

export { sqlText } from "./operator-sql.ts";

export const DEFAULT_PERSIST_DIR = ".wrangler/state";

/** Applies the migrations the local D1 lacks, in place (./local-d1-file.ts); a database already up to date is only read. */
export async function applyLocalMigrations(persistTo: string): Promise<void> {
  if (unappliedLocalMigrations(persistTo).length === 0) return;
  applyMigrationsToLocalFile(persistTo);
}

/** Which D1 a script talks to: a local one, or the deployed one of a wrangler.toml environment. */
export type D1Target = { remote: false; persistTo: string } | { remote: true; environment: string };

/** How a script names its target to the operator. */
export function describeTarget(target: D1Target): string {
  return target.remote ? `the ${target.environment} D1 (remote)` : `local D1 (${target.persistTo})`;
}

/**
 * The `wrangler d1 execute` arguments for SQL against a deployed database. The SQL goes in
 * `--command`: a remote `--file` is an import, which makes the database unavailable while it
 * runs and answers with a summary instead of the rows. `-c` names the user's file, since a
 * build leaves a redirect to its own generated copy.
 */
export function remoteD1ExecuteArgs(environment: string, sql: string): string[] {
  return ["d1", "execute", "DB", "--remote", "--env", environment, "--command", sql, "--json", "-c", "wrangler.toml"];
}

/** Runs SQL statements against the local database; returns the rows of the last one. */
export function executeLocalSql<Row = Record<string, unknown>>(persistTo: string, sql: string): Promise<Row[]> {
  return executeSql<Row>({ remote: false, persistTo }, sql);
}

/** Runs SQL statements against local or remote D1; returns the rows of the last one. */
export async function executeSql<Row = Record<string, unknown>>(target: D1Target, sql: string): Promise<Row[]> {
  if (!target.remote) return executeLocalFile<Row>(target.persistTo, sql);
  const output = await runWrangler(remoteD1ExecuteArgs(target.environment, sql));
  const results = JSON.parse(output.slice(output.indexOf("["))) as { results?: Row[] }[];
  return results.at(-1)?.results ?? [];
}
