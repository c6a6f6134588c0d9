// Changing a motor's protection settings: saved in D1 with a history entry, then taken to the
// box by its hub (at once when online, else in the welcome of its next connection).
import type { MotorConfig } from "../../common/api-schemas.ts";
import { getDb } from "../db/client.ts";
import { saveMotorConfigRows } from "../db/motor-config.ts";
import type { DeviceRow } from "../db/schema.ts";
import { deviceHub } from "../hubs/device-hubs.ts";

/** A box with an owner: only such a box has settings history to keep. */
export type OwnedDevice = DeviceRow & { ownerUserId: number };

/** The history note of a change the farmer made in the app (the API and the dashboard's form). */
export const OWNER_CHANGE_NOTE = "Changed by the owner in the app";

/** Saves and sends a box's new settings; the history entry goes on its owner's account. */
export async function changeMotorConfig(
  env: Env,
  change: { device: OwnedDevice; config: MotorConfig; changedByUserId: number; changeNote: string },
): Promise<{ deliveredToDevice: boolean }> {
  const { device, ...rest } = change;
  await saveMotorConfigRows(getDb(env.DB), {
    ...rest,
    deviceId: device.id,
    ownerUserId: device.ownerUserId,
    now: Date.now(),
  });
  const { delivered } = await deviceHub(env, device.id).updateConfig(change.config);
  return { deliveredToDevice: delivered };
}
