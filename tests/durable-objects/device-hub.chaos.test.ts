// The chaos simulation's exploration (chaos-sim.ts; docs/testing.md, "The chaos simulation"):
// seeded runs of random steps against a real hub and a simulated box, every invariant checked
// after every step. `npm test` runs 200 from a fixed seed; `npm run chaos` runs as many as asked.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { freshStorageForThisFile } from "../worker/helpers/fresh-storage.ts";
import { describeFailure, runSteps, SHRINK_BUDGET_MS, STEP_DEADLINE_MS, shrink } from "./chaos-sim.ts";
import { DEFAULT_CHAOS_SEED, drawSteps, runSeed, STEPS_PER_RUN, SUITE_RUNS } from "./chaos-steps.ts";

freshStorageForThisFile();

/** Runs per test, so a long exploration reports as it goes and each test has a time limit of its own. */
const RUNS_PER_BATCH = 20;

const parsed = (value: string | undefined, fallback: number) => {
  const number = Number.parseInt(value ?? "", 10);
  return Number.isSafeInteger(number) ? number : fallback;
};
const baseSeed = parsed(env.CHAOS_SEED, DEFAULT_CHAOS_SEED);
const runs = parsed(env.CHAOS_RUNS, SUITE_RUNS);
/** "k/n" (npm run chaos --jobs n): this process takes the runs whose index is k modulo n. */
const [shard, shards] = /^(\d+)\/(\d+)$/.test(env.CHAOS_SHARD)
  ? (env.CHAOS_SHARD.split("/").map(Number) as [number, number])
  : [0, 1];
const indices = Array.from({ length: runs }, (_, index) => index).filter((index) => index % shards === shard);
const batches = Array.from({ length: Math.ceil(indices.length / RUNS_PER_BATCH) }, (_, index) => index);

/** One run's own seed (a failure prints it): that run alone, shrunk if it fails. */
const replay = parsed(env.CHAOS_REPLAY, -1);

describe.runIf(replay >= 0)(`the chaos run of seed ${replay}`, () => {
  it("keeps every invariant", { timeout: 600_000 }, async () => {
    const result = await runSteps(drawSteps(replay, STEPS_PER_RUN), replay);
    // Before its shrinking, which replays it many times over: what broke, at once.
    if (result.violations.length > 0) console.log(`unshrunk:\n${describeFailure(result)}`);
    console.log(
      `chaos batch replay: 1 runs, ${result.stepsRun} steps, ${result.violations.length > 0 ? 1 : 0} failing`,
    );
    expect(result.violations.length > 0 ? describeFailure(await shrink(result)) : "").toBe("");
  });
});

describe.skipIf(replay >= 0)(
  `the hub under chaos (base seed ${baseSeed}, ${indices.length} of ${runs} runs of ${STEPS_PER_RUN} steps)`,
  () => {
    // Room for a run that hangs (its deadline, then its shrinking), besides the batch's own time.
    const timeout = RUNS_PER_BATCH * 10_000 + 2 * (STEP_DEADLINE_MS + SHRINK_BUDGET_MS);
    it.for(batches)("runs %i keep every invariant", { timeout }, async (batch) => {
      const failures: string[] = [];
      let steps = 0;
      const mine = indices.slice(batch * RUNS_PER_BATCH, (batch + 1) * RUNS_PER_BATCH);
      for (const index of mine) {
        const seed = runSeed(baseSeed, index);
        const result = await runSteps(drawSteps(seed, STEPS_PER_RUN), seed);
        steps += result.stepsRun;
        if (result.violations.length > 0) {
          const failure = describeFailure(await shrink(result));
          // Printed at once: a long exploration shows each failure as it comes, not hours later.
          console.log(`chaos run ${index} failed\n${failure}`);
          failures.push(failure);
        }
      }
      console.log(
        `chaos batch ${shards > 1 ? `${shard}.` : ""}${batch}: ${mine.length} runs, ${steps} steps, ${failures.length} failing`,
      );
      expect(failures.join("\n\n")).toBe("");
    });
  },
);
