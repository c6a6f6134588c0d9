// How long the suite waits before it calls something stuck. Every wait in a test is for a
// condition (a page shows a text, a box reports, a process answers), so a limit only sets how long
// a real failure takes to say so, never how fast a machine must be: `taskset -c 0 npm test` runs
// the four lanes on one core, several times slower than usual, and passes. Speed is measured by
// `npm run bench`, never asserted here (docs/testing.md, "Time limits").

/** A process start, awaited by its readiness: wrangler, the Worker's build, chromium. */
export { START_LIMIT_MS } from "../scripts/lib/start-limit.ts";

/** One test or hook, the process starts it awaits included: only a hang gets this far. */
export const TEST_LIMIT_MS = 10 * 60_000;

/** One awaited condition (`expect.poll`, Playwright's `expect`): one that holds returns at once. */
export const CONDITION_LIMIT_MS = 60_000;
