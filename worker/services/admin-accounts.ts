// The accounts as the admin pages read and change them (the same reads and rules as the API's
// /api/admin/users, /user/{id}, /device-statuses and /update-motor-config): the fleet's list, one
// account with its box, its people and what its hub knows, and SPEC §7's settings of its first box.

import type { FleetSearch } from "../../common/admin-schemas.ts";
import type { MotorConfig } from "../../common/api-schemas.ts";
import type { usageSpanOf } from "../../common/pump-usage.ts";
import {
  configHistoryForAdmin,
  countAdmins,
  deviceStatuses,
  findAdminUserView,
  listUsersForAdmin,
} from "../db/admin-users.ts";
import { getDb } from "../db/client.ts";
import { listDevicesWithOwners } from "../db/devices.ts";
import { readsThatMayLag } from "../db/reads-that-may-lag.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { installationForAdmin } from "./installer-visits.ts";
import { changeAccountMotorConfig } from "./motor-config.ts";
import { listPumpMembers } from "./pump-members.ts";
import { type Refusal, settle } from "./refusal.ts";

/** The accounts a search finds (every one without), each box's presence, and the boxes it finds. */
export async function fleetOf(env: Env, search: FleetSearch | undefined) {
  const db = getDb(readsThatMayLag(env));
  return {
    users: await listUsersForAdmin(db, search),
    statuses: await deviceStatuses(db),
    boxes: search
      ? (await listDevicesWithOwners(db, search)).map(({ device, ownerMobileNo }) => ({
          id: device.id,
          kind: device.kind,
          ownerUserId: device.ownerUserId,
          ownerMobileNo,
          online: device.online,
        }))
      : [],
  };
}

/** One account as the admin sees it (SPEC §3), or undefined. */
export function adminUserView(env: Env, id: number) {
  return findAdminUserView(getDb(env.DB), { id });
}

/**
 * Everything the user's page shows besides the account: its settings history, how many admins
 * there are, and for its first box the hub's snapshot, the people on it, its use over `span`
 * and who installed it with the commissioning report (worker/services/installer-visits.ts).
 */
export async function accountDetailsOf(
  env: Env,
  user: { id: number; device: { id: string } | null },
  span: ReturnType<typeof usageSpanOf>,
) {
  const db = getDb(env.DB);
  const box = user.device;
  const [history, snapshot, adminCount, members, usage, installation] = await Promise.all([
    configHistoryForAdmin(db, user.id),
    // An admin sees the box's whole recent log, earlier owners' too.
    box ? deviceHub(env, box.id).getSnapshot({ everything: true }) : null,
    countAdmins(db),
    box ? listPumpMembers(env, box.id) : [],
    box ? deviceHub(env, box.id).usage(span) : null,
    box ? installationForAdmin(env, box.id) : null,
  ]);
  return { history, snapshot, adminCount, members, usage, installation };
}

/**
 * An admin's change of the settings of an account's first box (kept for its first box without
 * one): the API's rules, a refusal as a value (`weakerProtectionUnconfirmed` asks first).
 */
export async function changeAccountSettings(
  env: Env,
  change: { mobileNo: string; config: MotorConfig; admin: { id: number; mobileNo: string }; confirmedWeaker: boolean },
): Promise<{ ok: true; deliveredToDevice: boolean; keptForFirstBox: boolean } | Refusal> {
  const changed = await settle(() => changeAccountMotorConfig(env, change));
  if (!changed.ok) return changed;
  return {
    ok: true,
    deliveredToDevice: changed.value.deliveredToDevice,
    keptForFirstBox: changed.value.keptForFirstBox,
  };
}
