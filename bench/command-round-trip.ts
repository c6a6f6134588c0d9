// Command over HTTP: POST /api/devices/motor → Worker (session and box in one D1 query) →
// DeviceHub → simulated box's ack → answer, one command at a time, each to a different box (the
// 10 s cooldown is per box). Beside the time, the D1 round trips: the Worker's own before its
// answer (its Server-Timing entry, worker/db/query-count.ts) and the hubs' (their stats, which
// include the motor log each writes to D1 after answering).
import { ApiClient, readJson } from "../common/api-client.ts";
import { hubStatsResponseSchema } from "../common/api-responses/admin.ts";
import { motorCommandResponseSchema } from "../common/api-responses/devices.ts";
import { apiErrorSchema } from "../common/api-responses/refusals.ts";
import { benchAdminToken, logInFarmers, startFleet } from "./fleet.ts";

export type CommandRoundTrip = {
  roundTrips: number[];
  httpFloor: number[];
  errors: number;
  /** D1 round trips the Worker made before each answer. */
  workerQueries: number[];
  /** The hubs' D1 round trips over the whole run, per command (the log written after the answer). */
  hubQueriesPerCommand: number;
};

/** The D1 round trips an answer says it took. */
function d1Queries(response: Response): number {
  return Number(/d1;desc="queries=(\d+)"/.exec(response.headers.get("Server-Timing") ?? "")?.[1] ?? NaN);
}

export async function measureCommandRoundTrip(commands: number): Promise<CommandRoundTrip> {
  const fleet = await startFleet(commands);
  try {
    const tokens = await logInFarmers(fleet.worker, fleet.mobileNos);
    const admin = new ApiClient(fleet.worker.url, { token: await benchAdminToken(fleet.worker) });
    const hubQueries = async () => {
      let total = 0;
      for (const { deviceId } of fleet.credentials) {
        total += (await admin.get(`/api/admin/devices/${deviceId}/hub-stats`, hubStatsResponseSchema)).stats.d1Queries;
      }
      return total;
    };
    const hubQueriesBefore = await hubQueries();
    const roundTrips: number[] = [];
    const workerQueries: number[] = [];
    let errors = 0;
    // Both measurements read and parse their answer as any client of ours would (tens of
    // microseconds, against milliseconds of round trip).
    for (const token of tokens) {
      const started = performance.now();
      const response = await fetch(`${fleet.worker.url}/api/devices/motor`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ action: "on" }),
      });
      const ok = response.ok && (await readJson(response, motorCommandResponseSchema)).status === "on";
      roundTrips.push(performance.now() - started);
      workerQueries.push(d1Queries(response));
      if (!ok) errors++;
    }
    // Every hub's log is in D1 a moment after its answer; give the last ones that moment.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const hubQueriesPerCommand = (await hubQueries()) / commands - hubQueriesBefore / commands;
    // A second floor: an HTTP call through the same local stack that does nothing (an unknown
    // route: no D1, no hub, just its refusal). The command pays this before any work of its own.
    const httpFloor: number[] = [];
    const anonymous = new ApiClient(fleet.worker.url);
    for (let index = 0; index < commands; index++) {
      const started = performance.now();
      await anonymous.request("GET", "/api/no-such-route", apiErrorSchema);
      httpFloor.push(performance.now() - started);
    }
    return { roundTrips, httpFloor, errors, workerQueries, hubQueriesPerCommand };
  } finally {
    await fleet.stop();
  }
}
