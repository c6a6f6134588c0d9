// Changing a motor's protection settings: saved in D1 with a history entry, then taken to the
// box by its hub (at once when online, else in the welcome of its next connection).
import type { MotorConfig } from "../../common/api-schemas.ts";
import { getDb } from "../db/client.ts";
import { saveMotorConfigRows } from "../db/motor-config.ts";
import { deviceHub } from "../hubs/device-hubs.ts";

/** The history note of a change the farmer made in the app (the API and the dashboard's form). */
export const OWNER_CHANGE_NOTE = "Changed by the owner in the app";

export async function changeMotorConfig(
  env: Env,
  change: { deviceId: string; ownerUserId: number; config: MotorConfig; changedByUserId: number; changeNote: string },
): Promise<{ deliveredToDevice: boolean }> {
  await saveMotorConfigRows(getDb(env.DB), { ...change, now: Date.now() });
  const { delivered } = await deviceHub(env, change.deviceId).updateConfig(change.config);
  return { deliveredToDevice: delivered };
}
