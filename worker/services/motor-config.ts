// Changing a motor's protection settings: saved in D1 with a history entry, then taken to the
// box by its hub (at once when online, else in the welcome of its next connection).
import { type MotorConfig, voltageLimitsSchemaFor } from "../../common/api-schemas.ts";
import { getDb } from "../db/client.ts";
import { motorConfigOf } from "../db/devices.ts";
import { saveMotorConfigRows } from "../db/motor-config.ts";
import type { DeviceRow } from "../db/schema.ts";
import { apiError } from "../http/http-error.ts";
import { deviceHub } from "../hubs/device-hubs.ts";

/** A box with an owner: only such a box has settings history to keep. */
export type OwnedDevice = DeviceRow & { ownerUserId: number };

/** The history note of a change the farmer made in the app (the API and the dashboard's form). */
export const OWNER_CHANGE_NOTE = "Changed by the owner in the app";

/**
 * Saves and sends a box's new settings; the history entry goes on its owner's account. A
 * voltage limit the change leaves out stays as it was; the limits then in force must suit the
 * box's kind (400 otherwise, nothing saved). Answers the settings now in force.
 */
export async function changeMotorConfig(
  env: Env,
  change: { device: OwnedDevice; config: MotorConfig; changedByUserId: number; changeNote: string },
): Promise<{ deliveredToDevice: boolean; config: ReturnType<typeof motorConfigOf> }> {
  const { device, config, ...rest } = change;
  const given = Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
  const after = { ...device, ...given };
  const inForce = motorConfigOf(after);
  const checked = voltageLimitsSchemaFor(device.kind).safeParse(inForce);
  const issue = checked.error?.issues[0];
  if (issue) throw apiError(400, "invalidInput", { field: String(issue.path[0]), detail: issue.message });
  await saveMotorConfigRows(getDb(env.DB), {
    ...rest,
    config: {
      ...config,
      underVoltage: after.underVoltage,
      overVoltage: after.overVoltage,
      voltageUnbalance: after.voltageUnbalance,
    },
    deviceId: device.id,
    ownerUserId: device.ownerUserId,
    now: Date.now(),
  });
  const { delivered } = await deviceHub(env, device.id).updateConfig(inForce);
  return { deliveredToDevice: delivered, config: inForce };
}
