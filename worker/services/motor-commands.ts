// One way for a person to switch a pump, shared by the JSON API (SPEC §7's route and the
// per-pump route), the dashboard's form, the stop key of an alert's call and every phone channel
// (an SMS command, a missed call, the voice menu: worker/phone-control/), so that all ask the
// same hub method with the same checks: the Worker's (worker/services/pump-access.ts) and the
// hub's own. `forMinutes`: an ON the hub switches off by itself after so long.
import type { RelayState } from "../../common/device-protocol.ts";
import type { MotorCommandResult, PersonChannel } from "../../common/hub-contract.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { type PumpAccess, type PumpCaller, personOf } from "./pump-access.ts";

export function switchPump(
  env: Pick<Env, "DEVICE_HUB">,
  caller: PumpCaller,
  access: PumpAccess,
  action: RelayState,
  via: PersonChannel = "app",
  forMinutes: number | null = null,
): Promise<MotorCommandResult> {
  return deviceHub(env, access.device.id).commandMotor(personOf(caller, access), action, via, forMinutes);
}
