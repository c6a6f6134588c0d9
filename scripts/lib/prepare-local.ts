// Everything local mode needs before a server starts: a JWT secret in .dev.vars, the D1
// migrations applied, and the demo accounts with their provisioned pump.
import { ensureDevVars } from "./dev-vars.ts";
import { applyLocalMigrations } from "./local-d1.ts";
import type { LocalDeviceCredentials } from "./local-devices.ts";
import { seedLocalDemo } from "./seed.ts";

export async function prepareLocal(
  persistTo: string,
  step: (label: string) => () => void = () => () => {},
): Promise<LocalDeviceCredentials> {
  ensureDevVars();
  let done = step("Applying D1 migrations to the local database");
  await applyLocalMigrations(persistTo);
  done();
  done = step("Seeding the demo accounts and device");
  const demoDevice = await seedLocalDemo(persistTo);
  done();
  return demoDevice;
}
