// `npm run deploy -- <environment>` without an account: which environments exist, that the
// committed placeholders are refused before anything is built or reached, and the commands a
// deploy runs in order (build for the environment, migrate its D1, deploy its Worker).
import { describe, expect, it } from "vitest";
import { deploySteps, USAGE } from "../../scripts/deploy.ts";
import {
  environmentNames,
  environmentProblem,
  placeholdersIn,
  type RawWranglerConfig,
  readWranglerToml,
} from "../../scripts/lib/environments.ts";
import { runNode } from "./run-node.ts";

const deploy = (args: string[]) => runNode(["scripts/deploy.ts", ...args]);

/** wrangler.toml's shape with one environment, filled in or not. */
function configWith(databaseId: string, vpa: string): RawWranglerConfig {
  return {
    name: "sinchai",
    env: {
      production: {
        d1_databases: [{ binding: "DB", database_name: "sinchai-production", database_id: databaseId }],
        vars: { UPI_PAYEE_VPA: vpa, UPI_PAYEE_NAME: "Sinchai Irrigation" },
      },
    },
  };
}

const committed = await readWranglerToml();
/** True in this repository; false once an operator has filled in their copy (then nothing here may fail). */
const productionUnfilled = placeholdersIn(committed.env?.production).length > 0;

describe("the environments in wrangler.toml", () => {
  it("are staging and production; the top level (local mode) has nothing to fill in", () => {
    expect(environmentNames(committed)).toEqual(["staging", "production"]);
    const { env: _environments, ...topLevel } = committed;
    expect(placeholdersIn(topLevel)).toEqual([]);
  });

  it("mark what an operator fills in with placeholders: each environment's D1 id, UPI id, Web Push contact, telephony and the payment gateway", () => {
    for (const name of environmentNames(committed)) {
      for (const path of placeholdersIn(committed.env![name], `env.${name}`)) {
        // The telephony provider's account, numbers and DLT template ids (docs/telephony.md).
        if (path.startsWith(`env.${name}.vars.TELEPHONY_`) || path.startsWith(`env.${name}.vars.PHONE_`)) continue;
        // The payment gateway and its key id (docs/payments.md).
        if ([`env.${name}.vars.PAYMENT_PROVIDER`, `env.${name}.vars.RAZORPAY_KEY_ID`].includes(path)) continue;
        expect([
          `env.${name}.d1_databases[0].database_id`,
          `env.${name}.vars.UPI_PAYEE_VPA`,
          `env.${name}.vars.VAPID_SUBJECT`,
        ]).toContain(path);
      }
    }
  });

  it("are refused while a placeholder remains, unknown or missing names too; a dry run only needs the name", () => {
    const unfilled = configWith("REPLACE-ME with the id", "REPLACE-ME with the UPI id");
    expect(environmentProblem(unfilled, "production")).toContain("env.production.d1_databases[0].database_id");
    expect(environmentProblem(unfilled, "production")).toContain("env.production.vars.UPI_PAYEE_VPA");
    expect(
      environmentProblem(configWith("0b1c9a7e-5d2f-4c11-9e5a-2f7c3d4b5a61", "REPLACE-ME"), "production"),
    ).toContain("UPI_PAYEE_VPA");
    expect(environmentProblem(unfilled, "production", { allowPlaceholders: true })).toBeNull();
    expect(environmentProblem(unfilled, "prod", { allowPlaceholders: true })).toMatch(/no environment "prod"/);
    expect(environmentProblem(unfilled, undefined)).toMatch(/Name the environment: production/);
    // An empty UPI id is a real choice (it hides the pay link), not a placeholder.
    expect(environmentProblem(configWith("0b1c9a7e-5d2f-4c11-9e5a-2f7c3d4b5a61", ""), "production")).toBeNull();
  });
});

describe("the test push service's allowance (PUSH_TEST_HOSTS)", () => {
  it("is empty in every environment and in local mode: only the tests' harness passes a value", () => {
    const vars = (section: Record<string, unknown> | undefined) => (section?.vars ?? {}) as Record<string, unknown>;
    expect(vars(committed).PUSH_TEST_HOSTS).toBe("");
    for (const name of environmentNames(committed)) expect(vars(committed.env![name]).PUSH_TEST_HOSTS).toBe("");
  });

  it("refuses an environment that sets it, even for a dry run", () => {
    const config = configWith("0b1c9a7e-5d2f-4c11-9e5a-2f7c3d4b5a61", "farmer@upi");
    (config.env!.production!.vars as Record<string, string>).PUSH_TEST_HOSTS = "127.0.0.1";
    expect(environmentProblem(config, "production")).toContain("PUSH_TEST_HOSTS");
    expect(environmentProblem(config, "production", { allowPlaceholders: true })).toContain("PUSH_TEST_HOSTS");
  });
});

describe("the local gateway's address (PAYMENT_LOCAL_URL)", () => {
  it("is refused in an environment that sets it, even for a dry run: a deployed Worker pays at the real gateway", () => {
    const config = configWith("0b1c9a7e-5d2f-4c11-9e5a-2f7c3d4b5a61", "farmer@upi");
    (config.env!.production!.vars as Record<string, string>).PAYMENT_LOCAL_URL = "http://127.0.0.1:8790";
    expect(environmentProblem(config, "production")).toContain("PAYMENT_LOCAL_URL");
    expect(environmentProblem(config, "production", { allowPlaceholders: true })).toContain("PAYMENT_LOCAL_URL");
  });
});

describe("npm run deploy", () => {
  it.runIf(productionUnfilled)(
    "refuses production while its placeholders remain, before building anything",
    async () => {
      const refused = await deploy(["production"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("[env.production] still has placeholders");
      expect(refused.stderr).toContain("docs/operations.md");
      expect(refused.stdout).not.toContain("Building");
    },
    30_000,
  );

  it("refuses to run without an environment, or with one wrangler.toml does not have", async () => {
    const bare = await deploy([]);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain("local mode only");
    expect(bare.stderr).toContain(USAGE);
    const unknown = await deploy(["prod", "--dry-run"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no environment "prod"');
  });

  it("builds for the environment, migrates its D1, then deploys its Worker with the version's message", () => {
    const steps = deploySteps("production", { dryRun: false, message: "git 1a2b3c4", secretsFile: "/tmp/secrets.env" });
    expect(steps.map((step) => step.label)).toEqual([
      "Building the app for production",
      "Applying D1 migrations to production",
      "Deploying the production Worker",
    ]);
    const [build, migrate, upload] = steps;
    expect(build!.args.at(-1)).toBe("build");
    expect(build!.env).toEqual({ CLOUDFLARE_ENV: "production", NODE_ENV: "production" });
    expect(migrate!.args.slice(1)).toEqual([
      "d1",
      "migrations",
      "apply",
      "DB",
      "--remote",
      "--env",
      "production",
      "-c",
      "wrangler.toml",
    ]);
    expect(upload!.args.slice(1)).toEqual([
      "deploy",
      "--env",
      "production",
      "--secrets-file",
      "/tmp/secrets.env",
      "--message",
      "git 1a2b3c4",
    ]);
    expect(upload!.env).toEqual({ CLOUDFLARE_ENV: "production" });
  });

  it("in a dry run builds and bundles only: no migration, nothing uploaded", () => {
    const steps = deploySteps("staging", { dryRun: true, outdir: "dist", message: "git 1a2b3c4" });
    expect(steps.map((step) => step.args.slice(1, 3))).toEqual([["build"], ["deploy", "--env"]]);
    expect(steps[1]!.args.slice(1)).toEqual(["deploy", "--env", "staging", "--dry-run", "--outdir", "dist"]);
  });
});
