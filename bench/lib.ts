// Small helpers for the benchmarks: percentiles, process CPU and memory from /proc, the local
// floors (a WebSocket echo, a Durable Object relay), timing.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { freePort } from "../scripts/lib/local-worker.ts";
import { processTree } from "../scripts/lib/process-tree.ts";
import { LOCAL_ENV, WRANGLER_BIN } from "../scripts/lib/wrangler.ts";

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The workerd processes under a wrangler process. */
export function workerdPids(wranglerPid: number): number[] {
  return processTree(wranglerPid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "workerd";
    } catch {
      return false;
    }
  });
}

/** The sum of `read` over processes or threads, leaving out those that ended while we read. */
function sumOverLiving<Id>(ids: Id[], read: (id: Id) => number): number {
  let total = 0;
  for (const id of ids) {
    try {
      total += read(id);
    } catch {
      // gone
    }
  }
  return total;
}

/** CPU time the processes' threads have run, in nanoseconds (schedstat: fine-grained). */
export function cpuNanoseconds(pids: number[]): number {
  return sumOverLiving(pids, (pid) =>
    sumOverLiving(readdirSync(`/proc/${pid}/task`), (tid) =>
      Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]),
    ),
  );
}

export function rssMegabytes(pids: number[]): number {
  const kb = sumOverLiving(pids, (pid) =>
    Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0),
  );
  return Math.round(kb / 1024);
}

/**
 * The two workerd processes of one `wrangler dev`: in `front`, wrangler's proxy, which owns the
 * port clients reach and passes every request and frame on to `runtime` over a socket of its
 * own; in `runtime`, the Worker, its Durable Objects and D1 (miniflare's services), on one
 * thread. Told apart by the address each serves.
 */
export type LocalProcesses = { front: number; runtime: number };

export function localProcesses(wranglerPid: number, port: number): LocalProcesses {
  const pids = workerdPids(wranglerPid);
  const serves = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(`=localhost:${port}\0`);
  const front = pids.filter(serves);
  const runtime = pids.filter((pid) => !serves(pid));
  if (front.length !== 1 || runtime.length !== 1)
    throw new Error(`expected wrangler's proxy and one runtime, found workerd ${pids.join(", ")} for port ${port}`);
  return { front: front[0]!, runtime: runtime[0]! };
}

/** What each process's threads ran while a call was made, in ms. */
export type ProcessCpu = { front: number; runtime: number };

/** Runs `call`, and reads what each of `processes` spent meanwhile (schedstat, fine-grained). */
export async function cpuDuring<T>(
  processes: LocalProcesses,
  call: () => Promise<T>,
): Promise<{ result: T; cpu: ProcessCpu }> {
  const front = cpuNanoseconds([processes.front]);
  const runtime = cpuNanoseconds([processes.runtime]);
  const result = await call();
  const cpu = {
    front: (cpuNanoseconds([processes.front]) - front) / 1e6,
    runtime: (cpuNanoseconds([processes.runtime]) - runtime) / 1e6,
  };
  return { result, cpu };
}

/** One call through a floor: its time and what its runtime's two processes spent on it, in ms. */
export type FloorCall = { ms: number; cpu: ProcessCpu };

/**
 * Starts one of the floors' Workers (`config` beside this file) in its own `wrangler dev`, its
 * storage in a fresh directory; returns its socket URL, its two processes and a stop.
 */
async function startFloorWorker(config: string): Promise<{ url: string; processes: LocalProcesses; stop: () => void }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      WRANGLER_BIN,
      "dev",
      "-c",
      fileURLToPath(new URL(config, import.meta.url)),
      "--port",
      String(port),
      "--persist-to",
      await mkdtemp(join(tmpdir(), "sinchai-floor-")),
      "--show-interactive-dev-session=false",
    ],
    {
      env: { ...process.env, ...LOCAL_ENV },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`http://localhost:${port}/`)).ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${config} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url: `ws://localhost:${port}/`,
    processes: localProcesses(child.pid!, port),
    stop: () => child.kill("SIGTERM"),
  };
}

function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Round trips of `count` messages through a WebSocket echo, one at a time, in ms. */
export async function echoRoundTrips(
  url: string,
  count: number,
  payload = '{"type":"ack","id":"x","ok":true,"relay":"on"}',
): Promise<number[]> {
  const socket = await openSocket(url);
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await new Promise<void>((resolve) => {
      socket.once("message", () => resolve());
      socket.send(payload);
    });
    times.push(performance.now() - started);
  }
  socket.close();
  return times;
}

/** The floor: `count` round trips through a bare WebSocket echo Worker in the same local runtime. */
export async function measureEchoFloor(count: number): Promise<number[]> {
  const echo = await startFloorWorker("./echo-wrangler.toml");
  try {
    return await echoRoundTrips(echo.url, count);
  } finally {
    echo.stop();
  }
}

/**
 * `count` answers of the echo Worker that each held the request `waitMs` first (./echo-worker.ts,
 * `/after`), in ms: how long after its headers each fixed body arrived (the local chain's own
 * gap, beside the command's: ./command-round-trip.ts) and each whole round trip (what any answer
 * held that long costs on this chain, whatever the Worker did meanwhile).
 */
export async function measureFixedBodyAnswers(
  waitMs: number,
  count: number,
): Promise<{ gaps: number[]; roundTrips: number[] }> {
  const echo = await startFloorWorker("./echo-wrangler.toml");
  const gaps: number[] = [];
  const roundTrips: number[] = [];
  try {
    const url = `${echo.url.replace("ws:", "http:")}after?ms=${Math.round(waitMs)}`;
    for (let index = 0; index < count; index++) {
      const started = performance.now();
      const response = await fetch(url);
      const headersAt = performance.now();
      await response.json();
      gaps.push(performance.now() - headersAt);
      roundTrips.push(performance.now() - started);
    }
    return { gaps, roundTrips };
  } finally {
    echo.stop();
  }
}

/** A box on relay object `object` (./relay-worker.ts) that acknowledges every switch at once. */
async function openAckingBox(relayUrl: string, object: number): Promise<WebSocket> {
  const box = await openSocket(`${relayUrl}?object=${object}&role=box`);
  box.on("message", (data) => {
    const { id } = JSON.parse(data.toString()) as { id: string };
    box.send(JSON.stringify({ type: "ack", id, ok: true, relay: "on" }));
  });
  return box;
}

/**
 * The floor of a command over the open socket, one command at a time through the Durable Object
 * relay (./relay-worker.ts), a box answering each at once, five commands to each object, then a
 * new one (as the socket bench uses a box per command). One at a time so that the socket bench
 * takes it between its own commands, under the same load (./socket-command.ts).
 */
export async function openRelayFloor(): Promise<{ command: () => Promise<FloorCall>; stop: () => void }> {
  const relay = await startFloorWorker("./relay-wrangler.toml");
  let object = 0;
  let sent = 0;
  let sockets: { box: WebSocket; page: WebSocket } | null = null;
  const close = () => {
    sockets?.box.close();
    sockets?.page.close();
    sockets = null;
  };
  return {
    async command() {
      if (!sockets || sent % 5 === 0) {
        close();
        object += 1;
        const box = await openAckingBox(relay.url, object);
        const page = await openSocket(`${relay.url}?object=${object}&role=page`);
        sockets = { box, page };
      }
      const { page } = sockets;
      sent += 1;
      const { result: ms, cpu } = await cpuDuring(relay.processes, async () => {
        const started = performance.now();
        await new Promise<void>((resolve) => {
          page.once("message", () => resolve());
          page.send(JSON.stringify({ type: "switchMotor", requestId: String(sent), action: "on" }));
        });
        return performance.now() - started;
      });
      return { ms, cpu };
    },
    stop() {
      close();
      relay.stop();
    },
  };
}

/**
 * The floors of a command over HTTP, one call at a time through the same relay object
 * (./relay-worker.ts), reached as the API reaches a hub: `POST /command` calls the object over
 * RPC, which switches a box that answers at once, and the Worker answers a fixed body. With
 * `withD1`, the Worker first makes one D1 round trip, as the API's session-and-box query. Five
 * calls to each object, then a new one; the HTTP bench takes them between its own commands.
 */
export async function openHttpRelayFloor(): Promise<{
  command: (withD1: boolean) => Promise<FloorCall>;
  stop: () => void;
}> {
  const relay = await startFloorWorker("./relay-wrangler.toml");
  const base = relay.url.replace("ws:", "http:");
  let object = 0;
  let sent = 0;
  let box: WebSocket | null = null;
  return {
    async command(withD1) {
      if (!box || sent % 5 === 0) {
        box?.close();
        object += 1;
        box = await openAckingBox(relay.url, object);
      }
      sent += 1;
      const { result: ms, cpu } = await cpuDuring(relay.processes, async () => {
        const started = performance.now();
        const response = await fetch(`${base}command?object=${object}&id=${sent}${withD1 ? "&d1=1" : ""}`, {
          method: "POST",
        });
        const { status } = (await response.json()) as { status?: string };
        if (status !== "on") throw new Error(`the HTTP relay floor answered ${response.status} ${status}`);
        return performance.now() - started;
      });
      return { ms, cpu };
    },
    stop() {
      box?.close();
      relay.stop();
    },
  };
}

/**
 * The floor of the fan-out: `readings` box frames through the relay object (./relay-worker.ts)
 * to `watchers` sockets, which it sends on as they came (no parsing, no storage). Each figure is
 * one watcher's arrival, in ms from the box's send, timed as bench/fan-out.ts times the hub's.
 */
export async function measureFanOutFloor(watchers: number, readings: number, everyMs: number): Promise<number[]> {
  const relay = await startFloorWorker("./relay-wrangler.toml");
  const sockets: WebSocket[] = [];
  try {
    for (let index = 0; index < watchers; index++) {
      sockets.push(await openSocket(`${relay.url}?object=fan-out&role=watcher`));
    }
    const box = await openSocket(`${relay.url}?object=fan-out&role=box`);
    const arrivals = await timeFanOut(sockets, readings, everyMs, (reading) =>
      box.send(JSON.stringify({ type: "power", current: 12.5, wattage: 2500, seq: reading })),
    );
    box.close();
    return arrivals;
  } finally {
    for (const socket of sockets) socket.close();
    relay.stop();
  }
}

/**
 * Times `readings` fan-outs, one at a time and at most one every `everyMs`: `send` makes the
 * reading, and each socket's first frame that `isReading` accepts is its arrival, in ms from the
 * send. The hub's fan-out and its floor are timed by this one loop.
 */
export async function timeFanOut(
  sockets: WebSocket[],
  readings: number,
  everyMs: number,
  send: (reading: number) => void,
  isReading: (frame: string) => boolean = () => true,
): Promise<number[]> {
  const arrivals: number[] = [];
  for (let reading = 0; reading < readings; reading++) {
    const started = performance.now();
    const all = sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          const onMessage = (data: WebSocket.RawData) => {
            if (!isReading(data.toString())) return;
            socket.off("message", onMessage);
            arrivals.push(performance.now() - started);
            resolve();
          };
          socket.on("message", onMessage);
        }),
    );
    send(reading);
    await Promise.all(all);
    const elapsed = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - elapsed)));
  }
  return arrivals;
}
