// The Cloudflare environments of wrangler.toml (staging, production) as the operator scripts
// see them: which exist, and whether one still holds placeholders. A placeholder left in place
// would deploy a Worker bound to nothing (or send farmers' payments to nobody), so every
// command that reaches Cloudflare refuses an environment until its placeholders are filled.
import type { D1Target } from "./local-d1.ts";
import { WRANGLER_TOML } from "./wrangler.ts";

/** How every placeholder value in wrangler.toml starts. */
export const PLACEHOLDER = "REPLACE-ME";

/** The test harness's allowance for its own push services (worker/push/push-endpoint.ts): never deployed. */
const TEST_PUSH_HOSTS_VAR = "PUSH_TEST_HOSTS";

/** Local mode's payment gateway on loopback (payments-sim/): never deployed. */
const LOCAL_GATEWAY_VAR = "PAYMENT_LOCAL_URL";

/** Where the operator is told what goes in each value. */
export const OPERATIONS_DOC = "docs/operations.md";

export type RawWranglerConfig = { env?: Record<string, Record<string, unknown>> } & Record<string, unknown>;

/**
 * wrangler.toml as wrangler itself parses it (the user's file, never a build's generated copy).
 * wrangler is loaded only here, so local-only runs do not wait for it.
 */
export async function readWranglerToml(path: string = WRANGLER_TOML): Promise<RawWranglerConfig> {
  const { experimental_readRawConfig } = await import("wrangler");
  return experimental_readRawConfig({ config: path }).rawConfig as RawWranglerConfig;
}

/** The environments the file defines, in its order. */
export function environmentNames(config: RawWranglerConfig): string[] {
  return Object.keys(config.env ?? {});
}

/** The dotted paths of every string under `value` that is still a placeholder. */
export function placeholdersIn(value: unknown, path = ""): string[] {
  if (typeof value === "string") return value.startsWith(PLACEHOLDER) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => placeholdersIn(item, `${path}[${index}]`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => placeholdersIn(item, path ? `${path}.${key}` : key));
  }
  return [];
}

/**
 * What is wrong with using `name` against Cloudflare, in words for the operator; null when it
 * is a defined environment without placeholders. `allowPlaceholders` (a dry run, which reaches
 * nothing) only checks that the environment exists.
 */
export function environmentProblem(
  config: RawWranglerConfig,
  name: string | undefined,
  options: { allowPlaceholders?: boolean } = {},
): string | null {
  const names = environmentNames(config);
  if (!name) return `Name the environment: ${names.join(" or ")}. The top level of wrangler.toml is local mode only.`;
  const section = config.env?.[name];
  if (!section) return `wrangler.toml has no environment "${name}". It has: ${names.join(", ")}.`;
  if (((section.vars ?? {}) as Record<string, unknown>)[TEST_PUSH_HOSTS_VAR]) {
    return `wrangler.toml [env.${name}.vars] sets ${TEST_PUSH_HOSTS_VAR}: it lets Web Push reach the tests' own push services (loopback), and a deployed Worker must never have it. Leave it empty.`;
  }
  if (((section.vars ?? {}) as Record<string, unknown>)[LOCAL_GATEWAY_VAR]) {
    return `wrangler.toml [env.${name}.vars] sets ${LOCAL_GATEWAY_VAR}: it points payments at the local gateway (loopback), which a deployed Worker cannot reach. Leave it empty.`;
  }
  const left = placeholdersIn(section, `env.${name}`);
  if (left.length === 0 || options.allowPlaceholders) return null;
  return [
    `wrangler.toml [env.${name}] still has placeholders (${PLACEHOLDER}...):`,
    ...left.map((path) => `  - ${path}`),
    `Fill them in first; ${OPERATIONS_DOC} says where each value comes from.`,
  ].join("\n");
}

/**
 * The D1 an operator command's options name: the local one, or with `--remote --env <name>` the
 * deployed database of that environment (never the top level, which is local mode only).
 * `config` is needed only for a remote target.
 */
export function d1TargetFrom(
  options: { remote: boolean; env?: string; persistTo: string },
  config?: RawWranglerConfig,
): D1Target {
  if (!options.remote) {
    if (options.env !== undefined) throw new Error(`--env ${options.env} names a deployed database: add --remote.`);
    return { remote: false, persistTo: options.persistTo };
  }
  if (!config) throw new Error("wrangler.toml is needed to find a remote database.");
  if (!options.env) throw new Error(`--remote needs --env ${environmentNames(config).join("|")}.`);
  const problem = environmentProblem(config, options.env);
  if (problem) throw new Error(problem);
  return { remote: true, environment: options.env };
}
