// One way to switch a farmer's own motor, shared by the JSON API (SPEC §7) and the dashboard's
// form, so that both ask the same hub method with the same checks.
import type { RelayState } from "../../common/device-protocol.ts";
import type { MotorCommandResult } from "../../common/hub-contract.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwner } from "../db/devices.ts";
import { deviceHub } from "../hubs/device-hubs.ts";

export type OwnMotorResult = MotorCommandResult | { ok: false; code: "noDevice" };

export async function switchOwnMotor(env: Env, userId: number, action: RelayState): Promise<OwnMotorResult> {
  const device = await findDeviceByOwner(getDb(env.DB), userId);
  if (!device) return { ok: false, code: "noDevice" };
  return deviceHub(env, device.id).switchMotor({ action, origin: { by: "app" } });
}
