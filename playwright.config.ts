import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH, HEADLESS_SHELL_PATH } from "./scripts/lib/chromium.ts";
import { CONDITION_LIMIT_MS, START_LIMIT_MS, TEST_LIMIT_MS } from "./tests/time-limits.ts";

/** e2e runs its own Worker on its own port and database, next to any `npm start`. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8788);
export const E2E_PERSIST_DIR = ".wrangler/e2e-state";

/** Specs whose every test makes its own accounts and devices and reads no fleet-wide total. */
const OWN_FARMER_SPECS = [
  "**/pump-truth.spec.ts",
  "**/switch-card.spec.ts",
  "**/pump-settings.spec.ts",
  "**/shared-pumps.spec.ts",
  "**/first-day.spec.ts",
  "**/language.spec.ts",
  "**/slow-phone.spec.ts",
  "**/motor-schedule.spec.ts",
  "**/offline.spec.ts",
  "**/no-script.spec.ts",
  "**/power-window.spec.ts",
  "**/auth.spec.ts",
  "**/cross-site.spec.ts",
  "**/user-shell.spec.ts",
  "**/change-password.spec.ts",
  "**/verified-number.spec.ts",
  "**/admin-login.spec.ts",
  "**/admin-users.spec.ts",
  "**/admin-user-detail.spec.ts",
  "**/admin-update-config.spec.ts",
  "**/admin-recharges.spec.ts",
  "**/admin-telephony.spec.ts",
  "**/admin-logs.spec.ts",
  "**/logout.spec.ts",
  "**/screens.spec.ts",
  "**/installer-visit.spec.ts",
  "**/no-data-way.spec.ts",
];

/**
 * Specs of what a farmer's browser does that the headless shell does not (it answers "denied"
 * to every notification permission): they run in the full chromium, and make their own farmers.
 */
const FULL_BROWSER_SPECS = ["**/alerts.spec.ts"];

/** Specs that read what every device and account add to (totals, the audit). */
const FLEET_SPECS = ["**/admin-dashboard.spec.ts", "**/admin-audit.spec.ts"];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  // Lanes on one local Worker. Files that make their own farmers and boxes run beside each
  // other and beside the files that drive the one demo pump, which take turns in a lane of
  // their own. Files that read fleet-wide totals or the whole audit trail run last,
  // alone, when nothing else can move those mid-test. Most of a test's time is waiting (a
  // box's ack, a schedule's minute, a socket), so more pages run at once than there are cores.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  // Limits that catch a hang, never a slow machine (tests/time-limits.ts).
  timeout: TEST_LIMIT_MS,
  expect: { timeout: CONDITION_LIMIT_MS },
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    viewport: { width: 360, height: 740 },
    // Recording a trace for every test cost 15 % of the lane's CPU (docs/testing.md) to keep
    // the few that fail; `E2E_TRACE=retain-on-failure` records them when a failure needs one.
    trace: process.env.E2E_TRACE === "retain-on-failure" ? "retain-on-failure" : "off",
    // A click waits for its element and a navigation for its page as a condition is waited for.
    actionTimeout: CONDITION_LIMIT_MS,
    navigationTimeout: CONDITION_LIMIT_MS,
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: HEADLESS_SHELL_PATH,
      args: CHROMIUM_ARGS,
      timeout: START_LIMIT_MS,
    },
  },
  // Playwright hands out files in the order of its projects: the demo pump's turns come first,
  // so its one page runs from the start beside the others instead of alone after them.
  projects: [
    { name: "demo-pump", testIgnore: [...OWN_FARMER_SPECS, ...FULL_BROWSER_SPECS, ...FLEET_SPECS], workers: 1 },
    // Its one file is among the longest: it starts early, not after every own-farmers file.
    {
      name: "full-browser",
      testMatch: FULL_BROWSER_SPECS,
      use: { launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: START_LIMIT_MS } },
    },
    { name: "own-farmers", testMatch: OWN_FARMER_SPECS },
    {
      name: "fleet",
      testMatch: FLEET_SPECS,
      workers: 1,
      dependencies: ["own-farmers", "full-browser", "demo-pump"],
    },
  ],
  webServer: {
    // The simulated pump is started by the tests themselves, so they can look at its relay.
    // Web Push may reach the tests' push service on loopback (tests/e2e/push-service/), and
    // nothing else outside the real push services.
    command: `node scripts/start.ts --port ${E2E_PORT} --persist-to ${E2E_PERSIST_DIR} --fresh --no-sim --quiet --test-push-hosts 127.0.0.1`,
    url: `http://localhost:${E2E_PORT}/login`,
    // The build and the Worker's start, awaited by its answer.
    timeout: START_LIMIT_MS,
    reuseExistingServer: false,
    // SIGTERM lets scripts/start.ts stop wrangler and workerd before it exits.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    stdout: "pipe",
    stderr: "pipe",
    env: {
      ...(process.env as Record<string, string>),
      // The Worker's outbound requests trust the test push service's certificate (miniflare
      // reads this when wrangler starts): Web Push goes to https addresses only.
      NODE_EXTRA_CA_CERTS: fileURLToPath(new URL("./tests/e2e/push-service/cert.pem", import.meta.url)),
    },
  },
});
