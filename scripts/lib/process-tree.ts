// A process and its descendants, and the CPU they spent, read from /proc (Linux only).
import { readdirSync, readFileSync } from "node:fs";

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
