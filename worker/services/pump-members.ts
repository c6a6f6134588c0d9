// The people an owner lets use a box (docs/decisions/018-shared-pumps.md), shared by the JSON
// API, the owner's page and the admin's: every change reaches the box's hub at once, which
// then lets the new member in or closes the sockets of the one who lost the pump.
import type { PumpMember } from "../../common/api-responses/pumps.ts";
import { MAX_PUMP_MEMBERS, type MemberRole } from "../../common/pump-roles.ts";
import type { Db } from "../db/client.ts";
import { deleteMember, findMembership, insertMember, listMembers, updateMember } from "../db/device-members.ts";
import type { DeviceMemberRow } from "../db/schema.ts";
import { findUserByMobileNo } from "../db/users.ts";
import { apiError } from "../http/http-error.ts";
import { deviceHub } from "../hubs/device-hubs.ts";

function memberView(member: DeviceMemberRow, registered: boolean): PumpMember {
  return {
    mobileNo: member.mobileNo,
    role: member.role,
    label: member.label,
    registered,
    createdAt: new Date(member.createdAt).toISOString(),
  };
}

export async function listPumpMembers(db: Db, deviceId: string): Promise<PumpMember[]> {
  const rows = await listMembers(db, deviceId);
  return rows.map(({ member, userId }) => memberView(member, userId !== null));
}

/** Lets `mobileNo` use the box; a number that has not registered finds it waiting when it does. */
export async function invitePumpMember(
  env: Env,
  db: Db,
  pump: { deviceId: string; ownerMobileNo: string | null; invitedByUserId: number },
  invite: { mobileNo: string; role: MemberRole; label: string },
): Promise<PumpMember> {
  if (invite.mobileNo === pump.ownerMobileNo) throw apiError(400, "ownNumber");
  const outcome = await insertMember(
    db,
    { deviceId: pump.deviceId, ...invite, invitedByUserId: pump.invitedByUserId, now: Date.now() },
    MAX_PUMP_MEMBERS,
  );
  if (outcome === "exists") throw apiError(409, "alreadyMember");
  if (outcome === "full") throw apiError(409, "memberLimit", { max: MAX_PUMP_MEMBERS });
  await deviceHub(env, pump.deviceId).refreshAccess();
  return memberView(
    (await findMembership(db, pump.deviceId, invite.mobileNo))!,
    await isRegistered(db, invite.mobileNo),
  );
}

/** A new role or name; a lower role holds at the hub from the next command. */
export async function changePumpMember(
  env: Env,
  db: Db,
  deviceId: string,
  mobileNo: string,
  change: { role?: MemberRole; label?: string },
): Promise<PumpMember> {
  if (!(await updateMember(db, deviceId, mobileNo, change))) throw apiError(404, "memberNotFound");
  await deviceHub(env, deviceId).refreshAccess();
  return memberView((await findMembership(db, deviceId, mobileNo))!, await isRegistered(db, mobileNo));
}

/** Ends a membership; the hub closes that person's sockets on this box at once. */
export async function removePumpMember(env: Env, db: Db, deviceId: string, mobileNo: string): Promise<void> {
  if (!(await deleteMember(db, deviceId, mobileNo))) throw apiError(404, "memberNotFound");
  await deviceHub(env, deviceId).refreshAccess();
}

async function isRegistered(db: Db, mobileNo: string): Promise<boolean> {
  return (await findUserByMobileNo(db, mobileNo)) !== undefined;
}
