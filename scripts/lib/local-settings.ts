// Local mode's settings as the local stand-ins (the phone provider, the payment gateway) must share
// them with the local Worker: secrets from .dev.vars (written if missing), everything else from
// wrangler.toml's top-level [vars].
import { ensureDevVars, readDevVars } from "./dev-vars.ts";
import { readWranglerToml } from "./environments.ts";

export type LocalSettings = {
  /** A setting that must be there: .dev.vars first, then [vars]. */
  text: (name: string) => string;
  /** The top-level [vars], for settings that may be absent. */
  vars: Record<string, unknown>;
};

export async function localSettings(devVarsPath = ".dev.vars"): Promise<LocalSettings> {
  ensureDevVars(devVarsPath);
  const secrets = readDevVars(devVarsPath);
  const vars = ((await readWranglerToml()).vars ?? {}) as Record<string, unknown>;
  const text = (name: string) => {
    const value = secrets[name] ?? vars[name];
    if (typeof value !== "string") throw new Error(`${name} is missing from wrangler.toml's [vars] and .dev.vars.`);
    return value;
  };
  return { text, vars };
}
