// The dashboard's data, rendered with the page: the chosen pump's hub snapshot, its usage, the
// motor's settings and what this farmer may do with it.

import { runningCurrentFrom } from "../../../common/protection.ts";
import { roleMay } from "../../../common/pump-roles.ts";
import { usageSpanOf } from "../../../common/pump-usage.ts";
import { languageOf } from "../../../worker/services/page-request.ts";
import { noPumpMotorConfig, pumpDashboardOf } from "../../../worker/services/pump-dashboard.ts";
import { healthCacheKey } from "../../health-cache.ts";
import { phoneWaysOf } from "../../phone-ways.server.ts";
import { pumpContext } from "../../pump-choice.server.ts";
import { noDeviceSnapshot } from "../../realtime/no-device-snapshot.ts";
import { envOf } from "../../session.server.ts";
import { userContext } from "../../user-context.ts";
import type { Route } from "./+types/route";

export async function loadDashboard({ context, request }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const env = envOf(context);
  const { pumps, chosen } = context.get(pumpContext);
  const role = chosen?.role ?? "owner";
  const usageSpan = usageSpanOf(request.url);
  // Read again: the choice was resolved before this request's action (a settings change) ran.
  const dashboard = chosen ? await pumpDashboardOf(env, chosen.device.id, usageSpan) : null;
  const device = dashboard?.device;
  const motorConfig = dashboard?.motorConfig ?? noPumpMotorConfig();
  return {
    mobileNo: user.mobileNo,
    // Who "you" is in "started by" (the hub's state names accounts).
    viewerId: user.id,
    numberVerified: user.numberVerified,
    hasDevice: device !== undefined,
    deviceId: device?.id ?? null,
    pumpName: device?.name ?? null,
    role,
    // What this farmer may do here, decided on the server (the page ships no role table).
    may: {
      switch: roleMay(role, "switch"),
      // The settings and the box's details are on /pump-settings, the owner's page.
      configure: roleMay(role, "configure"),
      invite: roleMay(role, "invite"),
    },
    sharedBy:
      chosen && chosen.role !== "owner"
        ? (pumps.find((pump) => pump.device.id === device?.id)?.ownerMobileNo ?? null)
        : null,
    cacheKey: healthCacheKey(user.mobileNo, device?.id ?? null, pumps[0]?.device.id ?? null),
    snapshot: dashboard?.snapshot ?? noDeviceSnapshot(Date.now()),
    motorConfig,
    // At and above this current a reading says the motor turns: the "not sure" state's hint.
    runningCurrent: runningCurrentFrom(motorConfig),
    phoneWays: phoneWaysOf(env, languageOf(request)),
    usage: dashboard?.usage ?? null,
    usageSpan,
  };
}
