// `npm run test:cpu`: where the suite's CPU goes, file by file. Runs each lane of `npm test` alone
// and one file at a time (so that each file's CPU can be told apart), with the reporters of
// tests/cpu/ adding up what every process of the lane spent, and prints a table of the files by
// CPU seconds with each lane's total. It takes longer than `npm test`; docs/testing.md holds the
// table of a run. Linux only (it reads /proc).
import { spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cgroupCpuSeconds, cpuCgroup } from "./lib/process-tree.ts";

const bin = (path: string) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));
const VITEST = bin("vitest/vitest.mjs");
const PLAYWRIGHT = bin("@playwright/test/cli.js");
const VITEST_REPORTER = ["--reporter=default", "--reporter=./tests/cpu/vitest-cpu-reporter.ts"];

const LANES = [
  // One file at a time, so that each file's CPU is told apart: not the lane's two runtimes.
  { name: "vitest-workerd", args: [VITEST, "run", "--project", "workers", "--maxWorkers=1", ...VITEST_REPORTER] },
  { name: "vitest-node", args: [VITEST, "run", "--project", "node", "--project", "integration", ...VITEST_REPORTER] },
  { name: "e2e", args: [PLAYWRIGHT, "test", "--reporter=list,./tests/cpu/playwright-cpu-reporter.ts"] },
];

type FileLine = { file: string; project: string; cpuSeconds: number; wallSeconds: number; tests: number };

const only = process.argv.slice(2);
const directory = await mkdtemp(join(tmpdir(), "sinchai-test-cpu-"));
const rows: (FileLine & { lane: string })[] = [];
for (const lane of LANES.filter((candidate) => only.length === 0 || only.includes(candidate.name))) {
  const log = join(directory, `${lane.name}.jsonl`);
  console.log(`\n── ${lane.name}, one file at a time`);
  // In a cgroup of its own where one can be made: chromium's renderers, orphaned when their
  // browser closes, are counted too (scripts/lib/process-tree.ts).
  const cgroup = cpuCgroup(`sinchai-test-cpu-${process.pid}-${lane.name}`);
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      "sh",
      [
        "-c",
        '[ -z "$LANE_CGROUP" ] || echo $$ > "$LANE_CGROUP/cgroup.procs"; exec "$@"',
        "sh",
        process.execPath,
        ...lane.args,
      ],
      {
        env: {
          ...process.env,
          TEST_CPU_LOG: log,
          VITEST_NODE_WORKERS: "1",
          E2E_WORKERS: "1",
          LANE_CGROUP: cgroup ?? "",
        },
        stdio: "inherit",
      },
    );
    child.on("close", resolve);
  });
  if (cgroup) cgroupCpuSeconds(cgroup);
  if (code !== 0) console.log(`${lane.name} exited with ${code}: its figures are still counted`);
  const lines = (await readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean);
  for (const line of lines) rows.push({ lane: lane.name, ...(JSON.parse(line) as FileLine) });
}

const seconds = (value: number) => value.toFixed(1);
rows.sort((a, b) => b.cpuSeconds - a.cpuSeconds);
console.log("\n| file | lane | tests | CPU s | wall s (alone) |\n|---|---|---|---|---|");
for (const row of rows) {
  console.log(
    `| \`${row.file}\` | ${row.lane} | ${row.tests} | ${seconds(row.cpuSeconds)} | ${seconds(row.wallSeconds)} |`,
  );
}
console.log("\n| lane | files | CPU s | wall s (alone, one file at a time) |\n|---|---|---|---|");
for (const lane of LANES) {
  const laneRows = rows.filter((row) => row.lane === lane.name);
  if (laneRows.length === 0) continue;
  const sum = (pick: (row: FileLine) => number) => laneRows.reduce((total, row) => total + pick(row), 0);
  console.log(
    `| ${lane.name} | ${laneRows.length} | ${seconds(sum((row) => row.cpuSeconds))} | ${seconds(sum((row) => row.wallSeconds))} |`,
  );
}
