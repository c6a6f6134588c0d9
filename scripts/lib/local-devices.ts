// Local-mode provisioning: give an account a device with a fresh key, and remember the key
// next to the local database it belongs to (<persist dir>/sinchai-devices/, git-ignored), so
// the simulator can connect as that device and `--fresh` forgets both together.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MOBILE_NO_PATTERN } from "../../common/constants.ts";
import {
  DEVICE_ID_PATTERN,
  generateDeviceId,
  generateDeviceKey,
  hashDeviceKey,
  hashPassword,
} from "../../common/credentials.ts";
import type { DeviceKind } from "../../common/device-protocol.ts";
import { ratedCurrent } from "../../device-sim/motor-model.ts";
import { executeLocalSql, sqlText } from "./local-d1.ts";

export type LocalDeviceCredentials = {
  deviceId: string;
  key: string;
  kind: DeviceKind;
  horsePower: number;
  ownerMobileNo: string;
};

export function localDevicesDir(persistTo: string): string {
  return join(persistTo, "sinchai-devices");
}

export function localDeviceFile(persistTo: string, deviceId: string): string {
  return join(localDevicesDir(persistTo), `${deviceId}.json`);
}

/**
 * Creates the account's device (or rotates its key if it has one) and saves the credentials.
 * `deviceId` pins the id, as the demo seed does. Like an installer, it sets the box's default
 * current to the simulated motor's running current, so protection starts out right. An account
 * with several boxes gets its first box's key rotated.
 */
export async function provisionLocalDevice(
  persistTo: string,
  options: { mobileNo: string; kind: DeviceKind; horsePower: number; deviceId?: string },
): Promise<LocalDeviceCredentials> {
  if (!MOBILE_NO_PATTERN.test(options.mobileNo)) throw new Error(`Not a mobile number: ${options.mobileNo}`);
  const [owner] = await executeLocalSql<{ id: number; device_id: string | null }>(
    persistTo,
    `SELECT u.id, d.id AS device_id FROM users u LEFT JOIN devices d ON d.owner_user_id = u.id
     WHERE u.mobile_no = ${sqlText(options.mobileNo)} ORDER BY coalesce(d.linked_at, d.created_at), d.id LIMIT 1;`,
  );
  if (!owner) throw new Error(`No account is registered with ${options.mobileNo}. Register it first.`);
  const deviceId = owner.device_id ?? options.deviceId ?? generateDeviceId();
  if (!DEVICE_ID_PATTERN.test(deviceId)) throw new Error(`Not a device id: ${deviceId}`);
  const key = generateDeviceKey();
  await executeLocalSql(
    persistTo,
    `INSERT INTO devices (id, owner_user_id, kind, key_hash, created_at, default_current)
     VALUES (${sqlText(deviceId)}, ${owner.id}, ${sqlText(options.kind)}, ${sqlText(await hashDeviceKey(key))}, ${Date.now()}, ${roundedRatedCurrent(options.kind, options.horsePower)})
     ON CONFLICT(id) DO UPDATE SET owner_user_id = excluded.owner_user_id, key_hash = excluded.key_hash,
       default_current = excluded.default_current;`,
  );
  const credentials: LocalDeviceCredentials = {
    deviceId,
    key,
    kind: options.kind,
    horsePower: options.horsePower,
    ownerMobileNo: options.mobileNo,
  };
  await writeLocalDeviceCredentials(persistTo, credentials);
  return credentials;
}

/** Keeps a device's key next to the local database it belongs to (owner-only file). */
export async function writeLocalDeviceCredentials(
  persistTo: string,
  credentials: LocalDeviceCredentials,
): Promise<void> {
  await mkdir(localDevicesDir(persistTo), { recursive: true });
  await writeFile(localDeviceFile(persistTo, credentials.deviceId), `${JSON.stringify(credentials, null, 2)}\n`, {
    mode: 0o600,
  });
}

export async function readLocalDeviceCredentials(path: string): Promise<LocalDeviceCredentials> {
  return JSON.parse(await readFile(path, "utf8")) as LocalDeviceCredentials;
}

function roundedRatedCurrent(kind: DeviceKind, horsePower: number): number {
  return Math.round(ratedCurrent(kind, horsePower) * 10) / 10;
}

export const FLEET_PASSWORD = "sim-fleet-password";
const FLEET_FIRST_MOBILE_NO = 7_000_000_001;

/**
 * `count` accounts (7000000001, 7000000002, …) each with a device, for load and scale runs.
 * Reuses what an earlier run made; keys are rotated so this process holds them all.
 */
export async function provisionLocalFleet(
  persistTo: string,
  options: { count: number; kind: DeviceKind; horsePower: number },
): Promise<(LocalDeviceCredentials & { password: string })[]> {
  // One hash for every fleet account: they share a password, and hashing 1,000 times would
  // take a minute for nothing.
  const passwordHash = await hashPassword(FLEET_PASSWORD);
  const now = Date.now();
  const current = roundedRatedCurrent(options.kind, options.horsePower);
  const fleet: (LocalDeviceCredentials & { password: string })[] = [];
  const statements: string[] = [];
  for (let index = 0; index < options.count; index++) {
    const mobileNo = String(FLEET_FIRST_MOBILE_NO + index);
    const deviceId = `SNC-F${fleetCode(index)}`;
    const key = generateDeviceKey();
    statements.push(
      `INSERT INTO users (mobile_no, password_hash, is_admin, created_at)
         VALUES (${sqlText(mobileNo)}, ${sqlText(passwordHash)}, 0, ${now}) ON CONFLICT(mobile_no) DO NOTHING;`,
      `INSERT INTO devices (id, owner_user_id, kind, key_hash, created_at, default_current)
         VALUES (${sqlText(deviceId)}, (SELECT id FROM users WHERE mobile_no = ${sqlText(mobileNo)}), ${sqlText(options.kind)}, ${sqlText(await hashDeviceKey(key))}, ${now}, ${current})
         ON CONFLICT(id) DO UPDATE SET key_hash = excluded.key_hash;`,
    );
    fleet.push({
      deviceId,
      key,
      kind: options.kind,
      horsePower: options.horsePower,
      ownerMobileNo: mobileNo,
      password: FLEET_PASSWORD,
    });
  }
  await executeLocalSql(persistTo, statements.join("\n"));
  await mkdir(localDevicesDir(persistTo), { recursive: true });
  await writeFile(join(localDevicesDir(persistTo), "fleet.json"), `${JSON.stringify(fleet, null, 2)}\n`, {
    mode: 0o600,
  });
  return fleet;
}

/** Seven characters of the device-id alphabet for fleet device number `index`. */
function fleetCode(index: number): string {
  const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  let code = "";
  let rest = index;
  for (let position = 0; position < 7; position++) {
    code = alphabet[rest % alphabet.length] + code;
    rest = Math.floor(rest / alphabet.length);
  }
  return code;
}
