// The browser's build fails when a page would take in a module of worker/ or durable-objects/
// (vite.config.ts, serverOnlyGuard; docs/security.md, "Web"). Each case is a real Vite build of a
// small page in a folder of its own, with the guard the app's build uses.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { build, type Plugin } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import appConfig, { serverOnlyGuard } from "../../vite.config.ts";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "server-only-guard-"));
  const files: Record<string, string> = {
    "worker/db/secret-query.ts": 'export type Row = { id: number };\nexport const query = () => "SELECT secret";\n',
    "durable-objects/hub.ts": 'export const hub = "hub";\n',
    "common/shared.ts": 'export const shared = "shared";\n',
    "app/leaks-worker.ts": 'import { query } from "../worker/db/secret-query.ts";\nconsole.log(query());\n',
    "app/leaks-hub.ts": 'import { hub } from "../durable-objects/hub.ts";\nconsole.log(hub);\n',
    "app/types-only.ts":
      'import type { Row } from "../worker/db/secret-query.ts";\nimport { shared } from "../common/shared.ts";\n' +
      "const row: Row = { id: 1 };\nconsole.log(row, shared);\n",
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A client build of one page of the fixture, in memory; what it rejects with, if anything. */
async function buildPage(page: string, environment: "client" | "ssr" = "client"): Promise<Error | null> {
  try {
    await build({
      root,
      configFile: false,
      logLevel: "silent",
      plugins: [serverOnlyGuard(root)],
      build: {
        write: false,
        ssr: environment === "ssr",
        rolldownOptions: { input: join(root, page) },
      },
    });
    return null;
  } catch (error) {
    return error as Error;
  }
}

describe("the server-only guard", () => {
  it("fails a browser build that imports a module of worker/, naming both files", async () => {
    const error = await buildPage("app/leaks-worker.ts");
    expect(error?.message).toContain("app/leaks-worker.ts imports worker/db/secret-query.ts, which is server-only");
  });

  it("fails a browser build that imports a module of durable-objects/", async () => {
    const error = await buildPage("app/leaks-hub.ts");
    expect(error?.message).toContain("app/leaks-hub.ts imports durable-objects/hub.ts, which is server-only");
  });

  it("lets through type-only imports of worker/ and anything from common/", async () => {
    expect(await buildPage("app/types-only.ts")).toBeNull();
  });

  it("leaves the server's build alone", async () => {
    expect(await buildPage("app/leaks-worker.ts", "ssr")).toBeNull();
  });

  it("is one of the app's own build plugins", () => {
    const names = (appConfig.plugins ?? []).flat().map((plugin) => (plugin as Plugin | null)?.name);
    expect(names).toContain(serverOnlyGuard().name);
  });
});
