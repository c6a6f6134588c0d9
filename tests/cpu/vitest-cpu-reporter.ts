// A vitest reporter for `npm run test:cpu`: the CPU seconds of each test file, read as what this
// vitest process and all it started (workerd, wrangler children, simulators) spent between the
// end of the file before and the end of this one. True only when files run one at a time, which
// is how `npm run test:cpu` runs them; each line goes to the file named by TEST_CPU_LOG.
import { appendFileSync } from "node:fs";
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { runCpuSeconds } from "../../scripts/lib/process-tree.ts";

export default class VitestCpuReporter implements Reporter {
  private lastCpu = runCpuSeconds();
  private lastWall = performance.now();

  onTestModuleEnd(testModule: TestModule) {
    const cpu = runCpuSeconds();
    const wall = performance.now();
    const line = {
      file: relative(process.cwd(), testModule.moduleId),
      project: testModule.project.name,
      cpuSeconds: cpu - this.lastCpu,
      wallSeconds: (wall - this.lastWall) / 1000,
      tests: [...testModule.children.allTests()].length,
    };
    this.lastCpu = cpu;
    this.lastWall = wall;
    const log = process.env.TEST_CPU_LOG;
    if (log) appendFileSync(log, `${JSON.stringify(line)}\n`);
  }
}
