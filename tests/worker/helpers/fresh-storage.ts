// Storage nobody else wrote, for the workerd test files that need it (docs/decisions/040): every
// workerd file shares its runtime and storage with the files before it in the same worker, and
// a file that reads what every account, box or firmware image adds to (totals, the newest logs of
// all boxes, every row of D1), applies migrations to an empty database, uploads firmware versions
// that must not exist yet, or restarts every hub first empties them.
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll } from "vitest";

let emptied = 0;

/**
 * How many times this runtime's storage has been emptied: a module that keeps rows it made (an
 * account made once for many runs) makes them again when this has moved, since modules, unlike
 * storage, live on from one file to the next.
 */
export function storageGeneration(): number {
  return emptied;
}

/** Accounts of one generation of storage are numbered from here on. */
const IDS_PER_GENERATION = 1_000_000;

/**
 * Before the file's tests: every Durable Object, D1 database and R2 bucket emptied, D1 migrated
 * again. D1 would number accounts from 1 again, and a throttle keyed by an account's id (a test
 * alert's, an owner's invitations) counted under that id before the reset answered a new account
 * with the old one's count: so the accounts of each generation are numbered past every earlier
 * one's (a row at the generation's first id, deleted, leaves AUTOINCREMENT there).
 */
export function freshStorageForThisFile(): void {
  beforeAll(async () => {
    await reset();
    emptied += 1;
    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
    const firstId = emptied * IDS_PER_GENERATION;
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO users (id, mobile_no, password_hash, created_at) VALUES (?1, 'generation-' || ?1, '-', 0)",
      ).bind(firstId),
      env.DB.prepare("DELETE FROM users WHERE id = ?1").bind(firstId),
    ]);
  });
}
