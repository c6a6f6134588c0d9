// Provisioning for operators, straight against D1 (local or remote): the same rules as the
// admin API (worker/api/admin/devices.ts), for when there is no admin session at hand.
import { MOBILE_NO_PATTERN } from "../../common/constants.ts";
import {
  DEVICE_ID_PATTERN,
  generateDeviceId,
  generateDeviceKey,
  hashDeviceKey,
} from "../../common/credentials.ts";
import type { DeviceKind } from "../../common/device-protocol.ts";
import { executeSql, sqlText, type D1Target } from "./local-d1.ts";

export type DeviceListing = { id: string; kind: string; owner: string | null; online: number; firmware: string | null };

async function ownerId(target: D1Target, mobileNo: string): Promise<number> {
  if (!MOBILE_NO_PATTERN.test(mobileNo)) throw new Error(`Not a mobile number: ${mobileNo}`);
  const [row] = await executeSql<{ id: number; device_id: string | null }>(
    target,
    `SELECT u.id, d.id AS device_id FROM users u LEFT JOIN devices d ON d.owner_user_id = u.id WHERE u.mobile_no = ${sqlText(mobileNo)};`,
  );
  if (!row) throw new Error(`No account is registered with ${mobileNo}.`);
  if (row.device_id) throw new Error(`${mobileNo} already has device ${row.device_id}. Unassign it first.`);
  return row.id;
}

function checkedDeviceId(deviceId: string): string {
  if (!DEVICE_ID_PATTERN.test(deviceId)) throw new Error(`Not a device id: ${deviceId}`);
  return deviceId;
}

export async function provisionDevice(
  target: D1Target,
  options: { kind: DeviceKind; ownerMobileNo?: string },
): Promise<{ deviceId: string; key: string }> {
  const owner = options.ownerMobileNo ? await ownerId(target, options.ownerMobileNo) : null;
  const deviceId = generateDeviceId();
  const key = generateDeviceKey();
  await executeSql(
    target,
    `INSERT INTO devices (id, owner_user_id, kind, key_hash, created_at)
     VALUES (${sqlText(deviceId)}, ${owner ?? "NULL"}, ${sqlText(options.kind)}, ${sqlText(await hashDeviceKey(key))}, ${Date.now()});`,
  );
  return { deviceId, key };
}

export async function rotateDeviceKey(target: D1Target, deviceId: string): Promise<string> {
  const key = generateDeviceKey();
  const rows = await executeSql<{ id: string }>(
    target,
    `UPDATE devices SET key_hash = ${sqlText(await hashDeviceKey(key))} WHERE id = ${sqlText(checkedDeviceId(deviceId))} RETURNING id;`,
  );
  if (rows.length === 0) throw new Error(`No device ${deviceId}.`);
  return key;
}

export async function assignDevice(target: D1Target, deviceId: string, ownerMobileNo: string | null): Promise<void> {
  const owner = ownerMobileNo ? await ownerId(target, ownerMobileNo) : null;
  const rows = await executeSql<{ id: string }>(
    target,
    `UPDATE devices SET owner_user_id = ${owner ?? "NULL"} WHERE id = ${sqlText(checkedDeviceId(deviceId))} RETURNING id;`,
  );
  if (rows.length === 0) throw new Error(`No device ${deviceId}.`);
}

export function listDevices(target: D1Target): Promise<DeviceListing[]> {
  return executeSql<DeviceListing>(
    target,
    `SELECT d.id, d.kind, u.mobile_no AS owner, d.online, d.firmware
     FROM devices d LEFT JOIN users u ON u.id = d.owner_user_id ORDER BY d.created_at;`,
  );
}
