// `npm run chaos`: the hub's chaos simulation (tests/durable-objects/chaos-sim.ts) for as many
// runs as asked, from a base seed, in workerd as `npm test` runs its 200. Every failing run is
// printed with its seed and the shortest sequence of steps found that still fails; the summary
// gives the runs, the steps and the wall time. Exits non-zero when any run broke a rule.
// A run waits on round trips into workerd far more than it computes, so the runs are shared
// among `--jobs` vitest processes (each its own workerd), run k taking the indices k modulo n:
// every run keeps its seed, whichever process runs it.
//
//   npm run chaos [-- --runs 10000] [-- --seed 123] [-- --jobs 3]
//   npm run chaos -- --replay 2414930939      # one run, by the seed a failure printed
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "10000" },
    seed: { type: "string" },
    replay: { type: "string" },
    jobs: { type: "string", default: "2" },
  },
});
const runs = Number.parseInt(values.runs, 10);
if (!Number.isSafeInteger(runs) || runs < 1)
  throw new Error(`--runs must be a whole number above 0, not ${values.runs}`);
for (const option of ["seed", "replay"] as const) {
  const value = values[option];
  if (value !== undefined && !Number.isSafeInteger(Number.parseInt(value, 10))) {
    throw new Error(`--${option} must be a whole number, not ${value}`);
  }
}
const expected = values.replay === undefined ? runs : 1;
const jobs = values.replay === undefined ? Math.min(runs, Number.parseInt(values.jobs, 10)) : 1;
if (!Number.isSafeInteger(jobs) || jobs < 1)
  throw new Error(`--jobs must be a whole number above 0, not ${values.jobs}`);

const vitest = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));
const started = performance.now();
const children = Array.from({ length: jobs }, (_, shard) =>
  spawn(process.execPath, [vitest, "run", "--project", "workers", "tests/durable-objects/device-hub.chaos.test.ts"], {
    env: {
      ...process.env,
      ...(values.replay === undefined ? { CHAOS_RUNS: String(runs) } : { CHAOS_REPLAY: values.replay }),
      ...(values.seed === undefined ? {} : { CHAOS_SEED: values.seed }),
      ...(jobs > 1 ? { CHAOS_SHARD: `${shard}/${jobs}` } : {}),
      FORCE_COLOR: "0",
      NO_COLOR: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  }),
);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });

let runsDone = 0;
let steps = 0;
let failing = 0;
// Each batch of runs prints one line (device-hub.chaos.test.ts); every other line goes through as it is.
const BATCH_LINE = /chaos batch [\w.]+: (\d+) runs, (\d+) steps, (\d+) failing/;
children.forEach((child, shard) => {
  // Two processes' lines would interleave: each says whose it is.
  const prefix = jobs > 1 ? `[${shard}] ` : "";
  for (const stream of [child.stdout, child.stderr]) {
    // workerd reports each hub the simulation loses on purpose (a `crash` step), with its stack.
    let lostHubStack = false;
    createInterface({ input: stream }).on("line", (line) => {
      if (line.includes("chaos: the hub's instance is lost")) {
        lostHubStack = true;
        return;
      }
      if (lostHubStack && line.startsWith("stack: ")) return;
      lostHubStack = false;
      const batch = BATCH_LINE.exec(line);
      if (batch) {
        runsDone += Number(batch[1]);
        steps += Number(batch[2]);
        failing += Number(batch[3]);
        process.stdout.write(`  ${runsDone}/${expected} runs, ${steps} steps, ${failing} failing\n`);
        return;
      }
      process.stdout.write(`${prefix}${line}\n`);
    });
  }
});

const codes = await Promise.all(
  children.map((child) => new Promise<number>((resolve) => child.on("close", (exit) => resolve(exit ?? 1)))),
);
const seconds = (performance.now() - started) / 1000;
console.log("");
console.log(
  `chaos: ${runsDone} runs, ${steps} steps, ${failing} failing, in ${seconds.toFixed(0)} s (${jobs} job${jobs > 1 ? "s" : ""})` +
    (values.replay !== undefined
      ? ` (the run of seed ${values.replay})`
      : values.seed === undefined
        ? " (the default base seed)"
        : ` (base seed ${values.seed})`),
);
process.exitCode = codes.every((code) => code === 0) && failing === 0 && runsDone === expected ? 0 : 1;
