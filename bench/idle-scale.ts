// Idle scale: N boxes connected, nothing happening but heartbeats, for a while. Reports the
// runtime's memory and CPU, and how often a hub woke or handled a device frame (heartbeats are
// answered by the runtime, so both should stay 0).
import { ApiClient } from "../common/api-client.ts";
import { hubStatsResponseSchema } from "../common/api-responses/admin.ts";
import { benchAdminToken, startFleet } from "./fleet.ts";
import { cpuNanoseconds, rssMegabytes, workerdPids } from "./lib.ts";

export type IdleScale = {
  devices: number;
  connectRate: number;
  rssMb: number;
  cpuPercent: number;
  pingsSent: number;
  hubWakes: number;
  deviceFramesHandled: number;
};

type HubStats = { wakes: number; deviceFrames: number; recentWakes: number[] };

/** Every hub's counters, through the admin API, 50 at a time. */
async function readStats(baseUrl: string, adminToken: string, deviceIds: string[]): Promise<HubStats[]> {
  const admin = new ApiClient(baseUrl, { token: adminToken });
  const stats: HubStats[] = [];
  for (let start = 0; start < deviceIds.length; start += 50) {
    const batch = await Promise.all(
      deviceIds
        .slice(start, start + 50)
        .map(
          async (deviceId) =>
            (await admin.get(`/api/admin/devices/${deviceId}/hub-stats`, hubStatsResponseSchema)).stats,
        ),
    );
    stats.push(...batch);
  }
  return stats;
}

export async function measureIdleScale(
  devices: number,
  idleSeconds: number,
  heartbeatSeconds = 10,
): Promise<IdleScale> {
  // Boxes ping every `heartbeatSeconds` here (not 240 s) so the window holds many heartbeats.
  const fleet = await startFleet(devices, { heartbeatOverrideSeconds: heartbeatSeconds });
  try {
    const pids = workerdPids(fleet.worker.process.pid!);
    await new Promise((resolve) => setTimeout(resolve, 5_000)); // let the connection storm settle
    const admin = await benchAdminToken(fleet.worker);
    const deviceIds = fleet.devices.map((device) => device.deviceId);
    const before = await readStats(fleet.worker.url, admin, deviceIds);
    const windowStart = Date.now();
    const pingsBefore = fleet.devices.reduce((total, device) => total + device.counters.framesSent, 0);
    const cpuBefore = cpuNanoseconds(pids);
    let rss = 0;
    const sampler = setInterval(() => (rss = Math.max(rss, rssMegabytes(pids))), 1_000);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1_000));
    clearInterval(sampler);
    const cpu = cpuNanoseconds(pids) - cpuBefore;
    const pingsSent = fleet.devices.reduce((total, device) => total + device.counters.framesSent, 0) - pingsBefore;
    const windowEnd = Date.now();
    const after = await readStats(fleet.worker.url, admin, deviceIds);
    return {
      devices,
      connectRate: Math.round(devices / fleet.connectSeconds),
      rssMb: rss,
      cpuPercent: Math.round((cpu / (idleSeconds * 1e9)) * 1000) / 10,
      pingsSent,
      // Only wakes inside the window: reading the counters afterwards may wake a hub itself.
      hubWakes: after.reduce(
        (total, entry) => total + entry.recentWakes.filter((at) => at >= windowStart && at <= windowEnd).length,
        0,
      ),
      deviceFramesHandled:
        after.reduce((total, entry) => total + entry.deviceFrames, 0) -
        before.reduce((total, entry) => total + entry.deviceFrames, 0),
    };
  } finally {
    await fleet.stop();
  }
}
