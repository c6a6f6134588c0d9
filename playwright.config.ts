import { defineConfig } from "@playwright/test";

/** e2e runs its own Worker on its own port and database, next to any `npm start`. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8788);
export const E2E_PERSIST_DIR = ".wrangler/e2e-state";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  // One local Worker and one demo pump: tests that switch it must not interleave.
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    viewport: { width: 360, height: 740 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's chromium: Playwright cannot download its own browser on these machines.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    // The simulated pump is started by the tests themselves, so they can look at its relay.
    command: `node scripts/start.ts --port ${E2E_PORT} --persist-to ${E2E_PERSIST_DIR} --fresh --no-sim --quiet`,
    url: `http://localhost:${E2E_PORT}/login`,
    timeout: 180_000,
    reuseExistingServer: false,
    // SIGTERM lets scripts/start.ts stop wrangler and workerd before it exits.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    stdout: "pipe",
    stderr: "pipe",
  },
});
