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
} from "../../common/credentials.ts";
import type { DeviceKind } from "../../common/device-protocol.ts";
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
 * `deviceId` pins the id, as the demo seed does.
 */
export async function provisionLocalDevice(
  persistTo: string,
  options: { mobileNo: string; kind: DeviceKind; horsePower: number; deviceId?: string },
): Promise<LocalDeviceCredentials> {
  if (!MOBILE_NO_PATTERN.test(options.mobileNo)) throw new Error(`Not a mobile number: ${options.mobileNo}`);
  const [owner] = await executeLocalSql<{ id: number; device_id: string | null }>(
    persistTo,
    `SELECT u.id, d.id AS device_id FROM users u LEFT JOIN devices d ON d.owner_user_id = u.id
     WHERE u.mobile_no = ${sqlText(options.mobileNo)};`,
  );
  if (!owner) throw new Error(`No account is registered with ${options.mobileNo}. Register it first.`);
  const deviceId = owner.device_id ?? options.deviceId ?? generateDeviceId();
  if (!DEVICE_ID_PATTERN.test(deviceId)) throw new Error(`Not a device id: ${deviceId}`);
  const key = generateDeviceKey();
  await executeLocalSql(
    persistTo,
    `INSERT INTO devices (id, owner_user_id, kind, key_hash, created_at)
     VALUES (${sqlText(deviceId)}, ${owner.id}, ${sqlText(options.kind)}, ${sqlText(await hashDeviceKey(key))}, ${Date.now()})
     ON CONFLICT(id) DO UPDATE SET owner_user_id = excluded.owner_user_id, key_hash = excluded.key_hash;`,
  );
  const credentials: LocalDeviceCredentials = {
    deviceId,
    key,
    kind: options.kind,
    horsePower: options.horsePower,
    ownerMobileNo: options.mobileNo,
  };
  await mkdir(localDevicesDir(persistTo), { recursive: true });
  await writeFile(localDeviceFile(persistTo, deviceId), JSON.stringify(credentials, null, 2) + "\n", {
    mode: 0o600,
  });
  return credentials;
}

export async function readLocalDeviceCredentials(path: string): Promise<LocalDeviceCredentials> {
  return JSON.parse(await readFile(path, "utf8")) as LocalDeviceCredentials;
}
