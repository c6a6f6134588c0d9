// "Ask the device again": when nobody can vouch for the relay (a command's answer was lost), a
// person who may switch the pump asks the box to state it. The box answers with a health report,
// which names the relay and so settles an `unknown` status in the hub (docs/pump-state.md). On the
// fresh readings' budget: at most one request reaches the box a minute, so a second tap within it
// gets the hub's latest instead (`asked: false`). The caller has checked the role (`switch`).
import type { HubFailure } from "../../common/hub-contract.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import type { PumpAccess } from "./pump-access.ts";

export type AskAgainOutcome = { ok: true; asked: boolean } | HubFailure;

export async function askBoxAgain(env: Pick<Env, "DEVICE_HUB">, access: PumpAccess): Promise<AskAgainOutcome> {
  const result = await deviceHub(env, access.device.id).requestHealth();
  if (!result.ok) return result;
  return { ok: true, asked: result.source === "box" };
}
