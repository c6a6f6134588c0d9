import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./scripts/lib/chromium.ts";

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
  "**/offline.spec.ts",
  "**/alerts.spec.ts",
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
  "**/touch-targets.spec.ts",
  "**/installer-visit.spec.ts",
];

/** Specs that read what every device and account add to (totals, the newest logs, the audit). */
const FLEET_SPECS = ["**/admin-dashboard.spec.ts", "**/admin-logs.spec.ts", "**/admin-audit.spec.ts"];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  // Lanes on one local Worker. Files that make their own farmers and boxes run beside each
  // other and beside the files that drive the one demo pump, which take turns in a lane of
  // their own. Files that read fleet-wide totals or the newest logs of all devices run last,
  // alone, when nothing else can move those mid-test. Most of a test's time is waiting (a
  // box's ack, a schedule's minute, a socket), so more pages run at once than there are cores.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    viewport: { width: 360, height: 740 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  // Playwright hands out files in the order of its projects: the demo pump's turns come first,
  // so its one page runs from the start beside the others instead of alone after them.
  projects: [
    { name: "demo-pump", testIgnore: [...OWN_FARMER_SPECS, ...FLEET_SPECS], workers: 1 },
    { name: "own-farmers", testMatch: OWN_FARMER_SPECS },
    { name: "fleet", testMatch: FLEET_SPECS, workers: 1, dependencies: ["own-farmers", "demo-pump"] },
  ],
  webServer: {
    // The simulated pump is started by the tests themselves, so they can look at its relay.
    // Web Push may reach the tests' push service on loopback (tests/e2e/push-service/), and
    // nothing else outside the real push services.
    command: `node scripts/start.ts --port ${E2E_PORT} --persist-to ${E2E_PERSIST_DIR} --fresh --no-sim --quiet --test-push-hosts 127.0.0.1`,
    url: `http://localhost:${E2E_PORT}/login`,
    timeout: 180_000,
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
