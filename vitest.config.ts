import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { generateVapidKeys } from "./scripts/lib/vapid.ts";
import { paymentsTestOutbound } from "./tests/payments-outbound.ts";
import { pushTestOutbound } from "./tests/push-outbound.ts";
import { telephonyTestOutbound } from "./tests/telephony-outbound.ts";
import { CONDITION_LIMIT_MS, TEST_LIMIT_MS } from "./tests/time-limits.ts";

/** Test-only telephony secrets: the tests sign and address webhooks with them. */
const TELEPHONY_API_TOKEN = "worker-tests-only-telephony-token";
const TELEPHONY_WEBHOOK_SECRET = "worker-tests-only-webhook-secret-0123456789";
/** Test-only payment gateway secrets (wrangler.toml's local key id). */
const RAZORPAY_KEY_SECRET = "worker-tests-only-razorpay-key-secret";
const RAZORPAY_WEBHOOK_SECRET = "worker-tests-only-razorpay-webhook-secret-0123456789";

/**
 * Node-side files at a time. They spend their time waiting (a wrangler child starting, a box's
 * 5 s ack timeout, the hub's alarm a minute away), so three run at once on a 2-core machine;
 * `VITEST_NODE_WORKERS=1` runs them one by one, to tell a race from a slow file. The workerd
 * files compute more than they wait and run one at a time, as vitest's default would on 2 cores.
 */
const NODE_SIDE_WORKERS = Number(process.env.VITEST_NODE_WORKERS ?? 3);

/**
 * Every project's time limits (tests/time-limits.ts): a limit catches a hang, never a slow
 * machine. A test or hook that starts wrangler, signs in with PBKDF2 or waits out a box's ack
 * took several times vitest's defaults (5 s, 10 s) on a busy 2-core machine, and a condition
 * polled for (a push reaching the tests' push service, a hub's write) over its 1 s.
 */
const SLOW_MACHINE_LIMITS = {
  testTimeout: TEST_LIMIT_MS,
  hookTimeout: TEST_LIMIT_MS,
  expect: { poll: { timeout: CONDITION_LIMIT_MS } },
};

const WORKERD_TESTS = ["tests/worker/**/*.test.ts", "tests/durable-objects/**/*.test.ts", "tests/routes/**/*.test.ts"];

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  // A throwaway pair: it signs pushes to the tests' own push service only.
  const vapid = generateVapidKeys();
  // The provider the Worker's SMS and calls reach in these tests (wrangler.toml's account SID).
  const telephony = telephonyTestOutbound({
    accountSid: "AC00000000000000000000000000000000",
    apiKey: "",
    apiToken: TELEPHONY_API_TOKEN,
    webhookSecret: TELEPHONY_WEBHOOK_SECRET,
  });
  const payments = paymentsTestOutbound({
    keyId: "rzp_test_sinchailocal",
    keySecret: RAZORPAY_KEY_SECRET,
    webhookSecret: RAZORPAY_WEBHOOK_SECRET,
  });
  /** The Worker's runtime for the workerd project: workerd with the bindings the tests set. */
  const workersRuntime = cloudflareTest({
    main: "./tests/worker-test-entry.ts",
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      bindings: {
        // A test-only secret: it signs nothing outside these tests.
        JWT_SECRET: "worker-tests-only-secret-0123456789abcdef",
        TEST_MIGRATIONS: migrations,
        // The fuzz suites' base seed (tests/worker/fuzz-support.ts); empty: the fixed default.
        FUZZ_SEED: process.env.FUZZ_SEED ?? "",
        // The chaos simulation's base seed, number of runs, or one run to replay (npm run chaos); empty: its defaults.
        CHAOS_SEED: process.env.CHAOS_SEED ?? "",
        CHAOS_RUNS: process.env.CHAOS_RUNS ?? "",
        CHAOS_REPLAY: process.env.CHAOS_REPLAY ?? "",
        // "k/n": this process runs the exploration's runs whose index is k modulo n (npm run chaos --jobs n).
        CHAOS_SHARD: process.env.CHAOS_SHARD ?? "",
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        // The push service played in Node (tests/push-outbound.ts) is not one of the
        // real ones; no deployed Worker has this (tests/scripts/deploy.test.ts).
        PUSH_TEST_HOSTS: "push.test",
        TELEPHONY_API_TOKEN,
        TELEPHONY_WEBHOOK_SECRET,
        RAZORPAY_KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET,
      },
      // Web Push requests go to a push service played in Node (tests/push-outbound.ts),
      // SMS and calls to the local provider's halves played there too (tests/telephony-outbound.ts),
      // and the payment gateway's REST calls to the local gateway's Razorpay half (tests/payments-outbound.ts).
      outboundService: (request: Request) => telephony(request) ?? payments(request) ?? pushTestOutbound(request),
      // An empty database of its own, for tests that apply migrations step by step.
      d1Databases: ["MIGRATION_TEST_DB"],
    },
  });
  return {
    test: {
      projects: [
        {
          plugins: [workersRuntime],
          test: {
            name: "workers",
            // A group of its own: vitest runs one worker count per group, the groups in turn.
            sequence: { groupOrder: 1 },
            // Two runtimes, each taking the next file when it is free: the long files (the HTTP
            // fuzzer, the chaos runs) are not the end of one fixed queue while another idles.
            maxWorkers: 2,
            // Each runtime keeps its workerd, the Worker's modules and its storage from one file
            // to the next: starting a workerd and loading the modules for each file cost more
            // than most files' tests. Every test makes its own accounts and boxes; a file that
            // needs storage nobody else wrote empties it first (freshStorageForThisFile,
            // tests/worker/helpers/fresh-storage.ts; docs/decisions/040).
            isolate: false,
            include: WORKERD_TESTS,
            setupFiles: ["./tests/apply-migrations.ts"],
            ...SLOW_MACHINE_LIMITS,
          },
        },
        {
          test: {
            name: "node",
            environment: "node",
            sequence: { groupOrder: 0 },
            maxWorkers: NODE_SIDE_WORKERS,
            globalSetup: ["./tests/migrated-d1.global-setup.ts"],
            ...SLOW_MACHINE_LIMITS,
            include: [
              "tests/device-sim/**/*.test.ts",
              "tests/telephony/**/*.test.ts",
              "tests/payments/**/*.test.ts",
              "tests/scripts/**/*.test.ts",
              "tests/app/**/*.test.ts",
            ],
          },
        },
        {
          // The simulator against the real Worker under `wrangler dev` (tests/integration/local-worker.ts).
          test: {
            name: "integration",
            environment: "node",
            sequence: { groupOrder: 0 },
            maxWorkers: NODE_SIDE_WORKERS,
            globalSetup: ["./tests/migrated-d1.global-setup.ts", "./tests/integration/shared-worker.global-setup.ts"],
            include: ["tests/integration/**/*.test.ts"],
            ...SLOW_MACHINE_LIMITS,
          },
        },
      ],
    },
  };
});
