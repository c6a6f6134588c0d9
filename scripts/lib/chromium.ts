// The one browser of tests and benchmarks: Debian's chromium (Playwright cannot download its own
// on these machines), started quiet and offline the same way everywhere.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

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
