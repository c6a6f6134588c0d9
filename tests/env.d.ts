declare namespace Cloudflare {
  interface Env {
    /** Set in vitest.config.ts from migrations/. */
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** Set in vitest.config.ts from the FUZZ_SEED environment variable; may be empty. */
    FUZZ_SEED: string;
  }
}
