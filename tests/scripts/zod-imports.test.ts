// Every module takes zod from common/zod.ts (or its small build from common/zod-mini.ts), which
// turn off zod's eval probe before any schema exists: a direct import from "zod" could build a
// schema first and make the browser report a CSP violation (docs/security.md, "Web").
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";

const SOURCE_FOLDERS = ["app", "common", "worker", "durable-objects", "device-sim"];

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

const ZOD_MODULES = [join("common", "zod.ts"), join("common", "zod-mini.ts")];

it("no source module imports zod except common/zod.ts and common/zod-mini.ts", async () => {
  const offenders: string[] = [];
  for (const folder of SOURCE_FOLDERS) {
    for (const file of await sourceFiles(folder)) {
      if (ZOD_MODULES.includes(file)) continue;
      if (/from\s+["']zod(\/[^"']*)?["']/.test(await readFile(file, "utf8"))) offenders.push(file);
    }
  }
  expect(offenders).toEqual([]);
});
