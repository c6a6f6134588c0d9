// The dashboard's data, rendered with the page: the chosen pump's hub snapshot, its usage, the
// motor's settings and what this farmer may do with it.
import { roleMay } from "../../../common/pump-roles.ts";
import { usageSpanOf } from "../../../common/pump-usage.ts";
import { getDb } from "../../../worker/db/client.ts";
import { findDeviceById, motorConfigOf } from "../../../worker/db/devices.ts";
import { deviceHub } from "../../../worker/hubs/device-hubs.ts";
import { healthCacheKey } from "../../health-cache.ts";
import { pumpContext } from "../../pump-choice.server.ts";
import { noDeviceSnapshot } from "../../realtime/no-device-snapshot.ts";
import { envOf } from "../../session.server.ts";
import { userContext } from "../../user-context.ts";
import type { Route } from "./+types/route";

export async function loadDashboard({ context, request }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const env = envOf(context);
  const db = getDb(env.DB);
  const { pumps, chosen } = context.get(pumpContext);
  // Read again: the choice was resolved before this request's action (a settings change) ran.
  const device = chosen ? await findDeviceById(db, chosen.device.id) : undefined;
  const role = chosen?.role ?? "owner";
  const usageSpan = usageSpanOf(request.url);
  const [snapshot, usage] = await Promise.all([
    device ? deviceHub(env, device.id).getSnapshot() : noDeviceSnapshot(Date.now()),
    // Server-rendered with the page (and again when it revalidates), never over the socket.
    device ? deviceHub(env, device.id).usage(usageSpan) : null,
  ]);
  return {
    mobileNo: user.mobileNo,
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
    snapshot,
    motorConfig: motorConfigOf(device),
    usage,
    usageSpan,
  };
}
