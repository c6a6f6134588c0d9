import { and, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { devices, users, type DeviceRow } from "./schema.ts";

export function findDeviceById(db: Db, deviceId: string): Promise<DeviceRow | undefined> {
  return db.query.devices.findFirst({ where: eq(devices.id, deviceId) });
}

export function findDeviceByOwner(db: Db, userId: number): Promise<DeviceRow | undefined> {
  return db.query.devices.findFirst({ where: eq(devices.ownerUserId, userId) });
}

/** The device of the account registered under `mobileNo`, with its owner's id. */
export async function findDeviceByOwnerMobileNo(
  db: Db,
  mobileNo: string,
): Promise<{ device: DeviceRow; ownerUserId: number } | undefined> {
  const rows = await db
    .select({ device: devices, ownerUserId: users.id })
    .from(devices)
    .innerJoin(users, eq(devices.ownerUserId, users.id))
    .where(eq(users.mobileNo, mobileNo))
    .limit(1);
  return rows[0];
}

/** The device with its owner's number and motor config, as a device socket needs it. */
export async function findDeviceWithOwner(db: Db, deviceId: string) {
  const rows = await db
    .select({
      device: devices,
      owner: {
        id: users.id,
        mobileNo: users.mobileNo,
      },
    })
    .from(devices)
    .leftJoin(users, eq(devices.ownerUserId, users.id))
    .where(eq(devices.id, deviceId))
    .limit(1);
  return rows[0];
}

export async function updateDevicePresence(
  db: Db,
  deviceId: string,
  presence: { online: boolean; lastSeenAt: number },
): Promise<void> {
  await db.update(devices).set(presence).where(eq(devices.id, deviceId));
}

export async function updateDeviceIdentity(
  db: Db,
  deviceId: string,
  identity: Partial<Pick<DeviceRow, "firmware" | "imei" | "sim" | "chipId" | "signal" | "kind">>,
): Promise<void> {
  if (Object.keys(identity).length === 0) return;
  await db.update(devices).set(identity).where(eq(devices.id, deviceId));
}

export async function isDeviceOwnedBy(db: Db, deviceId: string, userId: number): Promise<boolean> {
  const row = await db.query.devices.findFirst({
    columns: { id: true },
    where: and(eq(devices.id, deviceId), eq(devices.ownerUserId, userId)),
  });
  return row !== undefined;
}
