// The production build that `npm run bench` and `npm run load` measure, built on the same Node
// as the script and offline (scripts/lib/wrangler.ts says why for both).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { LOCAL_ENV } from "./wrangler.ts";

export function buildApp(): void {
  const built = spawnSync(
    process.execPath,
    [fileURLToPath(new URL("../../node_modules/@react-router/dev/bin.cjs", import.meta.url)), "build"],
    { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...LOCAL_ENV } },
  );
  if (built.status !== 0) throw new Error("build failed");
}
