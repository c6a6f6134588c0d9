// `npm run deploy -- <staging|production> [--dry-run [--outdir DIR]] [--secrets-file FILE]`:
// build the app for one Cloudflare environment, apply its D1 migrations, deploy its Worker.
//
// The environment is chosen at build time (the Cloudflare Vite plugin flattens that section of
// wrangler.toml into build/server/wrangler.json), so build and deploy always go together here.
// An environment that still has REPLACE-ME placeholders is refused; `--dry-run` builds and
// bundles without an account and reaches nothing, so it is allowed to have them.
// Step by step, with what each value is: docs/operations.md.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { environmentProblem, readWranglerToml } from "./lib/environments.ts";
import { runAttached, WRANGLER_BIN } from "./lib/wrangler.ts";

const REACT_ROUTER_BIN = fileURLToPath(new URL("../node_modules/@react-router/dev/bin.cjs", import.meta.url));

export const USAGE = "Usage: npm run deploy -- <staging|production> [--dry-run [--outdir DIR]] [--secrets-file FILE]";

export type DeployOptions = {
  dryRun: boolean;
  /** Where a dry run writes the bundle it would upload. */
  outdir?: string;
  /** Secrets for the upload (KEY=value lines or JSON): how a Worker's first deploy gets JWT_SECRET. */
  secretsFile?: string;
  /** Shown with the Worker version (`wrangler versions list`), to tell versions apart when rolling back. */
  message?: string;
};

export type DeployStep = { label: string; args: string[]; env: Record<string, string> };

/** The commands a deploy runs, in order. Pure, so the order and the flags are tested offline. */
export function deploySteps(environment: string, options: DeployOptions): DeployStep[] {
  const selected = { CLOUDFLARE_ENV: environment };
  const steps: DeployStep[] = [
    // NODE_ENV from the shell (development, test) would make Vite bundle React's development build.
    {
      label: `Building the app for ${environment}`,
      args: [REACT_ROUTER_BIN, "build"],
      env: { ...selected, NODE_ENV: "production" },
    },
  ];
  if (!options.dryRun) {
    // Before the new code runs: it may need the new tables. `-c` names the user's file, since a
    // build leaves a redirect to its own generated copy.
    steps.push({
      label: `Applying D1 migrations to ${environment}`,
      args: [WRANGLER_BIN, "d1", "migrations", "apply", "DB", "--remote", "--env", environment, "-c", "wrangler.toml"],
      env: {},
    });
  }
  steps.push({
    label: options.dryRun
      ? `Bundling ${environment} without uploading (dry run)`
      : `Deploying the ${environment} Worker`,
    args: [
      WRANGLER_BIN,
      "deploy",
      "--env",
      environment,
      ...(options.dryRun ? ["--dry-run"] : []),
      ...(options.outdir ? ["--outdir", options.outdir] : []),
      ...(options.secretsFile ? ["--secrets-file", options.secretsFile] : []),
      ...(options.message && !options.dryRun ? ["--message", options.message] : []),
    ],
    env: selected,
  });
  return steps;
}

/** The checked-out commit, for the version's message; undefined outside a git checkout. */
function gitDescription(): string | undefined {
  try {
    return execFileSync("git", ["describe", "--always", "--dirty"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      "dry-run": { type: "boolean", default: false },
      outdir: { type: "string" },
      "secrets-file": { type: "string" },
    },
  });
  const [environment] = positionals;
  const dryRun = values["dry-run"];
  const config = await readWranglerToml();
  const problem = environmentProblem(config, environment, { allowPlaceholders: dryRun });
  if (problem || !environment) throw new Error(`${problem}\n${USAGE}`);
  if (dryRun && environmentProblem(config, environment)) {
    console.log(`(dry run: [env.${environment}] still has placeholders; a real deploy refuses them)`);
  }
  const git = gitDescription();
  const steps = deploySteps(environment, {
    dryRun,
    outdir: values.outdir,
    secretsFile: values["secrets-file"],
    message: git ? `git ${git}` : undefined,
  });
  for (const step of steps) {
    console.log(`• ${step.label}...`);
    await runAttached(step.args, step.env);
  }
  if (!dryRun) {
    console.log(
      `\nDeployed ${environment}. Every box and browser socket has just dropped: boxes come back after a random wait (docs/device-protocol.md §9), pages after 1 s.`,
    );
    console.log("Check it: curl -fsS https://<its host>/api/health   (docs/operations.md)");
  }
}

if (import.meta.main) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
