declare namespace Cloudflare {
  interface Env {
    /** Set in vitest.config.ts from migrations/. */
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** Set in vitest.config.ts from the FUZZ_SEED environment variable; may be empty. */
    FUZZ_SEED: string;
    /** Set in vitest.config.ts from CHAOS_SEED, CHAOS_RUNS, CHAOS_REPLAY and CHAOS_SHARD (npm run chaos); may be empty. */
    CHAOS_SEED: string;
    CHAOS_RUNS: string;
    CHAOS_REPLAY: string;
    CHAOS_SHARD: string;
    /** Set in vitest.config.ts: an empty D1 database, migrated by the test itself. */
    MIGRATION_TEST_DB: D1Database;
  }
}
