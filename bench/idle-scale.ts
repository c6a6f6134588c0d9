// Idle scale: N boxes connected, nothing happening but heartbeats, for a while. Reports the
// runtimes' memory and CPU, and how often a hub woke or handled a device frame (heartbeats are
// answered by the runtime, so both should stay 0).
import { ApiClient } from "../common/api-client.ts";
import { hubStatsResponseSchema } from "../common/api-responses/admin.ts";
import { benchAdminToken, type Fleet, startFleet } from "./fleet.ts";
import { cpuNanoseconds, rssMegabytes, workerdPids } from "./lib.ts";

export type IdleScale = {
  devices: number;
  runtimes: number;
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

/**
 * `devices` boxes idle for `idleSeconds`, spread over `runtimes` local runtimes (each its own
 * `wrangler dev`, D1 and hubs: one runtime holds only as many sockets as its open-file limit
 * allows, bench/fleet.ts). Memory and CPU are the sum over every runtime's workerd processes.
 */
export async function measureIdleScale(
  devices: number,
  idleSeconds: number,
  runtimes = 1,
  heartbeatSeconds = 10,
): Promise<IdleScale> {
  // Boxes ping every `heartbeatSeconds` here (not 240 s) so the window holds many heartbeats.
  const shares = Array.from(
    { length: runtimes },
    (_, index) => Math.floor(devices / runtimes) + (index < devices % runtimes ? 1 : 0),
  );
  const fleets: Fleet[] = [];
  try {
    for (const share of shares) fleets.push(await startFleet(share, { heartbeatOverrideSeconds: heartbeatSeconds }));
    const pids = fleets.flatMap((fleet) => workerdPids(fleet.worker.process.pid!));
    await new Promise((resolve) => setTimeout(resolve, 5_000)); // let the connection storm settle
    const admins = await Promise.all(fleets.map((fleet) => benchAdminToken(fleet.worker)));
    const statsOfAll = () =>
      Promise.all(
        fleets.map((fleet, index) =>
          readStats(
            fleet.worker.url,
            admins[index]!,
            fleet.devices.map((device) => device.deviceId),
          ),
        ),
      ).then((perRuntime) => perRuntime.flat());
    const framesSent = () =>
      fleets.reduce(
        (total, fleet) => total + fleet.devices.reduce((sum, device) => sum + device.counters.framesSent, 0),
        0,
      );
    const before = await statsOfAll();
    const windowStart = Date.now();
    const pingsBefore = framesSent();
    const cpuBefore = cpuNanoseconds(pids);
    let rss = 0;
    const sampler = setInterval(() => (rss = Math.max(rss, rssMegabytes(pids))), 1_000);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1_000));
    clearInterval(sampler);
    const cpu = cpuNanoseconds(pids) - cpuBefore;
    const pingsSent = framesSent() - pingsBefore;
    const windowEnd = Date.now();
    const after = await statsOfAll();
    const connectSeconds = fleets.reduce((total, fleet) => total + fleet.connectSeconds, 0);
    return {
      devices,
      runtimes,
      connectRate: Math.round(devices / connectSeconds),
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
    await Promise.all(fleets.map((fleet) => fleet.stop()));
  }
}
