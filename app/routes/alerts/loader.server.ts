// The alerts page's data: the VAPID public key the browser subscribes with, the pumps whose
// alerts the farmer gets (and those they only watch), and the phone channels as saved.
import { roleMay } from "../../../common/pump-roles.ts";
import { alertChannelsView } from "../../../worker/services/alert-channels.ts";
import { pumpContext } from "../../pump-choice.server.ts";
import { envOf } from "../../session.server.ts";
import { userContext } from "../../user-context.ts";
import type { Route } from "./+types/route";

export async function loadAlertsPage({ context }: Route.LoaderArgs) {
  const { pumps } = context.get(pumpContext);
  const named = ({ device }: (typeof pumps)[number]) => ({ deviceId: device.id, name: device.name });
  return {
    // The browser subscribes with our public key; without one the server cannot send alerts.
    publicKey: envOf(context).VAPID_PUBLIC_KEY || null,
    alertPumps: pumps.filter(({ role }) => roleMay(role, "alerts")).map(named),
    watchedPumps: pumps.filter(({ role }) => !roleMay(role, "alerts")).map(named),
    phone: await alertChannelsView(envOf(context), context.get(userContext).id),
  };
}
