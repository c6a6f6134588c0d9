// A real local Worker for Node-side tests: workerd through `wrangler dev`, with D1, the
// DeviceHubs and R2, on a fresh database. The entry is the API without React Router.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyLocalMigrations } from "../../scripts/lib/local-d1.ts";
import { OFFLINE_ENV, WRANGLER_BIN } from "../../scripts/lib/wrangler.ts";

export const INTEGRATION_JWT_SECRET = "integration-tests-only-secret-0123456789";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export type LocalWorker = { url: string; port: number; persistTo: string; stop: () => Promise<void> };

export async function freshPersistDir(): Promise<string> {
  const persistTo = await mkdtemp(join(tmpdir(), "sinchai-integration-"));
  await applyLocalMigrations(persistTo);
  return persistTo;
}

/** Starts `wrangler dev` on `persistTo` and resolves once it answers. */
export async function startLocalWorker(persistTo: string, port: number): Promise<LocalWorker> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      WRANGLER_BIN, "dev", "tests/worker-test-entry.ts", "-c", "wrangler.toml",
      "--port", String(port), "--persist-to", persistTo,
      "--var", `JWT_SECRET:${INTEGRATION_JWT_SECRET}`,
      "--show-interactive-dev-session=false", "--log-level", "warn",
    ],
    { env: { ...process.env, ...OFFLINE_ENV }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health-check-does-not-exist`)).status === 404) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`wrangler dev did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    port,
    persistTo,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
