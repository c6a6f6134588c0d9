// Worker CPU time per API call. Local workerd reports no per-request CPU to tail consumers
// (cpuTime is 0), so this reads the runtime's own thread run time (/proc schedstat, ns) around
// each call, made one at a time. That includes the runtime's HTTP handling and wrangler's
// local proxy, so a trivial call (a 404) is measured too, as the floor.
import { cpuNanoseconds, percentile, round, workerdPids } from "./lib.ts";
import { benchAdminToken, logInFarmers, startFleet } from "./fleet.ts";

export type CpuRow = { call: string; medianMs: number; p99Ms: number; samples: number };

export async function measureWorkerCpu(samples: number): Promise<CpuRow[]> {
  const fleet = await startFleet(samples); // one box per motor command (the cooldown is per box)
  try {
    const pids = workerdPids(fleet.worker.process.pid!);
    const tokens = await logInFarmers(fleet.worker, fleet.mobileNos);
    const admin = await benchAdminToken(fleet.worker);
    const base = fleet.worker.url;
    const mobileNo = fleet.mobileNos[0]!;
    const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
    const cookie = { Cookie: `sinchai_session=${tokens[0]}` };

    const measure = async (call: string, count: number, request: (index: number) => Promise<Response>): Promise<CpuRow> => {
      const costs: number[] = [];
      await (await request(0)).arrayBuffer(); // warm up
      for (let index = 0; index < count; index++) {
        const before = cpuNanoseconds(pids);
        const response = await request(index);
        await response.arrayBuffer();
        costs.push((cpuNanoseconds(pids) - before) / 1e6);
      }
      return { call, medianMs: round(percentile(costs, 50), 2), p99Ms: round(percentile(costs, 99), 2), samples: count };
    };

    return [
      await measure("floor: unknown route (404)", samples, () => fetch(`${base}/api/no-such-route`)),
      await measure("GET motor status (D1 + hub RPC)", samples, () => fetch(`${base}/api/devices/motor/status/${mobileNo}`, { headers: auth(tokens[0]!) })),
      await measure("GET motor logs (D1)", samples, () => fetch(`${base}/api/logs/motor/${mobileNo}`, { headers: auth(tokens[0]!) })),
      await measure("GET plan (D1)", samples, () => fetch(`${base}/api/recharge/plan`, { headers: auth(tokens[0]!) })),
      await measure("GET admin recharge list (D1)", samples, () => fetch(`${base}/api/admin/recharge-requests`, { headers: auth(admin) })),
      await measure("POST motor command (hub + box ack)", samples - 1, (index) =>
        fetch(`${base}/api/devices/motor`, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...auth(tokens[index + 1]!) },
          body: JSON.stringify({ action: "on" }),
        }),
      ),
      await measure("GET /motor-control page (SSR)", samples, () => fetch(`${base}/motor-control`, { headers: cookie })),
      await measure("POST login (password hashing, reported apart)", Math.min(30, samples), () =>
        fetch(`${base}/api/auth/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ mobileNo, password: "sim-fleet-password" }),
        }),
      ),
    ];
  } finally {
    await fleet.stop();
  }
}
