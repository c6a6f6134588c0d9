// A local production Worker with a fleet of simulated boxes and their farmers signed in.
import { hashPassword } from "../common/credentials.ts";
import { SimulatedDevice, type SimulatedDeviceOptions } from "../device-sim/simulated-device.ts";
import { executeLocalSql } from "../scripts/lib/local-d1.ts";
import { FLEET_PASSWORD, provisionLocalFleet } from "../scripts/lib/local-devices.ts";
import { freePort, freshPersistDir, startLocalWorker, THROWAWAY_JWT_SECRET, type LocalWorker } from "../scripts/lib/local-worker.ts";

export type Fleet = {
  worker: LocalWorker;
  devices: SimulatedDevice[];
  mobileNos: string[];
  stop: () => Promise<void>;
};

/** The production build must exist (`npm run build`). */
export async function startFleet(count: number, options: Partial<SimulatedDeviceOptions> = {}): Promise<Fleet> {
  const worker = await startLocalWorker({ kind: "build", persistTo: await freshPersistDir(), port: await freePort(), jwtSecret: THROWAWAY_JWT_SECRET });
  const credentials = await provisionLocalFleet(worker.persistTo, { count, kind: "3phase", horsePower: 5 });
  const devices = credentials.map(
    (credential) =>
      new SimulatedDevice({
        url: `ws://localhost:${worker.port}/api/device/connect`,
        deviceId: credential.deviceId,
        key: credential.key,
        kind: credential.kind,
        horsePower: credential.horsePower,
        ...options,
      }),
  );
  // Ramp up instead of opening every socket in the same instant.
  devices.forEach((device, index) => setTimeout(() => device.start(), index * 4));
  await Promise.all(devices.map((device) => device.waitUntilConnected(300_000)));
  return {
    worker,
    devices,
    mobileNos: credentials.map((credential) => credential.ownerMobileNo),
    stop: async () => {
      await Promise.all(devices.map((device) => device.stop()));
      await worker.stop();
    },
  };
}

export async function logInFarmers(worker: LocalWorker, mobileNos: string[]): Promise<string[]> {
  const tokens: string[] = [];
  for (const mobileNo of mobileNos) {
    const response = await fetch(`${worker.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ mobileNo, password: FLEET_PASSWORD }),
    });
    tokens.push(((await response.json()) as { token: string }).token);
  }
  return tokens;
}

/** An admin made straight in the local database (there is no admin sign-up), signed in. */
export async function benchAdminToken(worker: LocalWorker): Promise<string> {
  const mobileNo = "9000000099";
  const password = "bench-admin-password";
  await executeLocalSql(
    worker.persistTo,
    `INSERT INTO users (mobile_no, password_hash, is_admin, created_at) VALUES ('${mobileNo}', '${await hashPassword(password)}', 1, ${Date.now()})
     ON CONFLICT(mobile_no) DO NOTHING;`,
  );
  const response = await fetch(`${worker.url}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ mobileNo, password }),
  });
  return ((await response.json()) as { token: string }).token;
}
