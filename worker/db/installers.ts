// Installers, their stock of boxes, the boxes' claim codes and installations, in D1
// (docs/decisions/033-installers.md). The claim itself, which links a box, is one batch with the
// relink's own statements (worker/installers/claims.ts).
import { and, asc, desc, eq, isNull, or, sql } from "drizzle-orm";
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

/**
 * Every installer with their number and what they hold: boxes in their stock not yet linked,
 * unlinked boxes of their region in nobody's stock, and the boxes they installed.
 */
export function listInstallers(db: Db) {
  return db
    .select({
      installer: installers,
      mobileNo: users.mobileNo,
      stockCount: sql<number>`(SELECT count(*) FROM installer_stock s JOIN devices d ON d.id = s.device_id
        WHERE s.installer_user_id = ${installers.userId} AND d.owner_user_id IS NULL)`,
      regionCount: sql<number>`(SELECT count(*) FROM devices d WHERE d.region = ${installers.region}
        AND d.owner_user_id IS NULL AND NOT EXISTS (SELECT 1 FROM installer_stock s WHERE s.device_id = d.id))`,
      installs: sql<number>`(SELECT count(*) FROM installations n WHERE n.installer_user_id = ${installers.userId})`,
      stockIds: sql<string | null>`(SELECT group_concat(device_id, ' ') FROM (SELECT s.device_id FROM installer_stock s
        JOIN devices d ON d.id = s.device_id WHERE s.installer_user_id = ${installers.userId} AND d.owner_user_id IS NULL
        ORDER BY s.device_id))`,
    })
    .from(installers)
    .innerJoin(users, eq(users.id, installers.userId))
    .orderBy(asc(installers.createdAt), asc(installers.userId));
}

/** Sets (or with null clears) the region whose boxes an installer may claim; the row, or undefined for no installer. */
export async function setInstallerRegion(db: Db, userId: number, region: string | null) {
  const [row] = await db.update(installers).set({ region }).where(eq(installers.userId, userId)).returning();
  return row;
}

/**
 * Tags boxes waiting for a farmer with a region (or with null, none). A linked box is left
 * out: the tag only says who may claim a box. Answers the ids it tagged.
 */
export async function tagBoxRegion(db: Db, deviceIds: string[], region: string | null) {
  const rows = await db
    .update(devices)
    .set({ region })
    .where(
      and(
        sql`${devices.id} IN (SELECT value FROM json_each(${JSON.stringify([...new Set(deviceIds)])}))`,
        isNull(devices.ownerUserId),
      ),
    )
    .returning({ deviceId: devices.id });
  return rows.map((row) => row.deviceId).sort();
}

/**
 * Takes boxes back from an installer's stock: only theirs, and only boxes not linked to a
 * farmer (a linked box stays on their record). A claim waiting for the farmer's code dies with
 * it (the link's own check, worker/installers/claims.ts). Answers the ids taken back.
 */
export async function removeFromStock(db: Db, installerUserId: number, deviceIds: string[]) {
  const rows = await db
    .delete(installerStock)
    .where(
      and(
        eq(installerStock.installerUserId, installerUserId),
        sql`${installerStock.deviceId} IN (SELECT value FROM json_each(${JSON.stringify([...new Set(deviceIds)])}))`,
        sql`${installerStock.deviceId} IN (SELECT id FROM devices WHERE owner_user_id IS NULL)`,
      ),
    )
    .returning({ deviceId: installerStock.deviceId });
  return rows.map((row) => row.deviceId).sort();
}

/**
 * The rule of who may claim a box, as SQL over a box id and an installer's user id (both SQL
 * expressions): the box is in that installer's stock, or it is in nobody's stock and carries the
 * installer's region (docs/decisions/035-installer-regions.md). The claim's first step reads it
 * (`claimableBy`) and the link's batch checks it again, so a box taken back or a region changed
 * between the two takes effect at once.
 */
export const CLAIMABLE_SQL = (deviceId: string, installerUserId: string) =>
  `(EXISTS (SELECT 1 FROM installer_stock s WHERE s.device_id = ${deviceId} AND s.installer_user_id = ${installerUserId}) ` +
  `OR (NOT EXISTS (SELECT 1 FROM installer_stock s WHERE s.device_id = ${deviceId}) ` +
  `AND (SELECT region FROM devices WHERE id = ${deviceId}) = (SELECT region FROM installers WHERE user_id = ${installerUserId})))`;

/** Whether an installer may claim a box (CLAIMABLE_SQL), with its owner: undefined when they may not. */
export function claimableBy(db: Db, installerUserId: number, deviceId: string) {
  // The box is aliased: CLAIMABLE_SQL's own subqueries read `devices` and `installers` by name.
  return db.get<{ ownerUserId: number | null }>(
    sql`SELECT box.owner_user_id AS ownerUserId FROM devices box WHERE box.id = ${deviceId} AND ${sql.raw(
      CLAIMABLE_SQL("box.id", String(Math.trunc(installerUserId))),
    )}`,
  );
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

/** How many boxes an installer's list shows: a region may hold many more than one visit needs. */
const STOCK_LIST_LIMIT = 200;

/**
 * The boxes an installer may claim (CLAIMABLE_SQL), not yet linked: their stock first, then
 * their region's, each saying which (`via`); at most STOCK_LIST_LIMIT.
 */
export function stockOf(db: Db, installerUserId: number) {
  return db
    .select({
      deviceId: devices.id,
      kind: devices.kind,
      online: devices.online,
      via: sql<"stock" | "region">`CASE WHEN ${installerStock.installerUserId} IS NULL THEN 'region' ELSE 'stock' END`,
    })
    .from(devices)
    .leftJoin(installerStock, eq(installerStock.deviceId, devices.id))
    .where(
      and(
        isNull(devices.ownerUserId),
        or(
          eq(installerStock.installerUserId, installerUserId),
          and(
            isNull(installerStock.deviceId),
            sql`${devices.region} = (SELECT region FROM installers WHERE user_id = ${installerUserId})`,
          ),
        ),
      ),
    )
    .orderBy(sql`${installerStock.assignedAt} IS NULL`, asc(installerStock.assignedAt), asc(devices.id))
    .limit(STOCK_LIST_LIMIT);
}

/** The boxes an installer linked, newest first, with their online state (never their farmer's logs). */
export async function installedBy(db: Db, installerUserId: number) {
  const rows = await db
    .select({ installation: installations, online: devices.online, lastSeenAt: devices.lastSeenAt })
    .from(installations)
    .innerJoin(devices, eq(devices.id, installations.deviceId))
    .where(eq(installations.installerUserId, installerUserId))
    .orderBy(desc(installations.installedAt), asc(installations.deviceId));
  // Once handed over (or ended by a relink) the box's state is its farmer's alone: the installer
  // keeps only the record of their own visit (when, and the report of what they measured and set).
  return rows.map((row) => (row.installation.handedOverAt === null ? row : { ...row, online: null, lastSeenAt: null }));
}

export function findInstallation(db: Db, deviceId: string) {
  return db.query.installations.findFirst({ where: eq(installations.deviceId, deviceId) });
}

/**
 * The box's installation if it is still in installer `installerUserId`'s hands: theirs, not
 * handed over, and for the farmer who owns the box now. A relink ends an installation in its
 * batch (common/access-change-sql.ts); the owner is checked as well, so that no other way an
 * owner changes leaves an installer with someone else's pump.
 */
export async function installationInHandsOf(db: Db, installerUserId: number, deviceId: string) {
  const [row] = await db
    .select({ installation: installations })
    .from(installations)
    .innerJoin(devices, eq(devices.id, installations.deviceId))
    .where(
      and(
        eq(installations.deviceId, deviceId),
        eq(installations.installerUserId, installerUserId),
        isNull(installations.handedOverAt),
        eq(installations.farmerUserId, devices.ownerUserId),
      ),
    );
  return row?.installation;
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

/**
 * Keeps the report (JSON) with its dry-run check, unless the report was replaced meanwhile
 * (settings set again while the check ran: the check was of the settings before).
 */
export async function saveDryRunCheck(db: Db, deviceId: string, values: { report: string; reportAt: string }) {
  await db
    .update(installations)
    .set({ report: values.report })
    .where(
      and(
        eq(installations.deviceId, deviceId),
        sql`json_extract(${installations.report}, '$.at') = ${values.reportAt}`,
      ),
    );
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
