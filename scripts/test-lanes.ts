// `npm test`: the typecheck, the lint, vitest and Playwright side by side, each in its own lane,
// every line of each printed as it comes with the lane's name in front. The suite is bound by
// CPU on a 2-core machine, and the lanes keep both cores busy from the first second: the
// typecheck and the lint ran first and alone (40 s on a clean clone), while the test lanes spend
// part of their time waiting (a wrangler child starting, a box's ack timeout, a schedule's
// minute). The run fails if any lane fails, and the summary at the end says which, with each
// lane's wall time and CPU (docs/testing.md has the figures).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { cgroupCpuSeconds, cpuCgroup } from "./lib/process-tree.ts";

/** A lane: the command it runs, its program first. */
type Lane = { name: string; command: string[] };

const bin = (path: string) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));

/** npm's own script as npm set it for `npm test`, on this Node; the `npm` on PATH otherwise. */
const npm = (script: string) =>
  process.env.npm_execpath ? [process.execPath, process.env.npm_execpath, "run", script] : ["npm", "run", script];

// vitest's workerd files run in two runtimes (decision 040) and its Node-side files mostly wait
// (a wrangler child starting, a box's ack timeout, a schedule's minute); in lanes of their own
// they wait while the rest computes. Vitest refuses two worker counts in one group, so each lane
// is its own vitest process, naming its projects. Playwright's lane is the longest: it starts
// first; the typecheck and the lint (no test needs what they generate) last.
const LANES: Lane[] = [
  { name: "e2e", command: [process.execPath, bin("@playwright/test/cli.js"), "test"] },
  { name: "vitest-workerd", command: [process.execPath, bin("vitest/vitest.mjs"), "run", "--project", "workers"] },
  {
    name: "vitest-node",
    command: [process.execPath, bin("vitest/vitest.mjs"), "run", "--project", "node", "--project", "integration"],
  },
  { name: "typecheck", command: npm("typecheck") },
  { name: "lint", command: npm("lint") },
];

type Outcome = { name: string; code: number; seconds: number; cpuSeconds: number | null };

/**
 * A lane's CPU seconds, every process of it counted. Where the machine lets this process make a
 * cgroup (cgroup v1's cpuacct, as root on these machines), the lane runs in one of its own and
 * the kernel counts all it starts, chromium's renderers too, which outlive their browser and
 * leave the lane's tree. Elsewhere on Linux the lane runs under `sh`, which, once the lane has
 * exited, reads its own /proc entry: its children's time holds every descendant the lane's
 * processes waited for. Elsewhere, null.
 */
const CPU_WRAPPER =
  '[ -z "$LANE_CGROUP" ] || echo $$ > "$LANE_CGROUP/cgroup.procs"; "$@" 3>&-; code=$?; read -r stat < /proc/$$/stat && printf "%s\\n" "$stat" >&3; exit $code';

/** Fields 16 and 17 of /proc/<pid>/stat (cutime, cstime), counted after the command's closing parenthesis. */
function childrenCpuSeconds(stat: string): number | null {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[13]) + Number(fields[14]);
  // USER_HZ: 100 on every Linux this runs on (`getconf CLK_TCK`).
  return Number.isFinite(ticks) ? ticks / 100 : null;
}

const children = new Set<ReturnType<typeof spawn>>();

function runLane(lane: Lane, width: number): Promise<Outcome> {
  const started = performance.now();
  const prefix = `${lane.name.padEnd(width)} │ `;
  return new Promise((resolve) => {
    const { command } = lane;
    const measured = process.platform === "linux";
    const cgroup = measured ? cpuCgroup(`sinchai-test-${process.pid}-${lane.name}`) : null;
    const child = spawn(
      measured ? "sh" : command[0]!,
      measured ? ["-c", CPU_WRAPPER, "sh", ...command] : command.slice(1),
      {
        // Colours would be cut by the prefix in the middle of an escape sequence on some lines.
        env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", LANE_CGROUP: cgroup ?? "" },
        stdio: ["ignore", "pipe", "pipe", "pipe"],
      },
    );
    let stat = "";
    child.stdio[3]?.on("data", (chunk: Buffer) => {
      stat += chunk.toString();
    });
    children.add(child);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on("line", (line) => process.stdout.write(`${prefix}${line}\n`));
    }
    child.on("close", (code, signal) => {
      children.delete(child);
      const seconds = (performance.now() - started) / 1000;
      const cpuSeconds = (cgroup ? cgroupCpuSeconds(cgroup) : null) ?? (stat ? childrenCpuSeconds(stat.trim()) : null);
      resolve({ name: lane.name, code: code ?? (signal ? 1 : 0), seconds, cpuSeconds });
    });
  });
}

// Ctrl-C or CI's SIGTERM: each lane gets it too (Playwright then stops its web server, vitest
// its workers), and this process stays until both have closed.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // A lane's sh passes no signal on: its command gets it directly.
    for (const child of children) {
      for (const pid of childPids(child.pid)) process.kill(pid, signal);
      child.kill(signal);
    }
  });
}

function childPids(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The whole machine's busy CPU seconds so far (/proc/stat), to set the lanes' sum beside. */
function machineBusySeconds(): number | null {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) / 100;
  } catch {
    return null;
  }
}

const width = Math.max(...LANES.map((lane) => lane.name.length));
const busyBefore = machineBusySeconds();
const outcomes = await Promise.all(LANES.map((lane) => runLane(lane, width)));
const busyAfter = machineBusySeconds();
console.log("");
for (const { name, code, seconds, cpuSeconds } of outcomes) {
  const cpu = cpuSeconds === null ? "" : `, ${cpuSeconds.toFixed(0)} CPU s`;
  console.log(
    `${name.padEnd(width)}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s${cpu}`,
  );
}
if (busyBefore !== null && busyAfter !== null) {
  console.log(
    `the machine was busy ${(busyAfter - busyBefore).toFixed(0)} CPU s meanwhile (every process, the lanes' and others')`,
  );
}
process.exitCode = outcomes.every((outcome) => outcome.code === 0) ? 0 : 1;
