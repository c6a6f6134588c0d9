// A local Worker for scripts and Node-side tests: workerd through `wrangler dev`, with D1, the
// DeviceHubs and R2 on this machine. Two kinds:
//   "build": the production build (after `react-router build`), as `npm start` serves it;
//   "api":   tests/worker-test-entry.ts, the API and hubs without React Router (no build needed).
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyLocalMigrations } from "./local-d1.ts";
import { START_LIMIT_MS } from "./start-limit.ts";
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

/**
 * A port for a server of ours (a Worker, its debugger) to be started on. It is free when picked
 * but not held, so it is picked below the range the system hands out for port 0: a server that
 * something else starts on port 0 (the local telephony provider, wrangler's own runtime) can never
 * be given it before wrangler binds it, and answer at the Worker's address.
 */
export async function freePort(): Promise<number> {
  const below = firstPortForPortZero();
  const lowest = Math.max(1_024, below - 12_000);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = lowest + Math.floor(Math.random() * (below - lowest));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${lowest} and ${below}`);
}

/** Linux says where its range starts; elsewhere (macOS: 49152) 32768 is below it too. */
function firstPortForPortZero(): number {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
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
  const deadline = Date.now() + START_LIMIT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${output}`);
    let answer: Response | null = null;
    try {
      answer = await fetch(`${url}/api/no-such-route`, { signal: AbortSignal.timeout(2_000) });
    } catch {
      // not listening yet
    }
    // Our Worker times every answer (worker/fetch-handler.ts); a 404 without it is another server's.
    if (answer?.status === 404) {
      if (answer.headers.get("Server-Timing")?.includes("worker;dur")) break;
      child.kill("SIGTERM");
      throw new Error(`port ${options.port} is answered by another server, not this Worker`);
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
