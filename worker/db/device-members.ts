// Who besides its owner may use a box (docs/decisions/018-shared-pumps.md).
import { and, asc, eq } from "drizzle-orm";
import type { MemberRole } from "../../common/pump-roles.ts";
import type { Db } from "./client.ts";
import { type DeviceMemberRow, deviceMembers, devices, users } from "./schema.ts";

/** A box's members, oldest first, each with the account their number opened, if any yet. */
export function listMembers(db: Db, deviceId: string) {
  return db
    .select({ member: deviceMembers, userId: users.id })
    .from(deviceMembers)
    .leftJoin(users, eq(users.mobileNo, deviceMembers.mobileNo))
    .where(eq(deviceMembers.deviceId, deviceId))
    .orderBy(asc(deviceMembers.createdAt), asc(deviceMembers.mobileNo));
}

export function findMembership(db: Db, deviceId: string, mobileNo: string): Promise<DeviceMemberRow | undefined> {
  return db.query.deviceMembers.findFirst({
    where: and(eq(deviceMembers.deviceId, deviceId), eq(deviceMembers.mobileNo, mobileNo)),
  });
}

/** The boxes shared with a number, oldest membership first, with each box's owner's number. */
export function listMembershipsOf(db: Db, mobileNo: string) {
  return db
    .select({ member: deviceMembers, device: devices, ownerMobileNo: users.mobileNo })
    .from(deviceMembers)
    .innerJoin(devices, eq(devices.id, deviceMembers.deviceId))
    .leftJoin(users, eq(users.id, devices.ownerUserId))
    .where(eq(deviceMembers.mobileNo, mobileNo))
    .orderBy(asc(deviceMembers.createdAt), asc(deviceMembers.deviceId));
}

/**
 * Adds a member unless the box already has `max` or the number is one already: the count, the
 * uniqueness and the insert are one statement, so two invitations at once cannot pass either.
 */
export async function insertMember(
  db: Db,
  values: { deviceId: string; mobileNo: string; role: MemberRole; label: string; invitedByUserId: number; now: number },
  max: number,
): Promise<"added" | "exists" | "full"> {
  const inserted = await db.$client
    .prepare(
      `INSERT INTO device_members (device_id, mobile_no, role, label, invited_by_user_id, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE (SELECT count(*) FROM device_members WHERE device_id = ?1) < ?7
       ON CONFLICT (device_id, mobile_no) DO NOTHING
       RETURNING mobile_no`,
    )
    .bind(values.deviceId, values.mobileNo, values.role, values.label, values.invitedByUserId, values.now, max)
    .all();
  if (inserted.results.length > 0) return "added";
  return (await findMembership(db, values.deviceId, values.mobileNo)) ? "exists" : "full";
}

export async function updateMember(
  db: Db,
  deviceId: string,
  mobileNo: string,
  changes: { role?: MemberRole; label?: string },
): Promise<boolean> {
  const rows = await db
    .update(deviceMembers)
    .set(changes)
    .where(and(eq(deviceMembers.deviceId, deviceId), eq(deviceMembers.mobileNo, mobileNo)))
    .returning({ mobileNo: deviceMembers.mobileNo });
  return rows.length > 0;
}

export async function deleteMember(db: Db, deviceId: string, mobileNo: string): Promise<boolean> {
  const rows = await db
    .delete(deviceMembers)
    .where(and(eq(deviceMembers.deviceId, deviceId), eq(deviceMembers.mobileNo, mobileNo)))
    .returning({ mobileNo: deviceMembers.mobileNo });
  return rows.length > 0;
}

/** Every membership of a number (its account was deleted): returns the boxes it had. */
export async function deleteMembershipsOf(db: Db, mobileNo: string): Promise<string[]> {
  const rows = await db
    .delete(deviceMembers)
    .where(eq(deviceMembers.mobileNo, mobileNo))
    .returning({ deviceId: deviceMembers.deviceId });
  return rows.map((row) => row.deviceId);
}
