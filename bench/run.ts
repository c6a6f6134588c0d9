// `npm run bench`: every benchmark, one table at the end (docs/benchmarks.md records a run).
// Figures only: nothing here passes or fails.
//
//   npm run bench [-- --quick] [-- --only socket,roundtrip,fanout,flood,idle,data,cpu,lighthouse,phone,fleet-day] [-- --boxes N]
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { DEVICE_FRAMES_PER_SECOND } from "../common/device-protocol.ts";
import { COMMAND_STEPS, type CommandCost, type StepCost } from "../common/hub-contract.ts";
import { buildApp } from "../scripts/lib/build-app.ts";
import { measureCommandRoundTrip } from "./command-round-trip.ts";
import { measureDeviceDataCost, monthlyMegabytes } from "./device-data-cost.ts";
import { measureDeviceFlood } from "./device-flood.ts";
import { measureFanOut } from "./fan-out.ts";
import { localFleetCeiling } from "./fleet.ts";
import { runFleetDay, slowest } from "./fleet-day.ts";
import { measureIdleScale } from "./idle-scale.ts";
import {
  measureEchoFloor,
  measureFanOutFloor,
  measureFixedBodyAnswers,
  openHttpRelayFloor,
  openRelayFloor,
  type ProcessCpu,
  percentile,
  round,
} from "./lib.ts";
import { measureLighthouse } from "./lighthouse.ts";
import { measureSlowPhone, PHONE_ROUTES, SLOW_3G } from "./slow-phone.ts";
import { measureSocketCommand } from "./socket-command.ts";
import { measureWorkerCpu } from "./worker-cpu.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string" },
    "skip-build": { type: "boolean", default: false },
    /** How many boxes the fleet day simulates. */
    boxes: { type: "string" },
  },
});
const quick = values.quick;
const only = values.only ? new Set(values.only.split(",")) : null;
const wanted = (name: string) => !only || only.has(name);

type Row = { benchmark: string; measure: string; value: string; floor?: string; target?: string };
const rows: Row[] = [];
const log = (line: string) => console.log(`  ${line}`);
/** Keeps figures for the table, and prints each at once, so a later failure loses none. */
function record(...added: Row[]) {
  for (const row of added)
    log(`${row.benchmark} · ${row.measure}: ${row.value}${row.floor ? ` (floor ${row.floor})` : ""}`);
  rows.push(...added);
}

if (!values["skip-build"]) {
  console.log("• Building the app (benchmarks run the production build)...");
  buildApp();
}

const stats = (values: number[]) => ({
  p50: round(percentile(values, 50)),
  p95: round(percentile(values, 95)),
  p99: round(percentile(values, 99)),
});
type Stats = ReturnType<typeof stats>;
type Percentile = keyof Stats;

/** A row per percentile (all three unless `only`), each beside what it is read against. */
function recordPercentiles(
  benchmark: string,
  figures: Stats,
  how: { floor: (p: Percentile) => string; only?: Percentile[]; target?: (p: Percentile) => string },
) {
  record(
    ...(how.only ?? (["p50", "p95", "p99"] as const)).map((p) => ({
      benchmark,
      measure: p,
      value: String(figures[p]),
      floor: how.floor(p),
      ...(how.target && { target: how.target(p) }),
    })),
  );
}

/**
 * What the local runtime's two processes spent on each call, from its send to its answer (ms):
 * the runtime (the Worker, the hubs and D1, on one thread) and wrangler's proxy in front of it,
 * each beside the same for its floors (the first named is the one the target reads against).
 */
function recordCpu(benchmark: string, cpu: ProcessCpu[], floors: [name: string, cpu: ProcessCpu[]][]) {
  for (const [process, what] of [
    ["runtime", "the runtime (Worker, hubs, D1)"],
    ["front", "wrangler's proxy in front"],
  ] as const) {
    const figures = stats(cpu.map((spent) => spent[process]));
    const floorFigures = floors.map(([name, spent]) => [name, stats(spent.map((one) => one[process]))] as const);
    const [firstName, first] = floorFigures[0]!;
    recordPercentiles(`${benchmark}: CPU of ${what} to its answer (ms)`, figures, {
      floor: (p) => floorFigures.map(([name, of]) => `${of[p]} ${name}`).join(", "),
      only: ["p50", "p99"],
      target: (p) => `${round(figures[p] - first[p])} above ${firstName}`,
    });
  }
}

/**
 * The hub's own account of its commands (its stats' `lastCommand`, one per box): each step's
 * time at p50 / p99 (deployed, a step that is only CPU reads 0, as the runtime's clock moves
 * only on I/O there; locally it moves with CPU too), and its storage writes,
 * bytes written and frames sent at p50.
 */
function recordBreakdown(benchmark: string, costs: CommandCost[]) {
  log(`${costs.length} commands' steps read from their hubs`);
  for (const step of [...COMMAND_STEPS, "total"] as const) {
    const of = costs.map((cost) => (step === "total" ? cost.total : cost.steps[step])).filter((cost) => !!cost);
    if (of.length === 0) continue;
    const at = (pick: (cost: StepCost) => number, p: number) => round(percentile(of.map(pick), p));
    record({
      benchmark,
      measure: step,
      value: `${at((c) => c.ms, 50)} / ${at((c) => c.ms, 99)} ms; ${at((c) => c.writes, 50)} writes, ${at((c) => c.bytes, 50)} bytes, ${at((c) => c.frames, 50)} frames`,
    });
  }
}

// The floor both latency benchmarks are read against: a bare WebSocket echo, same runtime.
const floor =
  wanted("socket") || wanted("roundtrip") || wanted("fanout") ? stats(await measureEchoFloor(quick ? 100 : 500)) : null;
if (floor) recordPercentiles("WebSocket echo floor (ms)", floor, { floor: () => "" });

// The relay floor: what any hub's command costs in this runtime (both commands are read against it).
let relay: Stats | null = null;
if (wanted("socket")) {
  const commands = quick ? 100 : 500;
  // The floor is taken between the commands (one relay command in the pause before each), so
  // both see the same load on a machine others share.
  console.log(
    `• Command over the open socket: ${commands} commands to ${commands} simulated boxes, each beside one through the Durable Object relay floor (page → object → box → object → page)...`,
  );
  const relayFloor = await openRelayFloor();
  const { roundTrips, errors, costs, relayTimes, cpu, relayCpu } = await measureSocketCommand(
    commands,
    relayFloor.command,
  ).finally(() => relayFloor.stop());
  relay = stats(relayTimes);
  recordPercentiles("Durable Object relay floor: 4 frames, 2 storage commits (ms)", relay, {
    floor: (p) => String(floor![p]),
  });
  log(`errors: ${errors}`);
  const command = stats(roundTrips);
  recordPercentiles("command over the open socket (ms)", command, {
    floor: (p) => `${floor![p]} echo, ${relay![p]} relay`,
    target: (p) =>
      `${round(command[p] / relay![p], 2)}× relay${p === "p50" ? ", ≤ 1.5×" : p === "p99" ? ", ≤ 2×" : ""}`,
  });
  recordBreakdown("the hub's own steps of a socket command", costs);
  recordCpu("command over the open socket", cpu, [["relay", relayCpu]]);
}

if (wanted("roundtrip")) {
  const commands = quick ? 100 : 500;
  console.log(`• Command over HTTP: ${commands} commands to ${commands} simulated boxes...`);
  // Its own floors, taken between the commands: the relay reached over HTTP as the API reaches
  // a hub (an RPC to the object), without and with the one D1 round trip the API makes first.
  const httpRelayFloor = await openHttpRelayFloor();
  const measured = await measureCommandRoundTrip(commands, httpRelayFloor.command).finally(() => httpRelayFloor.stop());
  const echo = floor!;
  log(`errors: ${measured.errors}`);
  const empty = stats(measured.httpFloor);
  const command = stats(measured.roundTrips);
  const relayOverHttp = stats(measured.relayOverHttp);
  const relayOverHttpWithD1 = stats(measured.relayOverHttpWithD1);
  recordPercentiles(
    "HTTP relay floor: Worker → object over RPC → box → answer, 2 storage commits (ms)",
    relayOverHttp,
    {
      floor: (p) => `${empty[p]} empty HTTP${relay ? `, ${relay[p]} relay` : ""}`,
      target: (p) => (relay ? `${round(relayOverHttp[p] - empty[p] - relay[p])} above both` : ""),
    },
  );
  recordPercentiles("HTTP relay floor with one D1 round trip first (ms)", relayOverHttpWithD1, {
    floor: (p) => `${relayOverHttp[p]} without`,
  });
  // Its target: no more than the empty call and the relay floor (when measured) plus 2 ms. Beside
  // it, what the command takes above its own floor, the relay over HTTP with its D1 round trip.
  recordPercentiles("command over HTTP (ms)", command, {
    floor: (p) =>
      `${echo[p]} echo, ${empty[p]} empty HTTP${relay ? `, ${relay[p]} relay` : ""}, ${relayOverHttpWithD1[p]} relay over HTTP with D1`,
    target: (p) =>
      p === "p50" && relay
        ? `≤ ${round(empty.p50 + relay.p50 + 2)} (${round(command.p50 - empty.p50 - relay.p50)} above both); ${round(command.p50 - relayOverHttpWithD1.p50)} above relay over HTTP with D1`
        : `${round(command[p] - relayOverHttpWithD1[p])} above relay over HTTP with D1`,
  });
  recordBreakdown("the hub's own steps of an HTTP command", measured.costs);
  // Locally the command's time above its floor is CPU: what the runtime's one thread spends on
  // it (the Worker, the hub, D1) and wrangler's proxy, which every call crosses twice.
  recordCpu("command over HTTP", measured.cpu.command, [
    ["relay over HTTP with D1", measured.cpu.relayOverHttpWithD1],
    ["empty call", measured.cpu.empty],
  ]);
  // Where the command's time goes, by its own Server-Timing: what the Worker held it for (its
  // D1 query, the hub, the box), the rest being the local stack in front of the Worker.
  const d1Time = stats(measured.waitingOnD1);
  recordPercentiles("command over HTTP: held by the Worker (ms)", stats(measured.insideWorker), {
    floor: (p) => `${d1Time[p]} of it D1`,
  });
  recordPercentiles("empty HTTP call, same stack (ms)", stats(measured.httpFloor), { floor: (p) => String(echo[p]) });
  // The answer's body after its headers: the command's, the empty call's, and a Worker's that
  // answers a fixed body after holding the request as long as the Worker held the command.
  const held = stats(measured.insideWorker);
  const fixed = await measureFixedBodyAnswers(held.p50, commands);
  const fixedBody = stats(fixed.gaps);
  recordPercentiles("command over HTTP: body after its headers (ms)", stats(measured.bodyAfterHeaders), {
    floor: (p) =>
      `${stats(measured.emptyBodyAfterHeaders)[p]} empty call, ${fixedBody[p]} fixed body after ${held.p50} ms`,
    only: ["p50", "p99"],
  });
  // The whole answer of a Worker that does nothing but hold the request as long as the command's
  // Worker did: the chain's cost for any answer that slow. What the command takes above it is
  // outside the Worker's window: before its handler starts and after its headers leave, on the
  // one process this local runtime shares between the Worker, the hubs and D1.
  const fixedAnswer = stats(fixed.roundTrips);
  recordPercentiles(`a fixed answer after ${held.p50} ms, the command's hold (ms)`, fixedAnswer, {
    floor: (p) => `${empty[p]} empty HTTP`,
    only: ["p50", "p99"],
    target: (p) => `the command ${round(command[p] - fixedAnswer[p])} ms above it`,
  });
  record(
    {
      benchmark: "D1 queries per command (counted)",
      measure: "Worker, before the answer",
      value: `${Math.min(...measured.workerQueries)}–${Math.max(...measured.workerQueries)}`,
      target: "≤ 1",
    },
    {
      benchmark: "D1 queries per command (counted)",
      measure: "hub, after the answer (its log)",
      value: String(round(measured.hubQueriesPerCommand, 2)),
    },
  );
}

if (wanted("fanout")) {
  const readings = quick ? 50 : 200;
  console.log(`• Fan-out: ${readings} readings of one box to 100 browser sockets...`);
  // Its floor: the same 100 sockets on a Durable Object that only passes the frame on.
  const relayed = stats(await measureFanOutFloor(100, readings, 1_000 / DEVICE_FRAMES_PER_SECOND));
  recordPercentiles("fan-out floor: a Durable Object passing a frame to 100 sockets (ms)", relayed, {
    floor: (p) => String(floor![p]),
    only: ["p50", "p99"],
  });
  const arrivals = stats(await measureFanOut(100, readings));
  recordPercentiles("fan-out to 100 sockets (ms)", arrivals, {
    floor: (p) => `${floor![p]} echo, ${relayed[p]} fan-out floor`,
    only: ["p50", "p99"],
    target: (p) => `${round(arrivals[p] / relayed[p], 2)}× its floor, ≤ 1.2×`,
  });
}

if (wanted("flood")) {
  console.log("• Device flood: one box sends 3,000 readings while another farmer asks for status...");
  const { quiet, during, sent, closeCode } = await measureDeviceFlood(3_000);
  log(`${sent} frames sent, the box closed with ${closeCode}`);
  const [calm, flooded] = [stats(quiet), stats(during)];
  recordPercentiles("another farmer's status call during a flood (ms)", flooded, {
    floor: (p) => `${calm[p]} quiet`,
    only: ["p50", "p99"],
    target: (p) => (p === "p50" ? "≤ 100" : ""),
  });
  record({
    benchmark: "another farmer's status call during a flood (ms)",
    measure: "slowest",
    value: String(round(Math.max(...during))),
    floor: `${round(Math.max(...quiet))} quiet`,
  });
}

if (wanted("idle")) {
  // One local runtime holds only as many box sockets as its open-file limit allows (bench/fleet.ts);
  // past that the fleet is spread over more runtimes, as Cloudflare spreads hubs over machines.
  const ceiling = localFleetCeiling();
  for (const devices of quick ? [1000] : [1000, 5000]) {
    const runtimes = Math.ceil(devices / ceiling);
    const seconds = quick ? 30 : 120;
    console.log(`• Idle scale: ${devices} boxes on ${runtimes} runtime(s) for ${seconds} s, pinging every 10 s...`);
    const result = await measureIdleScale(devices, seconds, runtimes);
    const benchmark = `idle, ${devices} boxes${runtimes > 1 ? ` on ${runtimes} runtimes` : ""}`;
    record(
      { benchmark, measure: "connecting, 50 at a time (boxes/s)", value: String(result.connectRate) },
      { benchmark, measure: "runtime RSS (MB)", value: String(result.rssMb) },
      { benchmark, measure: "runtime RSS per box (KB)", value: String(Math.round((result.rssMb * 1024) / devices)) },
      { benchmark, measure: "runtime CPU (% of one core)", value: String(result.cpuPercent) },
      { benchmark, measure: "heartbeats sent", value: String(result.pingsSent) },
      {
        benchmark,
        measure: "hub wakes / device frames handled",
        value: `${result.hubWakes} / ${result.deviceFramesHandled}`,
        target: "0 / 0",
      },
    );
  }
}

if (wanted("data")) {
  const minutes = quick ? 4 : 16;
  console.log(`• Device data cost: ${minutes} minutes of real protocol timing...`);
  const [idle, running, watched, spammed] = await measureDeviceDataCost(minutes, log);
  const perHour = "device data (bytes/hour, on the wire)";
  const perMonth = "device data (MB/month, 4 h/day running)";
  /** A month's megabytes with the motor running 4 h a day as in `whileRunning`, idle the rest. */
  const monthly = (whileRunning: typeof idle) =>
    String(monthlyMegabytes(idle!.perHourOnTheWire, whileRunning!.perHourOnTheWire));
  record(
    { benchmark: perHour, measure: "idle", value: String(idle!.perHourOnTheWire) },
    { benchmark: perHour, measure: "running, unwatched", value: String(running!.perHourOnTheWire) },
    { benchmark: perHour, measure: "running, watched", value: String(watched!.perHourOnTheWire) },
    { benchmark: perMonth, measure: "nobody watching", value: monthly(running), target: "≤ 5" },
    {
      benchmark: perHour,
      measure: `running, watched, Refresh spammed (${spammed!.refreshCallsPerHour} calls/hour)`,
      value: String(spammed!.perHourOnTheWire),
    },
    { benchmark: perMonth, measure: "watched whenever it runs", value: monthly(watched) },
    { benchmark: perMonth, measure: "watched and Refresh spammed whenever it runs", value: monthly(spammed) },
  );
}

if (wanted("cpu")) {
  const samples = quick ? 50 : 200;
  console.log(`• Worker CPU per call: ${samples} calls each...`);
  for (const row of await measureWorkerCpu(samples)) {
    record({
      benchmark: "worker CPU per call (ms)",
      measure: row.call,
      value: `${row.medianMs} median, ${row.p99Ms} p99`,
      // The target is the Worker's, per API call: not for the password's hashing, nor for a box's reading.
      target: /^(GET|POST) /.test(row.call) && !row.call.startsWith("POST login") ? "median ≤ 2" : "",
    });
  }
}

if (wanted("lighthouse")) {
  const runs = quick ? 1 : 3;
  console.log(`• Lighthouse mobile (Slow 4G, 4× CPU), median of ${runs} runs per page...`);
  const { rows: pages, compressed } = await measureLighthouse(runs);
  log(`assets ${compressed ? "compressed" : "NOT compressed"} by the local runtime`);
  for (const page of pages) {
    const lcpTarget = page.page.startsWith("landing") ? "≤ 1500" : "≤ 2500";
    record(
      { benchmark: `lighthouse ${page.page}`, measure: "LCP (ms)", value: String(page.lcpMs), target: lcpTarget },
      { benchmark: `lighthouse ${page.page}`, measure: "TBT (ms)", value: String(page.tbtMs) },
      { benchmark: `lighthouse ${page.page}`, measure: "CLS", value: String(page.cls), target: "≤ 0.05" },
      {
        benchmark: `lighthouse ${page.page}`,
        measure: "performance / accessibility",
        value: `${page.performance} / ${page.accessibility}`,
        target: "accessibility ≥ 95",
      },
      { benchmark: `lighthouse ${page.page}`, measure: "bytes transferred (KB)", value: String(page.transferKb) },
    );
  }
}

if (wanted("phone")) {
  const runs = quick ? 1 : 5;
  const line = `slow 3G ${SLOW_3G.kbitPerSecond} kbit/s ${SLOW_3G.latencyMs} ms, ${SLOW_3G.cpuSlowdown}× CPU`;
  console.log(`• The farmer's phone: /motor-control on ${line}, median of ${runs} cold loads...`);
  const phone = await measureSlowPhone(runs, PHONE_ROUTES);
  const tap =
    phone.workingTapMs === null
      ? "every tap lost"
      : `${phone.workingTapMs}${phone.tapBeforeHydration ? " (before hydration)" : ""}${phone.tapsLost ? `, ${phone.tapsLost} lost` : ""}`;
  record(
    { benchmark: `phone /motor-control (${line})`, measure: "first paint (ms)", value: String(phone.firstPaintMs) },
    {
      benchmark: `phone /motor-control (${line})`,
      measure: "working tap on ON (ms)",
      value: tap,
      target: "= first paint",
    },
    {
      benchmark: `phone /motor-control (${line})`,
      measure: "hydrated (ms)",
      value: String(phone.hydratedMs),
      floor: `${phone.floorHydratedMs} (/login, signed out)`,
      target: "≤ 5000",
    },
  );
  for (const { route, gzipBytes } of phone.jsPerRoute) {
    record({
      benchmark: "JavaScript per route (gzip KB)",
      measure: route,
      value: (gzipBytes / 1024).toFixed(1),
      target: route === "/motor-control" ? "≤ 120" : "",
    });
  }
}

if (wanted("fleet-day")) {
  const boxes = Number(values.boxes ?? (quick ? 50 : 200));
  console.log(
    `• A fleet's day, compressed: ${boxes} boxes, the schedule minute, a feeder's return, cuts and watchers...`,
  );
  const day = await runFleetDay({
    boxes,
    feederShare: 0.5,
    cutShare: 0.1,
    watcherShare: 0.3,
    randomDelay: true,
    waitForStops: true,
    kind: "build",
    log,
  });
  const perBox = (value: number) => String(round(value / day.boxes, 2));
  const benchmark = `fleet day, ${day.boxes} boxes (${day.feederBoxes} on the feeder)`;
  for (const table of day.tables) {
    record({
      benchmark: "D1 per box per day, by table",
      measure: table.table,
      value: `${perBox(table.rowsWritten)} rows written, ${perBox(table.bytesAdded)} bytes added`,
    });
  }
  record({
    benchmark: "hub per box per day",
    measure: "motor_log (the box's log, in its hub's SQLite)",
    value: `${perBox(day.hubLog.rowsWritten)} rows written, ${perBox(day.hubLog.bytesAdded)} bytes added`,
  });
  const spread = day.feederStarts;
  record(
    {
      benchmark,
      measure: "D1 rows added per second, peak",
      value: `${day.peakRowsPerSecond.scheduleMinute} in the schedule minute, ${day.peakRowsPerSecond.feederReturn} after the feeder's return`,
    },
    { benchmark, measure: "hub D1 statements per box", value: perBox(day.hubD1Queries) },
    { benchmark, measure: "device frames a hub handled per box", value: perBox(day.deviceFramesHandled) },
    { benchmark, measure: "API calls and page sockets that reached a hub, per box", value: perBox(day.apiCallsToHubs) },
    {
      benchmark,
      measure: "seconds with a box frame either way, per box",
      value: String(round(day.hubBusySecondsPerBox)),
    },
    {
      benchmark,
      measure: "WebSocket messages per box (box sent / box received / pages received)",
      value: `${perBox(day.socketMessages.boxSent)} / ${perBox(day.socketMessages.boxReceived)} / ${perBox(day.socketMessages.pageReceived)}`,
    },
    { benchmark, measure: "motor starts", value: String(day.motorStarts) },
    {
      benchmark,
      measure: "feeder return: starts after it (s) first / p50 / p90 / last",
      value: `${spread.length} of ${day.feederBoxes}: ${round(spread[0] ?? NaN)} / ${round(percentile(spread, 50))} / ${round(percentile(spread, 90))} / ${round(spread.at(-1) ?? NaN)}`,
    },
    { benchmark, measure: "feeder return: most starts in one second", value: String(day.feederStartsPerSecondPeak) },
    {
      benchmark,
      measure: "alerts raised / of them power back (an SMS each by default) / SMS and calls (the hubs' rows)",
      value: `${day.alertsRaised} / ${day.powerBackAlerts} / ${day.smsAndCalls}`,
    },
    {
      benchmark,
      measure: "D1 bytes per box before the day (accounts, boxes, sessions)",
      value: String(Math.round(day.baseBytesPerBox)),
    },
    ...(["scheduleMinute", "feederReturn"] as const).map((burst) => {
      const answers = slowest(day.apiDuringBursts[burst]);
      return {
        benchmark,
        measure: `API during the ${burst === "scheduleMinute" ? "schedule minute" : "feeder's return"} (ms), ${day.apiDuringBursts[burst].length} calls`,
        value: `p50 ${answers.p50} / p99 ${answers.p99} / slowest ${answers.max}${day.slowestCall[burst] ? ` (a ${day.slowestCall[burst]!.call} call)` : ""}`,
      };
    }),
    { benchmark, measure: "API errors during the day", value: String(day.apiErrors) },
    { benchmark, measure: "real time simulated (s)", value: String(round(day.simulatedSeconds)) },
  );
}

console.log(
  `\nSinchai benchmarks, ${new Date().toISOString()}, ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB${quick ? " (quick)" : ""}`,
);
console.table(rows);
console.log("\nMarkdown:\n");
console.log("| benchmark | measure | value | floor | target |\n|---|---|---|---|---|");
for (const row of rows)
  console.log(`| ${row.benchmark} | ${row.measure} | ${row.value} | ${row.floor ?? ""} | ${row.target ?? ""} |`);
