// The owner's settings page (app/routes/pump-settings.tsx): what it shows of a pump, and its
// protection settings checked and saved by the same rules as POST /api/pumps/{deviceId}/config
// (./motor-config.ts), each refusal answered as a value.
import type { MotorConfig } from "../../common/api-schemas.ts";
import type { SettingChange } from "../../common/protection-changes.ts";
import { getDb } from "../db/client.ts";
import { findDeviceById, motorConfigOf } from "../db/devices.ts";
import { latestFirmware } from "../db/firmware.ts";
import type { DeviceRow } from "../db/schema.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { changeMotorConfig, motorConfigChanges, OWNER_CHANGE_NOTE, type OwnedDevice } from "./motor-config.ts";
import { type Refusal, refusalOf, settle } from "./refusal.ts";

/**
 * The pump as its settings page shows it, read again (the page's choice of pump was read before
 * this request's action ran): its row, its settings in force, what its hub knows, and the newest
 * firmware of the build it runs.
 */
export async function pumpSettingsOf(env: Env, chosen: DeviceRow) {
  const db = getDb(env.DB);
  const device = (await findDeviceById(db, chosen.id)) ?? chosen;
  const [snapshot, newestImage] = await Promise.all([
    deviceHub(env, device.id).getSnapshot(),
    device.connection ? latestFirmware(db, device.connection) : undefined,
  ]);
  return { device, motorConfig: motorConfigOf(device), snapshot, newestFirmware: newestImage?.version ?? null };
}

/** What saving `config` would change, old → new, for the owner to confirm; saves nothing. */
export function settingChangesOf(
  device: OwnedDevice,
  config: MotorConfig,
): { ok: true; changes: SettingChange[] } | Refusal {
  try {
    return { ok: true, changes: motorConfigChanges(device, config) };
  } catch (error) {
    return refusalOf(error);
  }
}

/** Saves the settings the owner confirmed, each change seen old → new, and takes them to the box. */
export async function saveOwnerSettings(
  env: Env,
  device: OwnedDevice,
  config: MotorConfig,
): Promise<{ ok: true; deliveredToDevice: boolean } | Refusal> {
  const saved = await settle(() =>
    changeMotorConfig(env, {
      device,
      config,
      changedByUserId: device.ownerUserId,
      changeNote: OWNER_CHANGE_NOTE,
      // The owner saw each setting old → new, those that weaken protection marked so.
      confirmedWeaker: true,
    }),
  );
  return saved.ok ? { ok: true, deliveredToDevice: saved.value.deliveredToDevice } : saved;
}
