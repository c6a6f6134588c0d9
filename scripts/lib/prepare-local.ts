// Everything local mode needs before a server starts: a JWT secret in .dev.vars, the D1
// migrations applied, and the demo accounts with their provisioned pump (seeded on the first
// start and kept after that; `resetDemo` seeds them again from scratch).
import { ensureDevVars } from "./dev-vars.ts";
import { applyLocalMigrations } from "./local-d1.ts";
import type { LocalDeviceCredentials } from "./local-devices.ts";
import { resetLocalDemo, seedLocalDemo } from "./seed.ts";

export async function prepareLocal(
  persistTo: string,
  step: (label: string) => () => void = () => () => {},
  options: { resetDemo?: boolean } = {},
): Promise<LocalDeviceCredentials> {
  ensureDevVars();
  let done = step("Applying D1 migrations to the local database");
  await applyLocalMigrations(persistTo);
  done();
  done = step(
    options.resetDemo
      ? "Resetting the demo accounts and device"
      : "Seeding the demo accounts and device (once: later starts keep them)",
  );
  const demoDevice = options.resetDemo ? await resetLocalDemo(persistTo) : await seedLocalDemo(persistTo);
  done();
  return demoDevice;
}
