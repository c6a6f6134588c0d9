// Command over HTTP: POST /api/devices/motor → Worker (session and box in one D1 query) →
// DeviceHub → simulated box's ack → answer, one command at a time, each to a different box (the
// 10 s cooldown is per box). Beside the time, what the answer's Server-Timing says
// (worker/db/query-count.ts): how long the Worker itself held the request, D1 included, and the
// D1 round trips it made before answering; and the hubs' round trips (their stats, which include
// the motor log each writes to D1 after answering).
import { ApiClient, readJson } from "../common/api-client.ts";
import { hubStatsResponseSchema } from "../common/api-responses/admin.ts";
import { motorCommandResponseSchema } from "../common/api-responses/devices.ts";
import { apiErrorSchema } from "../common/api-responses/refusals.ts";
import type { CommandCost } from "../common/hub-contract.ts";
import { benchAdminToken, logInFarmers, startFleet } from "./fleet.ts";
import { cpuDuring, type FloorCall, localProcesses, type ProcessCpu } from "./lib.ts";
import { hubCommandCosts } from "./socket-command.ts";

export type CommandRoundTrip = {
  roundTrips: number[];
  httpFloor: number[];
  errors: number;
  /** D1 round trips the Worker made before each answer. */
  workerQueries: number[];
  /** How long after its headers each answer's body was read, in ms: the command's and the empty call's. */
  bodyAfterHeaders: number[];
  emptyBodyAfterHeaders: number[];
  /** How long the Worker held each command, and how much of it was D1's, in ms. */
  insideWorker: number[];
  waitingOnD1: number[];
  /** The hubs' D1 round trips over the whole run, per command (the log written after the answer). */
  hubQueriesPerCommand: number;
  /** Each hub's account of its command, step by step. */
  costs: CommandCost[];
  /** The relay floor over HTTP beside each command, without and with one D1 round trip (empty if not given). */
  relayOverHttp: number[];
  relayOverHttpWithD1: number[];
  /**
   * What the local runtime's two processes spent on each call, from its send to its answer read:
   * the command's, the relay over HTTP with D1's, the empty call's.
   */
  cpu: { command: ProcessCpu[]; relayOverHttpWithD1: ProcessCpu[]; empty: ProcessCpu[] };
};

const PAUSE_BETWEEN_COMMANDS_MS = 50;

/** What an answer says of itself: its D1 round trips, their time and the Worker's, in ms. */
function serverTiming(response: Response): { queries: number; d1: number; worker: number } {
  const header = response.headers.get("Server-Timing") ?? "";
  const d1 = /d1;desc="queries=(\d+)";dur=([\d.]+)/.exec(header);
  const worker = /worker;dur=([\d.]+)/.exec(header);
  return { queries: Number(d1?.[1] ?? NaN), d1: Number(d1?.[2] ?? NaN), worker: Number(worker?.[1] ?? NaN) };
}

/**
 * `floor`, when given, is measured beside each command, in the pause before it, without and with
 * its D1 round trip (./lib.ts, openHttpRelayFloor): under the same load as the command.
 */
export async function measureCommandRoundTrip(
  commands: number,
  floor?: (withD1: boolean) => Promise<FloorCall>,
): Promise<CommandRoundTrip> {
  const fleet = await startFleet(commands);
  try {
    const processes = localProcesses(fleet.worker.process.pid!, fleet.worker.port);
    const cpu: CommandRoundTrip["cpu"] = { command: [], relayOverHttpWithD1: [], empty: [] };
    const tokens = await logInFarmers(fleet.worker, fleet.mobileNos);
    const admin = new ApiClient(fleet.worker.url, { token: await benchAdminToken(fleet.worker) });
    const hubQueriesOf = async (deviceId: string) =>
      (await admin.get(`/api/admin/devices/${deviceId}/hub-stats`, hubStatsResponseSchema)).stats.d1Queries;
    // Each hub's count is taken after the page's status call, just before its command: what
    // the hub asked D1 for the status (its recent log, as it woke) is not the command's.
    let hubQueriesBefore = 0;
    const roundTrips: number[] = [];
    const workerQueries: number[] = [];
    const insideWorker: number[] = [];
    const waitingOnD1: number[] = [];
    const bodyAfterHeaders: number[] = [];
    const relayOverHttp: number[] = [];
    const relayOverHttpWithD1: number[] = [];
    let errors = 0;
    // Both measurements read and parse their answer as any client of ours would (tens of
    // microseconds, against milliseconds of round trip).
    for (const [index, token] of tokens.entries()) {
      // A farmer taps on a page that has loaded the pump's status, which woke its hub: a hub
      // asleep since its box connected would add its start to the command.
      const status = await fetch(`${fleet.worker.url}/api/devices/motor/status/${fleet.mobileNos[index]}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      await status.arrayBuffer();
      hubQueriesBefore += await hubQueriesOf(fleet.credentials[index]!.deviceId);
      // One tap at a time, as farmers' taps meet a hub: the last command's work after its answer
      // (its log written to D1, 5 ms later) is done before the next starts, instead of landing
      // in it on the thread this local runtime shares between the Worker, the hubs and D1.
      const pause = new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_COMMANDS_MS));
      if (floor) {
        relayOverHttp.push((await floor(false)).ms);
        const withD1 = await floor(true);
        relayOverHttpWithD1.push(withD1.ms);
        cpu.relayOverHttpWithD1.push(withD1.cpu);
      }
      await pause;
      const { result, cpu: spent } = await cpuDuring(processes, async () => {
        const started = performance.now();
        const response = await fetch(`${fleet.worker.url}/api/devices/motor`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ action: "on" }),
        });
        const headersAt = performance.now();
        const ok = response.ok && (await readJson(response, motorCommandResponseSchema)).status === "on";
        roundTrips.push(performance.now() - started);
        bodyAfterHeaders.push(performance.now() - headersAt);
        return { ok, response };
      });
      cpu.command.push(spent);
      const { ok, response } = result;
      const timing = serverTiming(response);
      workerQueries.push(timing.queries);
      insideWorker.push(timing.worker);
      waitingOnD1.push(timing.d1);
      if (!ok) errors++;
    }
    // Every hub's log is in D1 a moment after its answer; give the last ones that moment.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    let hubQueriesAfter = 0;
    for (const { deviceId } of fleet.credentials) hubQueriesAfter += await hubQueriesOf(deviceId);
    const hubQueriesPerCommand = (hubQueriesAfter - hubQueriesBefore) / commands;
    const costs = await hubCommandCosts(fleet);
    // A second floor: an HTTP call through the same local stack that does nothing (an unknown
    // route: no D1, no hub, just its refusal). The command pays this before any work of its own.
    const httpFloor: number[] = [];
    const emptyBodyAfterHeaders: number[] = [];
    for (let index = 0; index < commands; index++) {
      const { cpu: spent } = await cpuDuring(processes, async () => {
        const started = performance.now();
        const response = await fetch(`${fleet.worker.url}/api/no-such-route`);
        const headersAt = performance.now();
        await readJson(response, apiErrorSchema);
        httpFloor.push(performance.now() - started);
        emptyBodyAfterHeaders.push(performance.now() - headersAt);
      });
      cpu.empty.push(spent);
    }
    return {
      roundTrips,
      httpFloor,
      errors,
      workerQueries,
      insideWorker,
      waitingOnD1,
      hubQueriesPerCommand,
      costs,
      bodyAfterHeaders,
      emptyBodyAfterHeaders,
      relayOverHttp,
      relayOverHttpWithD1,
      cpu,
    };
  } finally {
    await fleet.stop();
  }
}
