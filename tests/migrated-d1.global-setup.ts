// Once per vitest run for the Node-side projects: a local D1 with every migration applied, which
// each test that needs a fresh database copies (tests/integration/local-worker.ts): a copy is
// the same database for a file copy's cost, where applying the migrations runs every one of them.
import { rm } from "node:fs/promises";
import type { TestProject } from "vitest/node";
import { freshPersistDir } from "../scripts/lib/local-worker.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A local persist directory holding a D1 with every migration applied; copy it, never write to it. */
    migratedPersistDir: string;
  }
}

export default async function setup(project: TestProject) {
  const migrated = await freshPersistDir();
  project.provide("migratedPersistDir", migrated);
  return () => rm(migrated, { recursive: true, force: true });
}
