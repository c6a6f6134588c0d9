// A local production Worker with a fleet of simulated boxes and their farmers signed in.
import { readFileSync } from "node:fs";
import WebSocket from "ws";
import { ApiClient } from "../common/api-client.ts";
import { hashPassword } from "../common/credentials.ts";
import {
  localDeviceSocketUrl,
  type SimulatedDevice,
  type SimulatedDeviceOptions,
  simulateBox,
} from "../device-sim/simulated-device.ts";
import { executeLocalSql } from "../scripts/lib/local-d1.ts";
import { FLEET_PASSWORD, provisionLocalFleet } from "../scripts/lib/local-devices.ts";
import {
  freePort,
  freshPersistDir,
  type LocalWorker,
  startLocalWorker,
  THROWAWAY_JWT_SECRET,
} from "../scripts/lib/local-worker.ts";

export type Fleet = {
  worker: LocalWorker;
  /** Seconds from the first socket to the last box's welcome. */
  connectSeconds: number;
  devices: SimulatedDevice[];
  /** Each box's id and key, in the order of `devices`. */
  credentials: { deviceId: string; key: string }[];
  mobileNos: string[];
  stop: () => Promise<void>;
};

const CONNECT_BATCH = 50;

/**
 * How many boxes one local runtime can hold here. Every box's socket costs wrangler's local
 * chain about 4.6 file descriptors (measured: 15,725 open in workerd at 3,400 boxes), and a
 * process may open only as many as `ulimit -n` (20,000 on this machine, not raisable in its
 * container): past ~4,300 boxes workerd runs out and drops every socket. Cloudflare has no
 * such shared limit: each hub is its own object.
 */
export function localFleetCeiling(): number {
  const limits = readFileSync("/proc/self/limits", "utf8");
  const openFiles = Number(/^Max open files\s+(\d+|unlimited)/m.exec(limits)?.[1] ?? "unlimited");
  return Number.isFinite(openFiles) ? Math.floor((openFiles * 0.9) / 4.6 / 100) * 100 : Infinity;
}

/**
 * The production build must exist (`npm run build`) unless `worker` is "api" (the API and hubs
 * without React Router, as the Node-side tests run them); `persistTo`: a migrated database.
 */
export async function startFleet(
  count: number,
  options: Partial<SimulatedDeviceOptions> = {},
  runtime: { kind: "build" | "api"; persistTo?: string; vars?: Record<string, string> } = { kind: "build" },
): Promise<Fleet> {
  const worker = await startLocalWorker({
    kind: runtime.kind,
    persistTo: runtime.persistTo ?? (await freshPersistDir()),
    port: await freePort(),
    jwtSecret: THROWAWAY_JWT_SECRET,
    vars: runtime.vars,
  });
  const credentials = await provisionLocalFleet(worker.persistTo, { count, kind: "3phase", horsePower: 5 });
  const devices = credentials.map((credential) => simulateBox(localDeviceSocketUrl(worker.port), credential, options));
  // Connect in batches, each after the last is in. All at once (or on a fixed fast ramp) the
  // one local runtime falls behind on handshakes past ~500 pending, the boxes time out and
  // retry, and the retries keep it behind: 5,000 on a 4 ms ramp never all connected. A real
  // fleet after a deploy spreads itself out with jittered backoff (docs/device-protocol.md).
  const started = performance.now();
  try {
    for (let first = 0; first < devices.length; first += CONNECT_BATCH) {
      const batch = devices.slice(first, first + CONNECT_BATCH);
      for (const device of batch) device.start();
      await Promise.all(batch.map((device) => device.waitUntilConnected(120_000)));
    }
  } catch (error) {
    // Leave nothing running: an orphaned workerd keeps its memory and its sockets.
    await Promise.all(devices.map((device) => device.stop()));
    await worker.stop();
    throw error;
  }
  const connectSeconds = (performance.now() - started) / 1000;
  return {
    worker,
    connectSeconds,
    devices,
    credentials,
    mobileNos: credentials.map((credential) => credential.ownerMobileNo),
    stop: async () => {
      await Promise.all(devices.map((device) => device.stop()));
      await worker.stop();
    },
  };
}

/** A bearer token for each farmer, in order. */
export async function logInFarmers(worker: LocalWorker, mobileNos: string[]): Promise<string[]> {
  const tokens: string[] = [];
  for (const mobileNo of mobileNos) tokens.push(await new ApiClient(worker.url).logIn(mobileNo, FLEET_PASSWORD));
  return tokens;
}

/** An admin made straight in the local database (there is no admin sign-up), signed in. */
export async function benchAdminToken(worker: LocalWorker, mobileNo = "9000000099"): Promise<string> {
  const password = "bench-admin-password";
  await executeLocalSql(
    worker.persistTo,
    `INSERT INTO users (mobile_no, password_hash, is_admin, created_at) VALUES ('${mobileNo}', '${await hashPassword(password)}', 1, ${Date.now()})
     ON CONFLICT(mobile_no) DO NOTHING;`,
  );
  return new ApiClient(worker.url).logIn(mobileNo, password, "admin");
}

/** A farmer's page on the pump of `mobileNo`: its realtime socket, signed in with `token`. */
export function openPageSocket(port: number, mobileNo: string, token: string): WebSocket {
  return new WebSocket(`ws://localhost:${port}/api/realtime?mobileNo=${mobileNo}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
}
