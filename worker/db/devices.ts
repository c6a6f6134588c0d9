import { asc, eq, like, or, sql } from "drizzle-orm";
import type { FleetSearch } from "../../common/admin-schemas.ts";
import type { MotorConfig } from "../../common/api-schemas.ts";
import { DEFAULT_MOTOR_CONFIG } from "../../common/constants.ts";
import { provisionStatements } from "../../common/first-box-sql.ts";
import { type VoltageLimits, voltageLimitsOf } from "../../common/protection.ts";
import type { Db } from "./client.ts";
import { type DeviceRow, devices, users } from "./schema.ts";

export function findDeviceById(db: Db, deviceId: string): Promise<DeviceRow | undefined> {
  return db.query.devices.findFirst({ where: eq(devices.id, deviceId) });
}

/** The box linked longest comes first: the account's first box, which SPEC §7's routes act on. */
const FIRST_BOX_FIRST = [asc(sql`coalesce(${devices.linkedAt}, ${devices.createdAt})`), asc(devices.id)];

/**
 * Joins an account to its first box only, so that an account is one row however many boxes it
 * owns (the views keyed by number: SPEC §7 speaks of one device per account).
 */
// The same order as FIRST_BOX_FIRST, written against the subquery's own alias.
export const firstBoxOfUser = sql`${devices.id} = (SELECT first.id FROM devices first WHERE first.owner_user_id = ${users.id} ORDER BY coalesce(first.linked_at, first.created_at), first.id LIMIT 1)`;

/** The account's first box (docs/decisions/018-shared-pumps.md). */
export function findDeviceByOwner(db: Db, userId: number): Promise<DeviceRow | undefined> {
  return db.query.devices.findFirst({ where: eq(devices.ownerUserId, userId), orderBy: FIRST_BOX_FIRST });
}

/** Every box the account owns, its first box first. */
export function listDevicesOfOwner(db: Db, userId: number): Promise<DeviceRow[]> {
  return db.query.devices.findMany({ where: eq(devices.ownerUserId, userId), orderBy: FIRST_BOX_FIRST });
}

/**
 * The motor settings a box enforces, its voltage limits with its kind's defaults where none
 * were set; without a box, what a new one starts with.
 */
export function motorConfigOf(device: DeviceRow | null | undefined): MotorConfig & VoltageLimits {
  if (!device) return { ...DEFAULT_MOTOR_CONFIG, ...voltageLimitsOf("3phase") };
  return {
    defaultCurrent: device.defaultCurrent,
    dryRunThreshold: device.dryRunThreshold,
    overCurrentThreshold: device.overCurrentThreshold,
    ...voltageLimitsOf(device.kind, device),
  };
}

/** The first box of the account registered under `mobileNo`, with its owner's id. */
export async function findDeviceByOwnerMobileNo(
  db: Db,
  mobileNo: string,
): Promise<{ device: DeviceRow; ownerUserId: number } | undefined> {
  const rows = await db
    .select({ device: devices, ownerUserId: users.id })
    .from(devices)
    .innerJoin(users, eq(devices.ownerUserId, users.id))
    .where(eq(users.mobileNo, mobileNo))
    .orderBy(...FIRST_BOX_FIRST)
    .limit(1);
  return rows[0];
}

/** The device with its owner's id and number, as its hub needs them. */
/**
 * When box `device` became its owner's: linked to them, or made for them. Its people see its log
 * and usage from then on; what came before was another owner's (an admin sees everything).
 */
export function ownedSince(device: Pick<DeviceRow, "linkedAt" | "createdAt">): number {
  return device.linkedAt ?? device.createdAt;
}

export async function findDeviceWithOwner(db: Db, deviceId: string) {
  const rows = await db
    .select({ device: devices, owner: { id: users.id, mobileNo: users.mobileNo } })
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
  identity: Partial<Pick<DeviceRow, "firmware" | "imei" | "sim" | "chipId" | "signal" | "kind" | "connection">>,
): Promise<void> {
  const known = Object.fromEntries(Object.entries(identity).filter(([, value]) => value !== undefined));
  if (Object.keys(known).length === 0) return;
  await db.update(devices).set(known).where(eq(devices.id, deviceId));
}

/**
 * Makes a box, for an account (which may own others) or for stock: one D1 batch of the
 * statements `npm run device -- provision` runs too, so a first box takes the settings an admin
 * kept for its account (common/first-box-sql.ts).
 */
export async function insertDevice(
  db: Db,
  values: {
    id: string;
    kind: DeviceRow["kind"];
    keyHash: string;
    ownerUserId: number | null;
    now: number;
    region?: string | null;
  },
): Promise<DeviceRow> {
  const d1 = db.$client;
  const statements = provisionStatements({ deviceId: values.id, ...values });
  await d1.batch(statements.map(({ sql, params }) => d1.prepare(sql).bind(...params)));
  return (await findDeviceById(db, values.id))!;
}

export async function setDeviceKeyHash(db: Db, deviceId: string, keyHash: string): Promise<boolean> {
  const rows = await db.update(devices).set({ keyHash }).where(eq(devices.id, deviceId)).returning({ id: devices.id });
  return rows.length > 0;
}

/** Every box with its owner's account, oldest first; with `search`, those whose id or owner's number it finds. */
export function listDevicesWithOwners(db: Db, search?: FleetSearch) {
  return db
    .select({ device: devices, ownerMobileNo: users.mobileNo })
    .from(devices)
    .leftJoin(users, eq(devices.ownerUserId, users.id))
    .where(
      search &&
        or(
          sql`false`,
          search.digits === null ? undefined : like(users.mobileNo, `%${search.digits}%`),
          search.boxIdPart === null ? undefined : like(devices.id, `SNC-%${search.boxIdPart}%`),
        ),
    )
    .orderBy(devices.createdAt);
}

export async function setDeviceName(db: Db, deviceId: string, name: string | null): Promise<void> {
  await db.update(devices).set({ name }).where(eq(devices.id, deviceId));
}
