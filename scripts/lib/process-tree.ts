// A process and its descendants, and the CPU they spent, read from /proc (Linux only).
import { mkdirSync, readdirSync, readFileSync, rmdirSync } from "node:fs";

/** The pids of `root` and all its descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const pids: number[] = [];
  const visit = (pid: number) => {
    pids.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return pids;
}

/**
 * CPU seconds `root`'s tree has spent, ended processes included: each living process's own time
 * plus its waited-for children's (cutime, cstime), which hold every descendant that ended and was
 * reaped inside the tree. What an orphan spent after leaving the tree is not counted.
 */
export function treeCpuSeconds(root: number = process.pid): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields 14–17 (utime, stime, cutime, cstime), counted after the command's closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // gone
    }
  }
  // USER_HZ: 100 on every Linux this runs on (`getconf CLK_TCK`).
  return ticks / 100;
}

/**
 * CPU seconds spent by everything this process and its descendants ever ran: its cgroup's count
 * when it runs in a cgroup of its own (as `npm test`'s lanes and `npm run test:cpu` put it, which
 * also counts what left the tree, such as chromium's renderers orphaned when their browser
 * closes), else `treeCpuSeconds`.
 */
export function runCpuSeconds(): number {
  try {
    const line = readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .find((entry) => /^\d+:([^:]*,)?cpuacct(,[^:]*)?:/.test(entry));
    const path = line?.slice(line.lastIndexOf(":") + 1);
    if (path && path !== "/") return Number(readFileSync(`${CPUACCT}${path}/cpuacct.usage`, "utf8")) / 1e9;
  } catch {
    // no cgroup v1 cpuacct here
  }
  return treeCpuSeconds();
}

const CPUACCT = "/sys/fs/cgroup/cpuacct";

/**
 * A new cgroup (v1 cpuacct) named `name`, for a command to put itself in (its pid written to
 * `<path>/cgroup.procs`) so that the kernel counts the CPU of all it ever starts; null where this
 * process may not make one.
 */
export function cpuCgroup(name: string): string | null {
  const path = `${CPUACCT}/${name}`;
  try {
    mkdirSync(path);
    return path;
  } catch {
    return null;
  }
}

/** The CPU seconds the cgroup at `path` counted; it is removed once empty. */
export function cgroupCpuSeconds(path: string): number | null {
  try {
    return Number(readFileSync(`${path}/cpuacct.usage`, "utf8")) / 1e9;
  } catch {
    return null;
  } finally {
    // Empty once every process of it has ended; one still ending leaves it for the system.
    try {
      rmdirSync(path);
    } catch {
      // not empty yet
    }
  }
}
