// Installers, their stock of boxes, the boxes' claim codes and installations, in D1
// (docs/decisions/033-installers.md). The claim itself, which links a box, is one batch with the
// relink's own statements (worker/installers/claims.ts).
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { boxClaims, devices, installations, installerStock, installers, users } from "./schema.ts";

export function findInstaller(db: Db, userId: number) {
  return db.query.installers.findFirst({ where: eq(installers.userId, userId) });
}

/** Makes account `userId` an installer, or renames one; answers the row. */
export async function upsertInstaller(
  db: Db,
  values: { userId: number; name: string; createdByUserId: number; now: number },
) {
  const [row] = await db
    .insert(installers)
    .values({
      userId: values.userId,
      name: values.name,
      createdByUserId: values.createdByUserId,
      createdAt: values.now,
    })
    .onConflictDoUpdate({ target: installers.userId, set: { name: values.name } })
    .returning();
  return row!;
}

export function listInstallers(db: Db) {
  return db
    .select({ installer: installers, mobileNo: users.mobileNo })
    .from(installers)
    .innerJoin(users, eq(users.id, installers.userId))
    .orderBy(asc(installers.createdAt), asc(installers.userId));
}

/**
 * Gives boxes to an installer to fit: only boxes that exist and have no owner, none already in
 * another installer's stock. Answers the ids it took.
 */
export async function addToStock(db: Db, installerUserId: number, deviceIds: string[], now: number) {
  const taken: string[] = [];
  for (const deviceId of new Set(deviceIds)) {
    const device = await db.query.devices.findFirst({ where: eq(devices.id, deviceId) });
    if (!device || device.ownerUserId !== null) continue;
    const rows = await db
      .insert(installerStock)
      .values({ deviceId, installerUserId, assignedAt: now })
      .onConflictDoNothing()
      .returning({ deviceId: installerStock.deviceId });
    if (rows.length > 0) taken.push(deviceId);
  }
  return taken;
}

/** An installer's boxes not yet linked, with whether each has a claim code printed. */
export function stockOf(db: Db, installerUserId: number) {
  return db
    .select({ deviceId: devices.id, kind: devices.kind, online: devices.online })
    .from(installerStock)
    .innerJoin(devices, eq(devices.id, installerStock.deviceId))
    .where(and(eq(installerStock.installerUserId, installerUserId), isNull(devices.ownerUserId)))
    .orderBy(asc(installerStock.assignedAt), asc(devices.id));
}

/** The boxes an installer linked, newest first, with their online state (never their farmer's logs). */
export function installedBy(db: Db, installerUserId: number) {
  return db
    .select({ installation: installations, online: devices.online, lastSeenAt: devices.lastSeenAt })
    .from(installations)
    .innerJoin(devices, eq(devices.id, installations.deviceId))
    .where(eq(installations.installerUserId, installerUserId))
    .orderBy(desc(installations.installedAt), asc(installations.deviceId));
}

export function findInstallation(db: Db, deviceId: string) {
  return db.query.installations.findFirst({ where: eq(installations.deviceId, deviceId) });
}

export function findStockEntry(db: Db, deviceId: string) {
  return db
    .select({ installerUserId: installerStock.installerUserId, ownerUserId: devices.ownerUserId })
    .from(installerStock)
    .innerJoin(devices, eq(devices.id, installerStock.deviceId))
    .where(eq(installerStock.deviceId, deviceId))
    .get();
}

export function findClaim(db: Db, deviceId: string) {
  return db.query.boxClaims.findFirst({ where: eq(boxClaims.deviceId, deviceId) });
}

/** Records which farmer's number an installer is claiming a box for, if its claim code is unused. */
export async function markClaimPending(
  db: Db,
  claim: { deviceId: string; codeHash: string; mobileNo: string; installerUserId: number },
): Promise<boolean> {
  const rows = await db
    .update(boxClaims)
    .set({ pendingMobileNo: claim.mobileNo, pendingByUserId: claim.installerUserId })
    .where(
      and(eq(boxClaims.deviceId, claim.deviceId), eq(boxClaims.codeHash, claim.codeHash), isNull(boxClaims.usedAt)),
    )
    .returning({ deviceId: boxClaims.deviceId });
  return rows.length === 1;
}

/** Ends an installer's access to a box they installed; false when it was not theirs or is handed over already. */
export async function markHandedOver(db: Db, deviceId: string, installerUserId: number | null, now: number) {
  const rows = await db
    .update(installations)
    .set({ handedOverAt: now })
    .where(
      and(
        eq(installations.deviceId, deviceId),
        installerUserId === null ? undefined : eq(installations.installerUserId, installerUserId),
        isNull(installations.handedOverAt),
      ),
    )
    .returning({ deviceId: installations.deviceId });
  return rows.length === 1;
}

/** The farmer saw who installed their pump; that also hands it over, if the installer had not. */
export async function markSeenByFarmer(db: Db, deviceId: string, now: number) {
  await db
    .update(installations)
    .set({ farmerSeenAt: now })
    .where(and(eq(installations.deviceId, deviceId), isNull(installations.farmerSeenAt)));
  await markHandedOver(db, deviceId, null, now);
}

/** Keeps the box's last test run (JSON) with its installation. */
export async function saveTestRun(db: Db, deviceId: string, testRun: string) {
  await db.update(installations).set({ testRun }).where(eq(installations.deviceId, deviceId));
}

/** Keeps the commissioning report (JSON) and the feeder tag with the box's installation. */
export async function saveCommissioningReport(
  db: Db,
  deviceId: string,
  values: { report: string; feeder: string | null; now: number },
) {
  await db
    .update(installations)
    .set({ report: values.report, feeder: values.feeder, commissionedAt: values.now })
    .where(eq(installations.deviceId, deviceId));
}

/**
 * The boxes with `deviceId`'s feeder tag (set at commissioning), at most `limit`, online first
 * and most recently heard first: the neighbours a cut supply is compared with
 * (durable-objects/device-hub/theft.ts). None when the box has no tag.
 */
export async function feederNeighbours(db: Db, deviceId: string, limit: number): Promise<string[]> {
  const rows = await db.all<{ id: string }>(sql`
    SELECT n.device_id AS id FROM installations own
    JOIN installations n ON n.feeder = own.feeder AND n.device_id != own.device_id
    JOIN devices d ON d.id = n.device_id
    WHERE own.device_id = ${deviceId} AND own.feeder IS NOT NULL
    ORDER BY d.online DESC, d.last_seen_at DESC, n.device_id
    LIMIT ${limit}`);
  return rows.map((row) => row.id);
}
