// What a caller is to a box, resolved from D1 on every call (docs/decisions/018-shared-pumps.md):
// the one place the Worker decides who may see or do what with a pump. The rules themselves
// are common/pump-roles.ts; the DeviceHub checks the same rules again with its own copy of the
// owner and members, so a slip in one layer is not a hole.
import { and, eq, isNotNull } from "drizzle-orm";
import type { PumpPerson } from "../../common/hub-contract.ts";
import { type MemberRole, type PumpAction, type PumpRole, roleMay } from "../../common/pump-roles.ts";
import { type AuthenticatedUser, liveSession, SESSION_USER, sessionUser } from "../auth/sessions.ts";
import type { TokenClaims } from "../auth/tokens.ts";
import type { Db } from "../db/client.ts";
import { listInvitationsOf, listMembershipsOf } from "../db/device-members.ts";
import { findDeviceByOwner, firstBoxOfUser, listDevicesOfOwner } from "../db/devices.ts";
import { type DeviceRow, deviceMembers, devices, sessions, users } from "../db/schema.ts";
import { apiError } from "../http/http-error.ts";

/** The signed-in caller as the rules need them: an admin's session opens every box. */
export type PumpCaller = { id: number; mobileNo: string; audience: "user" | "admin" };

/** A box the caller may see, what they are to it, and (for a member) the owner's name for them. */
export type PumpAccess = { device: DeviceRow; role: PumpRole; label: string | null };

/**
 * The joined box's membership of a number, if it accepted: an invitation not yet accepted is
 * nothing to the box, so it never gives access.
 */
function isMemberOf(mobileNo: string | typeof users.mobileNo) {
  return and(
    eq(deviceMembers.deviceId, devices.id),
    eq(deviceMembers.mobileNo, mobileNo),
    isNotNull(deviceMembers.acceptedAt),
  );
}

/** What `caller` is to box `deviceId`, in one query; null if they may not see it (or it does not exist). */
export async function pumpAccessOf(db: Db, caller: PumpCaller, deviceId: string): Promise<PumpAccess | null> {
  const rows = await db
    .select({ device: devices, role: deviceMembers.role, label: deviceMembers.label })
    .from(devices)
    .leftJoin(deviceMembers, isMemberOf(caller.mobileNo))
    .where(eq(devices.id, deviceId))
    .limit(1);
  return accessOf(caller, rows[0]);
}

/** The one rule of what a caller is to a box, from the box's row and the caller's membership of it. */
function accessOf(
  caller: PumpCaller,
  row: { device: DeviceRow | null; role: MemberRole | null; label: string | null } | undefined,
): PumpAccess | null {
  if (!row?.device) return null;
  if (caller.audience === "admin") return { device: row.device, role: "admin", label: null };
  if (row.device.ownerUserId === caller.id) return { device: row.device, role: "owner", label: null };
  if (row.role) return { device: row.device, role: row.role, label: row.label };
  return null;
}

/** The box a call is about: one by its id, or the caller's first box (SPEC §7's routes keyed by the caller). */
export type PumpTarget = { deviceId: string } | "firstBox";

/**
 * The session behind `claims` and what its user is to `target`, in ONE D1 query: the hot path
 * of a tap over HTTP reads nothing else before the hub. Null when the session is not good;
 * `access` null when the box does not exist or is nothing to them (for "firstBox": they have none).
 */
export async function sessionWithPump(
  db: Db,
  claims: TokenClaims,
  target: PumpTarget,
  now = Date.now(),
): Promise<{ user: AuthenticatedUser; access: PumpAccess | null } | null> {
  const rows = await db
    .select({ ...SESSION_USER, device: devices, role: deviceMembers.role, label: deviceMembers.label })
    .from(sessions)
    .innerJoin(users, eq(sessions.userId, users.id))
    .leftJoin(devices, target === "firstBox" ? firstBoxOfUser : eq(devices.id, target.deviceId))
    .leftJoin(deviceMembers, isMemberOf(users.mobileNo))
    .where(liveSession(claims, now))
    .limit(1);
  const row = rows[0];
  const user = sessionUser(claims, row);
  if (!user || !row) return null;
  // SPEC §7's first box is the caller's own, whatever area they call from.
  const caller = target === "firstBox" ? { ...user, audience: "user" as const } : user;
  return { user, access: accessOf(caller, row) };
}

/**
 * `access` if it allows `action`. A box the caller may not see at all is "not found" (404), so a
 * number cannot probe which boxes exist; one they see but may not do this with is 403.
 */
export function allowedAccess(access: PumpAccess | null, action: PumpAction): PumpAccess {
  if (!access) throw apiError(404, "pumpNotFound");
  if (!roleMay(access.role, action)) throw apiError(403, "notAllowedForRole", { role: access.role, action });
  return access;
}

/** Every box a farmer may see: their own (first box first), then those shared with them with their owner's number. */
export async function listPumpsOf(
  db: Db,
  caller: PumpCaller,
): Promise<(PumpAccess & { ownerMobileNo: string | null })[]> {
  const [owned, shared] = await Promise.all([
    listDevicesOfOwner(db, caller.id),
    listMembershipsOf(db, caller.mobileNo),
  ]);
  return [
    ...owned.map((device) => ({ device, role: "owner" as const, label: null, ownerMobileNo: null })),
    ...shared
      .filter(({ device }) => device.ownerUserId !== caller.id)
      .map(({ device, member, ownerMobileNo }) => ({ device, role: member.role, label: member.label, ownerMobileNo })),
  ];
}

/**
 * Every box a farmer may see, and the invitations waiting for their answer, read side by side.
 * An invitation is for the holder of the number: an account whose number is not verified sees
 * none (docs/decisions/027-verified-numbers.md), and nothing tells it one is waiting.
 */
export async function pumpsAndInvitationsOf(db: Db, caller: PumpCaller & { numberVerified: boolean }) {
  const [pumps, invitations] = await Promise.all([
    listPumpsOf(db, caller),
    caller.numberVerified ? listInvitationsOf(db, caller.mobileNo) : [],
  ]);
  return { pumps, invitations };
}

/** The account's first box as its owner's access (SPEC §7's routes keyed by the caller act on it), or null. */
export async function firstPumpOf(db: Db, caller: PumpCaller): Promise<PumpAccess | null> {
  const device = await findDeviceByOwner(db, caller.id);
  return device ? { device, role: "owner", label: null } : null;
}

/** The caller as the hub checks them and the motor log names them. */
export function personOf(caller: PumpCaller, access: PumpAccess): PumpPerson {
  return { userId: caller.id, role: access.role, label: access.label };
}
