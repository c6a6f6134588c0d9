// Every pump a person may see and the owners' invitations waiting for them
// (docs/decisions/018-shared-pumps.md), with each pump's state as its hub vouches for it: what
// GET /api/pumps answers and the user shell's pump switcher shows, built in one place.
import type { pumpSummarySchema } from "../../common/api-responses/pumps.ts";
import type { PumpAction } from "../../common/pump-roles.ts";
import { roleMay } from "../../common/pump-roles.ts";
import type { z } from "../../common/zod-mini.ts";
import type { AuthenticatedUser } from "../auth/sessions.ts";
import { getDb } from "../db/client.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { type PumpAccess, pumpAccessOf, pumpsAndInvitationsOf } from "./pump-access.ts";

export type { PumpAccess };
export type PumpSummary = z.infer<typeof pumpSummarySchema>;

/** The person's pumps (their own first, first box first; then shared ones) and invitations waiting. */
export function pumpsAndInvitations(env: Env, user: AuthenticatedUser) {
  return pumpsAndInvitationsOf(getDb(env.DB), user);
}

export type ListedPump = Awaited<ReturnType<typeof pumpsAndInvitations>>["pumps"][number];

/** Each pump as the switcher shows it, with the motor's and the box's state from its hub. */
export async function pumpSummaries(env: Env, pumps: ListedPump[]): Promise<PumpSummary[]> {
  const snapshots = await Promise.all(pumps.map(({ device }) => deviceHub(env, device.id).getSnapshot()));
  return pumps.map(({ device, role, ownerMobileNo }, index) => ({
    deviceId: device.id,
    name: device.name,
    kind: device.kind,
    role,
    ownerMobileNo,
    status: snapshots[index]!.pump.status,
    deviceStatus: snapshots[index]!.pump.deviceStatus,
  }));
}

/**
 * The pump a form names, if the signed-in farmer may do `action` with it: `noDevice` when it is
 * nothing to them (or does not exist), `notAllowed` when their role does not allow it.
 */
export async function pumpForAction(
  env: Env,
  user: AuthenticatedUser,
  deviceId: string,
  action: PumpAction,
): Promise<{ ok: true; pump: PumpAccess } | { ok: false; code: "noDevice" | "notAllowed" }> {
  const pump = await pumpAccessOf(getDb(env.DB), user, deviceId);
  if (!pump) return { ok: false, code: "noDevice" };
  return roleMay(pump.role, action) ? { ok: true, pump } : { ok: false, code: "notAllowed" };
}
