// Who besides its owner may use a box (docs/decisions/018-shared-pumps.md). A row is an
// invitation until the invited number's account accepts it; only accepted rows give access, so
// every query that decides access reads `accepted_at`. Each change of an accepted member's access
// leaves the box's hub a notice in the same D1 batch (worker/services/hub-notices.ts).
import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import { HUB_NOTICE_UPSERT, type HubNoticeRow } from "../../common/access-change-sql.ts";
import type { MemberRole } from "../../common/pump-roles.ts";
import type { Db } from "./client.ts";
import { type DeviceMemberRow, deviceMembers, devices, users } from "./schema.ts";

/**
 * A box's members who accepted, oldest first, each with the account their number opened: what
 * the box's hub loads as the people who may use it. Invitations not yet accepted are not here.
 */
export function listMembers(db: Db, deviceId: string) {
  return db
    .select({ member: deviceMembers, userId: users.id })
    .from(deviceMembers)
    .leftJoin(users, eq(users.mobileNo, deviceMembers.mobileNo))
    .where(and(eq(deviceMembers.deviceId, deviceId), isNotNull(deviceMembers.acceptedAt)))
    .orderBy(asc(deviceMembers.createdAt), asc(deviceMembers.mobileNo));
}

/** A box's members and its invitations still waiting for an answer, oldest first: the owner's list. */
export function listMembersAndInvitations(db: Db, deviceId: string): Promise<DeviceMemberRow[]> {
  return db
    .select()
    .from(deviceMembers)
    .where(eq(deviceMembers.deviceId, deviceId))
    .orderBy(asc(deviceMembers.createdAt), asc(deviceMembers.mobileNo));
}

/** The boxes a number accepted to use, oldest membership first, with each box's owner's number. */
export function listMembershipsOf(db: Db, mobileNo: string) {
  return db
    .select({ member: deviceMembers, device: devices, ownerMobileNo: users.mobileNo })
    .from(deviceMembers)
    .innerJoin(devices, eq(devices.id, deviceMembers.deviceId))
    .leftJoin(users, eq(users.id, devices.ownerUserId))
    .where(and(eq(deviceMembers.mobileNo, mobileNo), isNotNull(deviceMembers.acceptedAt)))
    .orderBy(asc(deviceMembers.createdAt), asc(deviceMembers.deviceId));
}

/**
 * The invitations waiting for a number's answer, oldest first: which box, as what, from which
 * owner. Nothing the owner typed (the box's name, their name for the person) is shown before
 * the person says yes.
 */
export function listInvitationsOf(db: Db, mobileNo: string) {
  return db
    .select({
      deviceId: deviceMembers.deviceId,
      role: deviceMembers.role,
      ownerMobileNo: users.mobileNo,
      invitedAt: deviceMembers.createdAt,
    })
    .from(deviceMembers)
    .innerJoin(devices, eq(devices.id, deviceMembers.deviceId))
    .innerJoin(users, eq(users.id, devices.ownerUserId))
    .where(and(eq(deviceMembers.mobileNo, mobileNo), isNull(deviceMembers.acceptedAt)))
    .orderBy(asc(deviceMembers.createdAt), asc(deviceMembers.deviceId));
}

/**
 * Invites a number unless the box already has `max` people (members and invitations) or the
 * number is one already: the count, the uniqueness and the insert are one statement, so two
 * invitations at once cannot pass either. Gives no access until the number accepts. Marked when
 * the inviter's own number is not proven: a take-back of the account removes it.
 */
export async function insertInvitation(
  db: Db,
  values: { deviceId: string; mobileNo: string; role: MemberRole; label: string; invitedByUserId: number; now: number },
  max: number,
): Promise<{ outcome: "added"; row: DeviceMemberRow } | { outcome: "exists" | "full" }> {
  const inserted = await db.$client
    .prepare(
      `INSERT INTO device_members (device_id, mobile_no, role, label, invited_by_user_id, created_at, added_unverified)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, coalesce((SELECT number_verified_at IS NULL FROM users WHERE id = ?5), 0)
       WHERE (SELECT count(*) FROM device_members WHERE device_id = ?1) < ?7
       ON CONFLICT (device_id, mobile_no) DO NOTHING
       RETURNING ${MEMBER_COLUMNS}`,
    )
    .bind(values.deviceId, values.mobileNo, values.role, values.label, values.invitedByUserId, values.now, max)
    .all<DeviceMemberRow>();
  const row = inserted.results[0];
  if (row) return { outcome: "added", row };
  const existing = await db.query.deviceMembers.findFirst({
    columns: { mobileNo: true },
    where: and(eq(deviceMembers.deviceId, values.deviceId), eq(deviceMembers.mobileNo, values.mobileNo)),
  });
  return { outcome: existing ? "exists" : "full" };
}

/** A row as drizzle reads it, for the statements written in SQL here. */
const MEMBER_COLUMNS = `device_id AS deviceId, mobile_no AS mobileNo, role, label,
  invited_by_user_id AS invitedByUserId, created_at AS createdAt, accepted_at AS acceptedAt`;

/** The box's notice, left only when `mobileNo` is one of its people (?1 the box, ?2 the time, ?3 the number). */
const NOTICE_IF_PERSON = `INSERT INTO hub_notices (device_id, asked_at)
  SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM device_members WHERE device_id = ?1 AND mobile_no = ?3) ${HUB_NOTICE_UPSERT}`;

/** A change of one person's access, with the notice for the box's hub written in the same batch. */
export type MemberChange = { row: DeviceMemberRow | undefined; notices: HubNoticeRow[] };

export async function updateMember(
  db: Db,
  target: { deviceId: string; mobileNo: string; now: number },
  changes: { role?: MemberRole; label?: string },
): Promise<MemberChange> {
  const d1 = db.$client;
  const [notices, updated] = await d1.batch([
    d1.prepare(NOTICE_IF_PERSON).bind(target.deviceId, target.now, target.mobileNo),
    d1
      .prepare(
        `UPDATE device_members SET role = coalesce(?3, role), label = coalesce(?4, label)
         WHERE device_id = ?1 AND mobile_no = ?2 RETURNING ${MEMBER_COLUMNS}`,
      )
      .bind(target.deviceId, target.mobileNo, changes.role ?? null, changes.label ?? null),
  ]);
  return memberChange(notices, updated);
}

/** Ends a membership, or withdraws an invitation. */
export async function deleteMember(db: Db, target: { deviceId: string; mobileNo: string; now: number }) {
  const d1 = db.$client;
  const [notices, deleted] = await d1.batch([
    d1.prepare(NOTICE_IF_PERSON).bind(target.deviceId, target.now, target.mobileNo),
    d1
      .prepare(`DELETE FROM device_members WHERE device_id = ?1 AND mobile_no = ?2 RETURNING ${MEMBER_COLUMNS}`)
      .bind(target.deviceId, target.mobileNo),
  ]);
  return memberChange(notices, deleted);
}

/** The invited number's yes: from now on it is a member, and the box's hub is told. */
export async function acceptInvitation(db: Db, target: { deviceId: string; mobileNo: string; now: number }) {
  const d1 = db.$client;
  const [notices, accepted] = await d1.batch([
    d1
      .prepare(
        `INSERT INTO hub_notices (device_id, asked_at)
         SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM device_members WHERE device_id = ?1 AND mobile_no = ?3 AND accepted_at IS NULL)
         ${HUB_NOTICE_UPSERT}`,
      )
      .bind(target.deviceId, target.now, target.mobileNo),
    d1
      .prepare(
        `UPDATE device_members SET accepted_at = ?3
         WHERE device_id = ?1 AND mobile_no = ?2 AND accepted_at IS NULL RETURNING ${MEMBER_COLUMNS}`,
      )
      .bind(target.deviceId, target.mobileNo, target.now),
  ]);
  return memberChange(notices, accepted);
}

/** The invited number's no: the invitation goes. It never gave any access, so the hub needs no notice. */
export async function declineInvitation(db: Db, target: { deviceId: string; mobileNo: string }): Promise<boolean> {
  const rows = await db
    .delete(deviceMembers)
    .where(
      and(
        eq(deviceMembers.deviceId, target.deviceId),
        eq(deviceMembers.mobileNo, target.mobileNo),
        isNull(deviceMembers.acceptedAt),
      ),
    )
    .returning({ mobileNo: deviceMembers.mobileNo });
  return rows.length > 0;
}

function memberChange(notices: D1Result | undefined, changed: D1Result | undefined): MemberChange {
  return {
    row: (changed?.results as DeviceMemberRow[] | undefined)?.[0],
    notices: (notices?.results ?? []) as HubNoticeRow[],
  };
}
