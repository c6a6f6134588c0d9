// The owner's name for a pump ("कुएँ वाला पंप"), read and set the same way by the owner's page
// and PUT /api/pumps/{deviceId}/name. The caller has checked the owner's role.
import { getDb } from "../db/client.ts";
import { findDeviceById, setDeviceName } from "../db/devices.ts";

/** The pump's name as D1 has it now; null when it has none (or the box is gone). */
export async function pumpName(env: Env, deviceId: string): Promise<string | null> {
  return (await findDeviceById(getDb(env.DB), deviceId))?.name ?? null;
}

/** A new name; null clears it (the pages then call the box by the end of its id). */
export async function renamePump(env: Env, deviceId: string, name: string | null): Promise<void> {
  await setDeviceName(getDb(env.DB), deviceId, name);
}
