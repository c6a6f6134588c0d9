// One way for a person to switch a pump, shared by the JSON API (SPEC §7's route and the
// per-pump route) and the dashboard's form, so that all ask the same hub method with the same
// checks: the Worker's (worker/services/pump-access.ts) and the hub's own.
import type { RelayState } from "../../common/device-protocol.ts";
import type { MotorCommandResult } from "../../common/hub-contract.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { type PumpAccess, type PumpCaller, personOf } from "./pump-access.ts";

export function switchPump(
  env: Env,
  caller: PumpCaller,
  access: PumpAccess,
  action: RelayState,
): Promise<MotorCommandResult> {
  return deviceHub(env, access.device.id).switchMotor(personOf(caller, access), action);
}
