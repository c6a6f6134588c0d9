import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Runs before every test file (each file has its own storage); applies only what is missing.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
