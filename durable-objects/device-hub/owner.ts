import type { PumpPerson } from "../../common/hub-contract.ts";
import { type MemberRole, type PumpAction, roleMay } from "../../common/pump-roles.ts";
import { getDb } from "../../worker/db/client.ts";
import { listMembers } from "../../worker/db/device-members.ts";
import { findDeviceWithOwner, motorConfigOf } from "../../worker/db/devices.ts";
import type { HubContext } from "./context.ts";
import type { HubState } from "./state.ts";

/** Loads owner, members and settings from D1. False when D1 could not be read (the last known ones stay). */
export async function loadOwnerAndConfig(hub: HubContext): Promise<boolean> {
  const { state } = hub;
  try {
    const db = getDb(hub.env.DB);
    const [found, members] = await Promise.all([findDeviceWithOwner(db, hub.deviceId), listMembers(db, hub.deviceId)]);
    const owner = found?.owner ?? null;
    state.save({
      owner: owner ? { userId: owner.id, mobileNo: owner.mobileNo } : null,
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

/** The owner's name for member `userId`, by the hub's copy (null for the owner, or a copy without names). */
export function labelOf(state: HubState, userId: number): string | null {
  return state.members.find((member) => member.userId === userId)?.label ?? null;
}

/** What an account is to the pump by the hub's copy: its owner, a member, or nothing. */
export function roleOf(state: HubState, userId: number): "owner" | MemberRole | null {
  if (state.owner?.userId === userId) return "owner";
  return state.members.find((member) => member.userId === userId)?.role ?? null;
}

/** Whether account `userId` may use the pump at all, asking D1 again before saying no. */
export async function mayWatch(hub: HubContext, userId: number): Promise<boolean> {
  if (roleOf(hub.state.current, userId) !== null) return true;
  await loadOwnerAndConfig(hub);
  return roleOf(hub.state.current, userId) !== null;
}

/**
 * Whether `person` is what the Worker says they are to this pump and that role allows
 * `action`; asks D1 again before saying no (an owner may have just invited them). An admin's
 * role comes from the admin session the Worker verified; the hub has no copy of it.
 */
export async function personMay(hub: HubContext, person: PumpPerson, action: PumpAction): Promise<boolean> {
  if (!roleMay(person.role, action)) return false;
  if (person.role === "admin") return true;
  if (roleOf(hub.state.current, person.userId) === person.role) return true;
  await loadOwnerAndConfig(hub);
  return roleOf(hub.state.current, person.userId) === person.role;
}
