// The people an owner lets use a box (docs/decisions/018-shared-pumps.md), shared by the JSON
// API, the owner's page and the admin's. An owner invites a number; the number's account
// accepts (or declines) before the box appears for it or lets it do anything. Every change of
// a member's access is saved with a notice for the box's hub in one D1 batch, then delivered
// (./hub-notices.ts): the hub lets the new member in, or closes the sockets of the one who lost
// the pump. The answer says whether the hub has confirmed; if not, the cron keeps telling it.
import type { PumpMember } from "../../common/api-responses/pumps.ts";
import { MAX_PUMP_MEMBERS, type MemberRole } from "../../common/pump-roles.ts";
import { guardInvitation } from "../auth/throttle.ts";
import type { Db } from "../db/client.ts";
import {
  acceptInvitation,
  declineInvitation,
  deleteMember,
  insertInvitation,
  listMembersAndInvitations,
  updateMember,
} from "../db/device-members.ts";
import type { DeviceMemberRow } from "../db/schema.ts";
import { apiError } from "../http/http-error.ts";
import { allConfirmed, deliverHubNotices } from "./hub-notices.ts";
import { tellInvitee } from "./invitation-notice.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * A member as the owner sees them. Nothing here depends on whether the number has an account:
 * an owner cannot learn from it who is registered.
 */
function memberView(member: DeviceMemberRow): PumpMember {
  return {
    mobileNo: member.mobileNo,
    role: member.role,
    label: member.label,
    acceptedAt: iso(member.acceptedAt),
    createdAt: iso(member.createdAt)!,
  };
}

export async function listPumpMembers(db: Db, deviceId: string): Promise<PumpMember[]> {
  return (await listMembersAndInvitations(db, deviceId)).map(memberView);
}

/**
 * Invites `mobileNo` to use the box. The same answer whether or not the number has an account
 * or is verified, and counted against the owner's invitations (throttled: invitations cost the
 * invitee a decision). Only after the answer (`waitUntil`) is the number's account read: a
 * verified one is told by SMS (./invitation-notice.ts); anyone else learns of it only once
 * their number is verified.
 */
export async function invitePumpMember(
  env: Env,
  db: Db,
  pump: { deviceId: string; ownerMobileNo: string; invitedByUserId: number },
  invite: { mobileNo: string; role: MemberRole; label: string },
  waitUntil: (promise: Promise<unknown>) => void,
): Promise<PumpMember> {
  await guardInvitation(env, pump.invitedByUserId);
  if (invite.mobileNo === pump.ownerMobileNo) throw apiError(400, "ownNumber");
  const inserted = await insertInvitation(
    db,
    { deviceId: pump.deviceId, ...invite, invitedByUserId: pump.invitedByUserId, now: Date.now() },
    MAX_PUMP_MEMBERS,
  );
  if (inserted.outcome !== "added") {
    throw inserted.outcome === "exists"
      ? apiError(409, "alreadyMember")
      : apiError(409, "memberLimit", { max: MAX_PUMP_MEMBERS });
  }
  // An invitation lets nobody do anything yet: the hub hears of the person when they accept.
  waitUntil(
    tellInvitee(env, { mobileNo: invite.mobileNo, ownerMobileNo: pump.ownerMobileNo, deviceId: pump.deviceId }),
  );
  return memberView(inserted.row);
}

/** A new role or name; a lower role holds at the hub from the next command. */
export async function changePumpMember(
  env: Env,
  db: Db,
  deviceId: string,
  mobileNo: string,
  change: { role?: MemberRole; label?: string },
): Promise<{ member: PumpMember; hubConfirmed: boolean }> {
  const changed = await updateMember(db, { deviceId, mobileNo, now: Date.now() }, change);
  if (!changed.row) throw apiError(404, "memberNotFound");
  const delivery = await deliverHubNotices(env, changed.notices);
  return { member: memberView(changed.row), hubConfirmed: allConfirmed(delivery) };
}

/** Ends a membership (or withdraws an invitation); the hub closes that person's sockets on this box. */
export async function removePumpMember(
  env: Env,
  db: Db,
  deviceId: string,
  mobileNo: string,
): Promise<{ hubConfirmed: boolean }> {
  const removed = await deleteMember(db, { deviceId, mobileNo, now: Date.now() });
  if (!removed.row) throw apiError(404, "memberNotFound");
  return { hubConfirmed: allConfirmed(await deliverHubNotices(env, removed.notices)) };
}

/**
 * The invited person's answer, for their own number only, once they have proved they hold it:
 * to an account whose number is not verified no invitation exists (404, as for none at all).
 * Accepting makes them a member (the hub is told, as for any change of access); declining
 * deletes the invitation.
 */
export async function answerInvitation(
  env: Env,
  db: Db,
  invitee: { mobileNo: string; numberVerified: boolean },
  deviceId: string,
  answer: "accept" | "decline",
): Promise<{ hubConfirmed: boolean }> {
  if (!invitee.numberVerified) throw apiError(404, "invitationNotFound");
  const target = { deviceId, mobileNo: invitee.mobileNo };
  if (answer === "decline") {
    if (!(await declineInvitation(db, target))) throw apiError(404, "invitationNotFound");
    return { hubConfirmed: true };
  }
  const accepted = await acceptInvitation(db, { ...target, now: Date.now() });
  if (!accepted.row) throw apiError(404, "invitationNotFound");
  return { hubConfirmed: allConfirmed(await deliverHubNotices(env, accepted.notices)) };
}
