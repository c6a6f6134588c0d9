// The real local Worker for Node-side tests: the API and hubs (no build needed) on a fresh database.
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import {
  freePort,
  type LocalWorker,
  startLocalWorker as start,
  THROWAWAY_JWT_SECRET,
} from "../../scripts/lib/local-worker.ts";

export { freePort, type LocalWorker };

/** `vars`: this run's over wrangler.toml's, such as the local telephony provider's address. */
export function startLocalWorker(persistTo: string, port: number, vars?: Record<string, string>): Promise<LocalWorker> {
  return start({ kind: "api", persistTo, port, jwtSecret: THROWAWAY_JWT_SECRET, vars });
}

/** A database of this test's own, every migration applied: a copy of the run's migrated one (tests/migrated-d1.global-setup.ts). */
export async function freshPersistDir(): Promise<string> {
  const persistTo = await mkdtemp(join(tmpdir(), "sinchai-test-"));
  await cp(inject("migratedPersistDir"), persistTo, { recursive: true });
  return persistTo;
}
