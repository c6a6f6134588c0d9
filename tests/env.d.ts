declare namespace Cloudflare {
  interface Env {
    /** Set in vitest.config.ts from migrations/. */
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** Set in vitest.config.ts from the FUZZ_SEED environment variable; may be empty. */
    FUZZ_SEED: string;
    /** Set in vitest.config.ts: an empty D1 database, migrated by the test itself. */
    MIGRATION_TEST_DB: D1Database;
  }
}
