// What the dashboard renders with the page for one pump: the box as D1 has it now (read again,
// since the page's own action may just have changed its settings), the hub's snapshot and its
// usage history (server-rendered, never sent over the socket), and the motor's settings.
import type { PumpUsage } from "../../common/api-responses/usage.ts";
import type { HubSnapshot } from "../../common/hub-contract.ts";
import { getDb } from "../db/client.ts";
import { findDeviceById, motorConfigOf, ownedSince } from "../db/devices.ts";
import type { DeviceRow } from "../db/schema.ts";
import { deviceHub } from "../hubs/device-hubs.ts";

export type PumpDashboard = {
  device: DeviceRow;
  snapshot: HubSnapshot;
  usage: PumpUsage;
  motorConfig: ReturnType<typeof motorConfigOf>;
};

/** The pump's dashboard data, or null when the box is no longer in D1. */
export async function pumpDashboardOf(env: Env, deviceId: string, usageDays: number): Promise<PumpDashboard | null> {
  const device = await findDeviceById(getDb(env.DB), deviceId);
  if (!device) return null;
  const hub = deviceHub(env, device.id);
  // A farmer's page: the log and usage from when the box became its owner's.
  const [snapshot, usage] = await Promise.all([hub.getSnapshot(), hub.usage(usageDays, ownedSince(device))]);
  return { device, snapshot, usage, motorConfig: motorConfigOf(device) };
}

/** The motor's settings of no box: the defaults a page shows before one is linked. */
export const noPumpMotorConfig = (): ReturnType<typeof motorConfigOf> => motorConfigOf(null);
