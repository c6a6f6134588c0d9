/**
 * How long a local process start is awaited before it is called failed: a `wrangler dev` that
 * answers, a build, chromium. A few seconds on a quiet machine; a minute and more on one core
 * shared with a whole test run, which is still a start, not a failure.
 */
export const START_LIMIT_MS = 5 * 60_000;
