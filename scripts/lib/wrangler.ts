// Runs wrangler on the same Node as this script (Node 24 from the `node` devDependency);
// the bare `wrangler` shim would pick whatever `node` is first on PATH.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The user's wrangler.toml (a build leaves a redirect to its own generated copy). */
export const WRANGLER_TOML = fileURLToPath(new URL("../../wrangler.toml", import.meta.url));

export const WRANGLER_BIN = fileURLToPath(new URL("../../node_modules/wrangler/bin/wrangler.js", import.meta.url));

/**
 * Every local wrangler run: quiet and offline (no metrics host lookups, no update check, no
 * Request.cf fetch), and without wrangler's local trace collector. That collector (on unless
 * X_LOCAL_OBSERVABILITY is false) streams a span for every storage call, socket frame and RPC
 * of every Worker and Durable Object to a tail Worker on the same workerd thread, which writes
 * them to SQLite with an fsync per batch. Measured, it made a motor command over HTTP 2–8 ms
 * slower at p50 and cost it 9 ms of CPU (docs/benchmarks.md). Deployed, Workers Logs are gathered
 * off the request's path, and `[observability]` in wrangler.toml still governs them.
 */
export const LOCAL_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  X_LOCAL_OBSERVABILITY: "false",
};

export function spawnWrangler(args: string[]): ChildProcess {
  return spawn(process.execPath, [WRANGLER_BIN, ...args], {
    env: { ...process.env, ...LOCAL_ENV },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Runs a wrangler command to completion; rejects with its output when it fails. */
export function runWrangler(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(args);
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`wrangler ${args.slice(0, 3).join(" ")} failed (${code}):\n${output}`));
    });
  });
}

/**
 * Runs a command on this Node with the terminal attached (wrangler may ask to log in or to
 * confirm migrations); rejects when it fails. `env` adds to this process's environment.
 */
export function runAttached(args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...LOCAL_ENV, ...env }, stdio: "inherit" });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.slice(0, 3).join(" ")} exited ${code}`)),
    );
  });
}
