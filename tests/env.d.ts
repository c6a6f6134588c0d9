declare namespace Cloudflare {
  interface Env {
    /** Set in vitest.config.ts from migrations/. */
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}
