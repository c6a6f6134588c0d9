// Changing a motor's protection settings: saved in D1 with a history entry, then taken to the
// box by its hub (at once when online, else in the welcome of its next connection).
import type { MotorConfig } from "../../common/api-schemas.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwner } from "../db/devices.ts";
import { saveMotorConfigRows } from "../db/motor-config.ts";
import { deviceHub } from "../hubs/device-hubs.ts";

/** The history note of a change the farmer made in the app (the API and the dashboard's form). */
export const OWNER_CHANGE_NOTE = "Changed by the owner in the app";

export async function changeMotorConfig(
  env: Env,
  change: { userId: number; config: MotorConfig; changedByUserId: number; changeNote: string },
): Promise<{ deliveredToDevice: boolean }> {
  const db = getDb(env.DB);
  await saveMotorConfigRows(db, { ...change, now: Date.now() });
  const device = await findDeviceByOwner(db, change.userId);
  if (!device) return { deliveredToDevice: false };
  const { delivered } = await deviceHub(env, device.id).updateConfig(change.config);
  return { deliveredToDevice: delivered };
}
