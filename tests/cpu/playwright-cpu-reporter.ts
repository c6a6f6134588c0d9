// A Playwright reporter for `npm run test:cpu`: the CPU seconds of each spec file, read as what
// this Playwright process and all it started (the Worker under `npm start`, chromium, the test
// workers) spent from the end of the test before to the end of each of the file's tests. True
// only with one worker, which is how `npm run test:cpu` runs them. What was spent before the
// first test began (the build and the Worker's start) is a line of its own.
import { appendFileSync } from "node:fs";
import { relative } from "node:path";
import type { Reporter, TestCase } from "@playwright/test/reporter";
import { runCpuSeconds } from "../../scripts/lib/process-tree.ts";

type FileCpu = { cpuSeconds: number; wallSeconds: number; tests: number };

export const BEFORE_THE_FIRST_TEST = "(before the first test: the build, the Worker's start)";

export default class PlaywrightCpuReporter implements Reporter {
  private lastCpu = runCpuSeconds();
  private lastWall = performance.now();
  private readonly files = new Map<string, FileCpu>();

  onTestBegin() {
    if (this.files.size === 0) this.add(BEFORE_THE_FIRST_TEST, 0);
  }

  onTestEnd(test: TestCase) {
    this.add(relative(process.cwd(), test.location.file), 1);
  }

  onEnd() {
    const log = process.env.TEST_CPU_LOG;
    if (!log) return;
    for (const [file, entry] of this.files)
      appendFileSync(log, `${JSON.stringify({ file, project: "e2e", ...entry })}\n`);
  }

  /** What was spent since the last mark, counted to `file`. */
  private add(file: string, tests: number) {
    const cpu = runCpuSeconds();
    const wall = performance.now();
    const entry = this.files.get(file) ?? { cpuSeconds: 0, wallSeconds: 0, tests: 0 };
    entry.cpuSeconds += cpu - this.lastCpu;
    entry.wallSeconds += (wall - this.lastWall) / 1000;
    entry.tests += tests;
    this.files.set(file, entry);
    this.lastCpu = cpu;
    this.lastWall = wall;
  }
}
