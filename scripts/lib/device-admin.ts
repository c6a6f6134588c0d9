// Provisioning for operators, straight against D1 (local or remote): the same rules as the
// admin API (worker/api/admin/devices.ts), for when there is no admin session at hand.
import { DEVICE_ID_PATTERN, generateDeviceId, generateDeviceKey, hashDeviceKey } from "../../common/credentials.ts";
import type { DeviceKind } from "../../common/device-protocol.ts";
import { type D1Target, executeSql } from "./local-d1.ts";
import { operatorSql } from "./operator-sql.ts";

export type DeviceListing = { id: string; kind: string; owner: string | null; online: number; firmware: string | null };

async function ownerId(target: D1Target, mobileNo: string): Promise<number> {
  const [row] = await executeSql<{ id: number; device_id: string | null }>(
    target,
    operatorSql({ op: "findOwner", mobileNo }),
  );
  if (!row) throw new Error(`No account is registered with ${mobileNo}.`);
  if (row.device_id) throw new Error(`${mobileNo} already has device ${row.device_id}. Unassign it first.`);
  return row.id;
}

export async function provisionDevice(
  target: D1Target,
  options: { kind: DeviceKind; ownerMobileNo?: string },
): Promise<{ deviceId: string; key: string }> {
  const ownerUserId = options.ownerMobileNo ? await ownerId(target, options.ownerMobileNo) : null;
  const deviceId = generateDeviceId();
  const key = generateDeviceKey();
  const keyHash = await hashDeviceKey(key);
  await executeSql(
    target,
    operatorSql({ op: "provisionDevice", deviceId, ownerUserId, kind: options.kind, keyHash, now: Date.now() }),
  );
  return { deviceId, key };
}

export async function rotateDeviceKey(target: D1Target, deviceId: string): Promise<string> {
  const key = generateDeviceKey();
  const sql = operatorSql({ op: "rotateDeviceKey", deviceId, keyHash: await hashDeviceKey(key) });
  const rows = await executeSql<{ id: string }>(target, sql);
  if (rows.length === 0) throw new Error(`No device ${deviceId}.`);
  return key;
}

export async function assignDevice(target: D1Target, deviceId: string, ownerMobileNo: string | null): Promise<void> {
  // Before the owner lookup: a mistyped id should not cost a round trip to a remote D1 first.
  if (!DEVICE_ID_PATTERN.test(deviceId)) throw new Error(`Not a device id: ${deviceId}`);
  const ownerUserId = ownerMobileNo ? await ownerId(target, ownerMobileNo) : null;
  const rows = await executeSql<{ id: string }>(target, operatorSql({ op: "assignDevice", deviceId, ownerUserId }));
  if (rows.length === 0) throw new Error(`No device ${deviceId}.`);
}

export function listDevices(target: D1Target): Promise<DeviceListing[]> {
  return executeSql<DeviceListing>(target, operatorSql({ op: "listDevices" }));
}
