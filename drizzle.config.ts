import { defineConfig } from "drizzle-kit";

// `drizzle-kit generate` only diffs the schema against migrations/meta: fully offline.
// Wrangler applies the generated .sql files (`npm run db:migrate:local`, or --remote).
export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/db/schema.ts",
  out: "./migrations",
});
