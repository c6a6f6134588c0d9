// Accounts as the admin area sees them: lists, one user with their device, role changes and
// deletion. Every rule that protects the fleet (never zero admins) is a condition inside the
// SQL statement itself, so two admins acting at once cannot get around it.
import { asc, count, eq, inArray, like, or, sql } from "drizzle-orm";
import { HUB_NOTICE_UPSERT, type HubNoticeRow } from "../../common/access-change-sql.ts";
import type { FleetSearch } from "../../common/admin-schemas.ts";
import type { AdminUserListItem, AdminUserView, ConfigHistoryEntry } from "../../common/admin-user-views.ts";
import type { DeviceStatus } from "../../common/realtime-protocol.ts";
import type { Db } from "./client.ts";
import { listMembershipsOf } from "./device-members.ts";
import { firstBoxOfUser, listDevicesOfOwner, motorConfigOf } from "./devices.ts";
import { findKeptSettings, type KeptSettings, listMotorConfigHistory } from "./motor-config.ts";
import { type DeviceRow, devices, type UserRow, users } from "./schema.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Every account, oldest first, with its first box; with `search`, those whose number it finds
 * or who own a box whose id it finds (any of their boxes).
 */
export async function listUsersForAdmin(db: Db, search?: FleetSearch): Promise<AdminUserListItem[]> {
  const rows = await db
    .select({
      id: users.id,
      mobileNo: users.mobileNo,
      isAdmin: users.isAdmin,
      createdAt: users.createdAt,
      lastLogin: users.lastLogin,
      deviceId: devices.id,
    })
    .from(users)
    .leftJoin(devices, firstBoxOfUser)
    .where(
      search &&
        or(
          sql`false`,
          search.digits === null ? undefined : like(users.mobileNo, `%${search.digits}%`),
          search.boxIdPart === null
            ? undefined
            : sql`EXISTS (SELECT 1 FROM devices owned WHERE owned.owner_user_id = ${users.id} AND owned.id LIKE ${`SNC-%${search.boxIdPart}%`})`,
        ),
    )
    .orderBy(asc(users.id));
  return rows.map((row) => ({ ...row, createdAt: iso(row.createdAt)!, lastLogin: iso(row.lastLogin) }));
}

/**
 * SPEC §3 "Device status map": every account's number → its device's presence. D1 holds the
 * hubs' copy of presence (docs/decisions/004); an account without a device is offline.
 */
export async function deviceStatuses(db: Db): Promise<Record<string, DeviceStatus>> {
  const rows = await db
    .select({ mobileNo: users.mobileNo, online: devices.online })
    .from(users)
    .leftJoin(devices, firstBoxOfUser);
  return Object.fromEntries(rows.map((row) => [row.mobileNo, row.online ? "online" : "offline"]));
}

function toAdminUserView(
  user: UserRow,
  owned: DeviceRow[],
  shared: Awaited<ReturnType<typeof listMembershipsOf>>,
  kept: KeptSettings | undefined,
): AdminUserView {
  const device = owned[0] ?? null;
  return {
    id: user.id,
    mobileNo: user.mobileNo,
    isAdmin: user.isAdmin,
    createdAt: iso(user.createdAt)!,
    lastLogin: iso(user.lastLogin),
    numberVerifiedAt: iso(user.numberVerifiedAt),
    // The first box's settings; an account without a box shows what its first box will start
    // with: the settings an admin kept for it, else a new box's.
    ...motorConfigOf(device),
    ...(device ? {} : kept),
    deviceInfo: {
      signal: device?.signal ?? null,
      imei: device?.imei ?? null,
      sim: device?.sim ?? null,
      chipId: device?.chipId ?? null,
      firmware: device?.firmware ?? null,
    },
    device: device
      ? {
          id: device.id,
          kind: device.kind,
          connection: device.connection,
          online: device.online,
          lastSeenAt: iso(device.lastSeenAt),
          activatedAt: iso(device.activatedAt),
        }
      : null,
    boxes: owned.map((box) => ({ id: box.id, kind: box.kind, online: box.online })),
    shared: shared.map(({ device, member, ownerMobileNo }) => ({
      id: device.id,
      role: member.role,
      label: member.label,
      ownerMobileNo,
      online: device.online,
    })),
  };
}

export async function findAdminUserView(
  db: Db,
  where: { id: number } | { mobileNo: string },
): Promise<AdminUserView | undefined> {
  const user = await db.query.users.findFirst({
    where: "id" in where ? eq(users.id, where.id) : eq(users.mobileNo, where.mobileNo),
  });
  if (!user) return undefined;
  const [owned, shared, kept] = await Promise.all([
    listDevicesOfOwner(db, user.id),
    listMembershipsOf(db, user.mobileNo),
    findKeptSettings(db, user.id),
  ]);
  return toAdminUserView(user, owned, shared, kept);
}

export async function countAdmins(db: Db): Promise<number> {
  const [row] = await db.select({ value: count() }).from(users).where(eq(users.isAdmin, true));
  return row?.value ?? 0;
}

export async function configHistoryForAdmin(db: Db, userId: number): Promise<ConfigHistoryEntry[]> {
  const rows = await listMotorConfigHistory(db, userId);
  const changerIds = [...new Set(rows.map((row) => row.changedByUserId).filter((id): id is number => id !== null))];
  const changers = changerIds.length
    ? await db.select({ id: users.id, mobileNo: users.mobileNo }).from(users).where(inArray(users.id, changerIds))
    : [];
  const numberOf = new Map(changers.map((changer) => [changer.id, changer.mobileNo]));
  return rows.map((row) => ({
    id: row.id,
    defaultCurrent: row.defaultCurrent,
    dryRunThreshold: row.dryRunThreshold,
    overCurrentThreshold: row.overCurrentThreshold,
    underVoltage: row.underVoltage,
    overVoltage: row.overVoltage,
    voltageUnbalance: row.voltageUnbalance,
    changeNote: row.changeNote,
    changedBy: row.changedByUserId === null ? null : (numberOf.get(row.changedByUserId) ?? null),
    createdAt: iso(row.createdAt)!,
  }));
}

/** True when removing this account's admin role (or the account) would leave admins. */
const KEEPS_AN_ADMIN = "(is_admin = 0 OR (SELECT COUNT(*) FROM users WHERE is_admin = 1) > 1)";

export type RoleChange = "changed" | "unchanged" | "notFound" | "lastAdmin";

/**
 * Grants or removes the admin role. Removing it revokes the account's admin sessions in the
 * same transaction (they would be refused anyway, but must stay dead if the role comes back).
 * The last admin is never demoted.
 */
export async function setUserRole(db: Db, userId: number, isAdmin: boolean, now: number): Promise<RoleChange> {
  const d1 = db.$client;
  if (isAdmin) {
    const result = await d1.prepare("UPDATE users SET is_admin = 1 WHERE id = ? AND is_admin = 0").bind(userId).run();
    if (result.meta.changes > 0) return "changed";
  } else {
    const [demoted] = await d1.batch([
      d1.prepare(`UPDATE users SET is_admin = 0 WHERE id = ?1 AND is_admin = 1 AND ${KEEPS_AN_ADMIN}`).bind(userId),
      d1
        .prepare(
          `UPDATE sessions SET revoked_at = ?2
           WHERE user_id = ?1 AND audience = 'admin' AND revoked_at IS NULL
             AND (SELECT is_admin FROM users WHERE id = ?1) = 0`,
        )
        .bind(userId, now),
    ]);
    if ((demoted?.meta.changes ?? 0) > 0) return "changed";
  }
  const user = await db.query.users.findFirst({ columns: { isAdmin: true }, where: eq(users.id, userId) });
  if (!user) return "notFound";
  return user.isAdmin === isAdmin ? "unchanged" : "lastAdmin";
}

export type UserDeletion =
  | { outcome: "deleted"; userId: number; notices: HubNoticeRow[] }
  | { outcome: "notFound" | "lastAdmin" };

/**
 * Deletes an account in ONE D1 batch, all of it or nothing: every box it owned is unlinked
 * (kept with its plans, `linked_at` cleared) and loses the people and invitations of its owner;
 * every membership and invitation of its number goes; each box concerned gets a notice for its
 * hub (worker/services/hub-notices.ts), which the caller then delivers. Its sessions and config
 * history go with it (ON DELETE CASCADE); logs and recharge requests keep the number. The last
 * admin is never deleted: every statement carries the same condition, so none acts without the rest.
 */
export async function deleteUserAccount(db: Db, mobileNo: string, now: number): Promise<UserDeletion> {
  const found = await db.query.users.findFirst({ columns: { id: true }, where: eq(users.mobileNo, mobileNo) });
  if (!found) return { outcome: "notFound" };
  const d1 = db.$client;
  const deletable = `EXISTS (SELECT 1 FROM users WHERE id = ?1 AND ${KEEPS_AN_ADMIN})`;
  const itsNumber = "(SELECT mobile_no FROM users WHERE id = ?1)";
  const [notices, , , deleted] = await d1.batch([
    d1
      .prepare(
        `INSERT INTO hub_notices (device_id, asked_at)
         SELECT id, ?2 FROM (SELECT id FROM devices WHERE owner_user_id = ?1
                             UNION SELECT device_id FROM device_members WHERE mobile_no = ${itsNumber})
         WHERE ${deletable} ${HUB_NOTICE_UPSERT}`,
      )
      .bind(found.id, now),
    d1
      .prepare(
        `DELETE FROM device_members
         WHERE (device_id IN (SELECT id FROM devices WHERE owner_user_id = ?1) OR mobile_no = ${itsNumber}) AND ${deletable}`,
      )
      .bind(found.id),
    d1
      .prepare(`UPDATE devices SET owner_user_id = NULL, linked_at = NULL WHERE owner_user_id = ?1 AND ${deletable}`)
      .bind(found.id),
    d1.prepare(`DELETE FROM users WHERE id = ?1 AND ${KEEPS_AN_ADMIN} RETURNING id`).bind(found.id),
  ]);
  if ((deleted?.results.length ?? 0) > 0) {
    return { outcome: "deleted", userId: found.id, notices: (notices?.results ?? []) as HubNoticeRow[] };
  }
  const still = await db.query.users.findFirst({ columns: { id: true }, where: eq(users.id, found.id) });
  return { outcome: still ? "lastAdmin" : "notFound" };
}
