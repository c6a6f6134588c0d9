// Taking down the banner of the trip that stopped a pump's motor (a dry run, overcurrent, a
// voltage trip): for whoever may switch the pump, the role checked by the caller. The hub keeps
// the trip in the motor log; only the banner goes.
import { deviceHub } from "../hubs/device-hubs.ts";
import type { PumpAccess } from "./pump-access.ts";

export async function dismissTrip(env: Pick<Env, "DEVICE_HUB">, access: PumpAccess): Promise<boolean> {
  return (await deviceHub(env, access.device.id).dismissTrip()).dismissed;
}
