import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { generateVapidKeys } from "./scripts/lib/vapid.ts";
import { phoneTestOutbound, TEST_TELEPHONY_SECRETS } from "./tests/phone-outbound.ts";
import { pushTestOutbound } from "./tests/push-outbound.ts";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  // A throwaway pair: it signs pushes to the tests' own push service only.
  const vapid = generateVapidKeys();
  return {
    test: {
      projects: [
        {
          plugins: [
            cloudflareTest({
              main: "./tests/worker-test-entry.ts",
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  // A test-only secret: it signs nothing outside these tests.
                  JWT_SECRET: "worker-tests-only-secret-0123456789abcdef",
                  TEST_MIGRATIONS: migrations,
                  // The fuzz suites' base seed (tests/worker/fuzz-support.ts); empty: the fixed default.
                  FUZZ_SEED: process.env.FUZZ_SEED ?? "",
                  VAPID_PUBLIC_KEY: vapid.publicKey,
                  VAPID_PRIVATE_KEY: vapid.privateKey,
                  // The push service played in Node (tests/push-outbound.ts) is not one of the
                  // real ones; no deployed Worker has this (tests/scripts/deploy.test.ts).
                  PUSH_TEST_HOSTS: "push.test",
                  // Test-only telephony secrets: the tests sign and address webhooks with them.
                  ...TEST_TELEPHONY_SECRETS,
                  // Where the tests' phone plays the provider's webhooks: nowhere (the Worker
                  // under test has no address), never a local Worker that may be running.
                  TELEPHONY_WEBHOOK_ORIGIN: "http://127.0.0.1:9",
                },
                // SMS and calls reach a local provider in this process (tests/phone-outbound.ts);
                // Web Push requests a push service played in Node (tests/push-outbound.ts).
                outboundService: async (request: Request) =>
                  (await phoneTestOutbound(request)) ?? pushTestOutbound(request),
                // An empty database of its own, for tests that apply migrations step by step.
                d1Databases: ["MIGRATION_TEST_DB"],
              },
            }),
          ],
          test: {
            name: "workers",
            include: ["tests/worker/**/*.test.ts", "tests/durable-objects/**/*.test.ts", "tests/routes/**/*.test.ts"],
            setupFiles: ["./tests/apply-migrations.ts"],
            // A time limit catches a hang; speed is the benchmarks' business. On a busy 2-core
            // machine a test that signs in three times (PBKDF2 each) once took over vitest's 5 s.
            testTimeout: 20_000,
          },
        },
        {
          test: {
            name: "node",
            environment: "node",
            include: [
              "tests/device-sim/**/*.test.ts",
              "tests/telephony/**/*.test.ts",
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
            include: ["tests/integration/**/*.test.ts"],
            testTimeout: 30_000,
            hookTimeout: 120_000,
          },
        },
      ],
    },
  };
});
