// The real local Worker for Node-side tests: the API and hubs (no build needed) on a fresh database.
import {
  freePort,
  freshPersistDir,
  type LocalWorker,
  startLocalWorker as start,
  THROWAWAY_JWT_SECRET,
} from "../../scripts/lib/local-worker.ts";

export { freePort, freshPersistDir, type LocalWorker };

/** `vars`: this run's over wrangler.toml's, such as the local telephony provider's address. */
export function startLocalWorker(persistTo: string, port: number, vars?: Record<string, string>): Promise<LocalWorker> {
  return start({ kind: "api", persistTo, port, jwtSecret: THROWAWAY_JWT_SECRET, vars });
}
