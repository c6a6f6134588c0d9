// The people an owner lets use a box (docs/decisions/018-shared-pumps.md), shared by the JSON
// API, the owner's page and the admin's. An owner invites a number; the number's account
// accepts (or declines) before the box appears for it or lets it do anything. Every change of
// a member's access is saved with a notice for the box's hub in one D1 batch, then delivered
// (./hub-notices.ts): the hub lets the new member in, or closes the sockets of the one who lost
// the pump. The answer says whether the hub has confirmed; if not, the cron keeps telling it.
import type { PumpMember } from "../../common/api-responses/pumps.ts";
import { MAX_PUMP_MEMBERS, type MemberRole } from "../../common/pump-roles.ts";
import { guardInvitation } from "../auth/throttle.ts";
import { getDb } from "../db/client.ts";
import {
  acceptInvitation,
  declineInvitation,
  deleteMember,
  insertInvitation,
  listMembersAndInvitations,
  updateMember,
} from "../db/device-members.ts";
import type { DeviceMemberRow } from "../db/schema.ts";
import { allConfirmed, deliverHubNotices } from "./hub-notices.ts";
import { tellInvitee } from "./invitation-notice.ts";
import { type Refusal, refuse, settle } from "./refusal.ts";

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

export async function listPumpMembers(env: Env, deviceId: string): Promise<PumpMember[]> {
  return (await listMembersAndInvitations(getDb(env.DB), deviceId)).map(memberView);
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
  pump: { deviceId: string; ownerMobileNo: string; invitedByUserId: number },
  invite: { mobileNo: string; role: MemberRole; label: string },
  waitUntil: (promise: Promise<unknown>) => void,
): Promise<{ ok: true; member: PumpMember } | Refusal> {
  const guard = await settle(() => guardInvitation(env, pump.invitedByUserId));
  if (!guard.ok) return guard;
  if (invite.mobileNo === pump.ownerMobileNo) return refuse(400, "ownNumber");
  const inserted = await insertInvitation(
    getDb(env.DB),
    { deviceId: pump.deviceId, ...invite, invitedByUserId: pump.invitedByUserId, now: Date.now() },
    MAX_PUMP_MEMBERS,
  );
  if (inserted.outcome !== "added") {
    return inserted.outcome === "exists"
      ? refuse(409, "alreadyMember")
      : refuse(409, "memberLimit", { max: MAX_PUMP_MEMBERS });
  }
  // An invitation lets nobody do anything yet: the hub hears of the person when they accept.
  waitUntil(
    tellInvitee(env, { mobileNo: invite.mobileNo, ownerMobileNo: pump.ownerMobileNo, deviceId: pump.deviceId }),
  );
  return { ok: true, member: memberView(inserted.row) };
}

/** A new role or name; a lower role holds at the hub from the next command. */
export async function changePumpMember(
  env: Env,
  deviceId: string,
  mobileNo: string,
  change: { role?: MemberRole; label?: string },
): Promise<{ ok: true; member: PumpMember; hubConfirmed: boolean } | Refusal> {
  const changed = await updateMember(getDb(env.DB), { deviceId, mobileNo, now: Date.now() }, change);
  if (!changed.row) return refuse(404, "memberNotFound");
  const delivery = await deliverHubNotices(env, changed.notices);
  return { ok: true, member: memberView(changed.row), hubConfirmed: allConfirmed(delivery) };
}

/** Ends a membership (or withdraws an invitation); the hub closes that person's sockets on this box. */
export async function removePumpMember(
  env: Env,
  deviceId: string,
  mobileNo: string,
): Promise<{ ok: true; hubConfirmed: boolean } | Refusal> {
  const removed = await deleteMember(getDb(env.DB), { deviceId, mobileNo, now: Date.now() });
  if (!removed.row) return refuse(404, "memberNotFound");
  return { ok: true, hubConfirmed: allConfirmed(await deliverHubNotices(env, removed.notices)) };
}

/**
 * The invited person's answer, for their own number only, once they have proved they hold it:
 * to an account whose number is not verified no invitation exists (404, as for none at all).
 * Accepting makes them a member (the hub is told, as for any change of access); declining
 * deletes the invitation.
 */
export async function answerInvitation(
  env: Env,
  invitee: { mobileNo: string; numberVerified: boolean },
  deviceId: string,
  answer: "accept" | "decline",
): Promise<{ ok: true; hubConfirmed: boolean } | Refusal> {
  if (!invitee.numberVerified) return refuse(404, "invitationNotFound");
  const db = getDb(env.DB);
  const target = { deviceId, mobileNo: invitee.mobileNo };
  if (answer === "decline") {
    if (!(await declineInvitation(db, target))) return refuse(404, "invitationNotFound");
    return { ok: true, hubConfirmed: true };
  }
  const accepted = await acceptInvitation(db, { ...target, now: Date.now() });
  if (!accepted.row) return refuse(404, "invitationNotFound");
  return { ok: true, hubConfirmed: allConfirmed(await deliverHubNotices(env, accepted.notices)) };
}
