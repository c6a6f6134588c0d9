// `npm test` after the typecheck and the lint: vitest and Playwright side by side, each in its
// own lane, every line of each printed as it comes with the lane's name in front. Most of
// either suite's time is waiting (a wrangler child starting, a box's ack timeout, a schedule's
// minute, a page's socket), so on a 2-core machine the lanes side by side finish well before
// one after the other would (docs/testing.md has the figures). The run fails if any lane fails,
// and the summary at the end says which, with each lane's wall time.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

type Lane = { name: string; bin: string; args: string[] };

const bin = (path: string) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));

// Four lanes. vitest's workerd files run one at a time (one shared runtime, decision 031) and
// its Node-side files mostly wait (a wrangler child starting, a box's ack timeout, a schedule's
// minute); as groups of one vitest run they went one after the other, and the two cores sat
// half idle (a clean-clone run used 11.3 CPU-minutes in 11.9 minutes of wall time). In lanes of
// their own they wait at the same time. The workerd files that get a runtime each
// (`workers-fresh`: the chaos runs, the fuzzers) are a lane of their own too: behind the shared
// runtime's files they were the last two minutes of every run, alone on one core after
// Playwright had finished. Vitest refuses two worker counts in one group, so each lane is its
// own vitest process, naming its projects.
const LANES: Lane[] = [
  {
    name: "vitest-workerd",
    bin: bin("vitest/vitest.mjs"),
    args: ["run", "--project", "workers"],
  },
  {
    name: "vitest-fresh",
    bin: bin("vitest/vitest.mjs"),
    args: ["run", "--project", "workers-fresh"],
  },
  {
    name: "vitest-node",
    bin: bin("vitest/vitest.mjs"),
    args: ["run", "--project", "node", "--project", "integration"],
  },
  { name: "e2e", bin: bin("@playwright/test/cli.js"), args: ["test"] },
];

type Outcome = { name: string; code: number; seconds: number };

const children = new Set<ReturnType<typeof spawn>>();

function runLane(lane: Lane, width: number): Promise<Outcome> {
  const started = performance.now();
  const prefix = `${lane.name.padEnd(width)} │ `;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [lane.bin, ...lane.args], {
      // Colours would be cut by the prefix in the middle of an escape sequence on some lines.
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.add(child);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => process.stdout.write(`${prefix}${line}\n`));
    }
    child.on("close", (code, signal) => {
      children.delete(child);
      const seconds = (performance.now() - started) / 1000;
      resolve({ name: lane.name, code: code ?? (signal ? 1 : 0), seconds });
    });
  });
}

// Ctrl-C or CI's SIGTERM: each lane gets it too (Playwright then stops its web server, vitest
// its workers), and this process stays until both have closed.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

const width = Math.max(...LANES.map((lane) => lane.name.length));
const outcomes = await Promise.all(LANES.map((lane) => runLane(lane, width)));
console.log("");
for (const { name, code, seconds } of outcomes) {
  console.log(`${name.padEnd(width)}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`);
}
process.exitCode = outcomes.every((outcome) => outcome.code === 0) ? 0 : 1;
