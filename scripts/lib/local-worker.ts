// A local Worker for scripts and Node-side tests: workerd through `wrangler dev`, with D1, the
// DeviceHubs and R2 on this machine. Two kinds:
//   "build": the production build (after `react-router build`), as `npm start` serves it;
//   "api":   tests/worker-test-entry.ts, the API and hubs without React Router (no build needed).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyLocalMigrations } from "./local-d1.ts";
import { LOCAL_ENV, WRANGLER_BIN } from "./wrangler.ts";

/** The secret for throwaway local workers; `npm start` uses .dev.vars instead. */
export const THROWAWAY_JWT_SECRET = "throwaway-local-worker-secret-0123456789";

export type LocalWorker = {
  url: string;
  port: number;
  persistTo: string;
  /** The wrangler process; workerd runs as its child. */
  process: ChildProcess;
  stop: () => Promise<void>;
};

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

export async function freshPersistDir(): Promise<string> {
  const persistTo = await mkdtemp(join(tmpdir(), "sinchai-local-"));
  await applyLocalMigrations(persistTo);
  return persistTo;
}

/** Starts `wrangler dev` and resolves once it answers; `onOutput` gets its log lines. */
export async function startLocalWorker(options: {
  kind: "build" | "api";
  persistTo: string;
  port: number;
  /** Omit to use .dev.vars (what `npm start` does). */
  jwtSecret?: string;
  /** Vars of this run over wrangler.toml's (`--var NAME:value`): the local provider's address, the tests' push hosts. */
  vars?: Record<string, string>;
  onOutput?: (chunk: string) => void;
}): Promise<LocalWorker> {
  const entry = options.kind === "api" ? ["tests/worker-test-entry.ts", "-c", "wrangler.toml"] : [];
  const secret = options.jwtSecret ? ["--var", `JWT_SECRET:${options.jwtSecret}`] : [];
  const vars = Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  // Each wrangler dev also listens for a debugger, on 9229 unless told: two starting at once
  // (tests side by side, a test beside `npm start`) both find it free and the second dies with
  // "Address already in use".
  const inspectorPort = await freePort();
  const child = spawn(
    process.execPath,
    [
      WRANGLER_BIN,
      "dev",
      ...entry,
      "--port",
      String(options.port),
      "--persist-to",
      options.persistTo,
      "--inspector-port",
      String(inspectorPort),
      ...secret,
      ...vars,
      "--show-interactive-dev-session=false",
    ],
    { env: { ...process.env, ...LOCAL_ENV }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    if (output.length < 20_000) output += text;
    options.onOutput?.(text);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const url = `http://localhost:${options.port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${output}`);
    try {
      const response = await fetch(`${url}/api/no-such-route`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 404) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(`wrangler dev did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    port: options.port,
    persistTo: options.persistTo,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
