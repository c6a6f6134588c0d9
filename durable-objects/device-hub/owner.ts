import { withDeadline } from "../../common/deadline.ts";
import type { PumpPerson } from "../../common/hub-contract.ts";
import { type MemberRole, type PumpAction, roleMay } from "../../common/pump-roles.ts";
import { getDb } from "../../worker/db/client.ts";
import { listMembers } from "../../worker/db/device-members.ts";
import { findDeviceWithOwner, motorConfigOf, ownedSince } from "../../worker/db/devices.ts";
import type { HubContext } from "./context.ts";
import type { HubState } from "./state.ts";

/**
 * Loads owner, members and settings from D1. False when D1 could not be read: the last known
 * ones stay (the box still gets a consistent welcome), and whether they still vouch for anyone
 * is `accessConfirmed`'s to say.
 */
export async function loadOwnerAndConfig(hub: HubContext): Promise<boolean> {
  const { state } = hub;
  try {
    const db = getDb(hub.env.DB);
    const [found, members] = await Promise.all([findDeviceWithOwner(db, hub.deviceId), listMembers(db, hub.deviceId)]);
    const owner = found?.owner ?? null;
    state.save({
      accessConfirmed: true,
      owner: owner && found ? { userId: owner.id, mobileNo: owner.mobileNo, since: ownedSince(found.device) } : null,
      // A number invited before it registered has no account yet: nobody can act as it.
      members: members.flatMap(({ member, userId }) =>
        userId === null ? [] : [{ userId, role: member.role, label: member.label }],
      ),
      config: {
        ...state.current.config,
        ...motorConfigOf(found?.device),
        mobileNo: owner?.mobileNo ?? null,
      },
    });
    return true;
  } catch (error) {
    // Keep the last known owner and settings; the box still gets a consistent welcome.
    hub.logError("could not load owner and config from D1", error);
    return false;
  }
}

/**
 * How long a switch-off waits for D1's word on the owner before it goes by the hub's own copy.
 * D1 answers in milliseconds; one that hangs must not keep a motor running for as long as it
 * hangs (the copy is told of every change of access, so it is at most that stale).
 */
export const STOP_WAITS_FOR_D1_MS = 2_000;

/**
 * loadOwnerAndConfig, waited for at most `ms`: false when D1 has not answered by then. The read
 * goes on, and what it brings is kept when it comes.
 */
export function loadOwnerAndConfigWithin(hub: HubContext, ms: number): Promise<boolean> {
  return withDeadline(loadOwnerAndConfig(hub), ms, () => false);
}

/** The owner's name for member `userId`, by the hub's copy (null for the owner, or a copy without names). */
export function labelOf(state: HubState, userId: number): string | null {
  return state.members.find((member) => member.userId === userId)?.label ?? null;
}

/** What an account is to the pump by the hub's copy: its owner, a member, or nothing. */
export function roleOf(state: HubState, userId: number): "owner" | MemberRole | null {
  if (state.owner?.userId === userId) return "owner";
  return state.members.find((member) => member.userId === userId)?.role ?? null;
}

/**
 * The hub's copy of owner and members, if it may be trusted: a copy the hub was told is out of
 * date and could not reload vouches for nobody until D1 is read again (it fails closed).
 */
export async function confirmedAccess(hub: HubContext): Promise<HubState | null> {
  if (!hub.state.current.accessConfirmed) await loadOwnerAndConfig(hub);
  return hub.state.current.accessConfirmed ? hub.state.current : null;
}

type PumpRole = "owner" | MemberRole;

/**
 * What account `userId` is to the pump by a confirmed copy; D1 is asked again when the copy's
 * answer is not `enough` (an owner may have just invited or promoted them). Null: nobody, or
 * nobody the hub can vouch for.
 */
export async function confirmedRoleOf(
  hub: HubContext,
  userId: number,
  enough: (role: PumpRole | null) => boolean = (role) => role !== null,
): Promise<PumpRole | null> {
  const known = await confirmedAccess(hub);
  if (known === null) return null;
  if (enough(roleOf(known, userId))) return roleOf(known, userId);
  await loadOwnerAndConfig(hub);
  return hub.state.current.accessConfirmed ? roleOf(hub.state.current, userId) : null;
}

/** Whether account `userId` may use the pump at all, asking D1 again before saying no. */
export async function mayWatch(hub: HubContext, userId: number): Promise<boolean> {
  return (await confirmedRoleOf(hub, userId)) !== null;
}

/**
 * Whether `person` is what the Worker says they are to this pump and that role allows
 * `action`; asks D1 again before saying no (an owner may have just invited them). An admin's
 * role comes from the admin session the Worker verified; the hub has no copy of it.
 */
export async function personMay(hub: HubContext, person: PumpPerson, action: PumpAction): Promise<boolean> {
  if (!roleMay(person.role, action)) return false;
  if (person.role === "admin") return true;
  return (await confirmedRoleOf(hub, person.userId, (role) => role === person.role)) === person.role;
}
