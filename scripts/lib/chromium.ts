// The browsers of tests and benchmarks: Debian's (Playwright cannot download its own on these
// machines), started quiet and offline the same way everywhere.

/** The full browser: what the benchmarks measure, and the tests of what the shell below lacks. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`): the same Blink and V8 without
 * the full browser's windowing and compositing around them, which is what Playwright itself
 * starts for headless tests. It spent 39 % less CPU than the full browser on the same pages
 * (docs/testing.md), and the e2e tests run in it; it always answers "denied" for notifications,
 * so the tests of alerts run in the full browser (docs/decisions/037-tests-in-the-headless-shell.md).
 */
export const HEADLESS_SHELL_PATH = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";

export const CHROMIUM_ARGS = [
  // Containers here have no user namespaces for the sandbox, and no GPU.
  "--no-sandbox",
  "--disable-gpu",
  // Local servers speak HTTP/1.1 and 2 only; QUIC probes would only add noise to timings.
  "--disable-quic",
  "--no-first-run",
  // Nothing may reach the network on its own: no update checks, no sync, no field trials.
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
