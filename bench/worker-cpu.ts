// Worker CPU time per API call. Local workerd reports no per-request CPU to tail consumers
// (cpuTime is 0), so this reads the runtime's own thread run time (/proc schedstat, ns) around
// each call, made one at a time. That includes the runtime's HTTP handling and wrangler's
// local proxy, so a trivial call (a 404) is measured too, as the floor. Calls go through our API
// client, which reads and parses each answer in this process, outside what is measured.
import type WebSocket from "ws";
import { ApiClient } from "../common/api-client.ts";
import { loginResponseSchema } from "../common/api-responses/accounts.ts";
import { motorStatusResponseSchema } from "../common/api-responses/devices.ts";
import { motorLogsResponseSchema } from "../common/api-responses/logs.ts";
import { planResponseSchema, rechargeListResponseSchema } from "../common/api-responses/recharges.ts";
import { apiErrorSchema } from "../common/api-responses/refusals.ts";
import { DEVICE_FRAMES_PER_SECOND } from "../common/device-protocol.ts";
import type { SimulatedDevice } from "../device-sim/simulated-device.ts";
import { benchAdminToken, logInFarmers, openPageSocket, startFleet } from "./fleet.ts";
import { cpuDuring, localProcesses, percentile, round, workerdPids } from "./lib.ts";

export type CpuRow = { call: string; medianMs: number; p99Ms: number; samples: number };

export async function measureWorkerCpu(samples: number): Promise<CpuRow[]> {
  // One box per motor command (the cooldown is per box), for each of the two command rows.
  const fleet = await startFleet(2 * samples);
  try {
    const processes = localProcesses(fleet.worker.process.pid!, fleet.worker.port);
    const runtime = workerdPids(fleet.worker.process.pid!).join();
    const tokens = await logInFarmers(fleet.worker, fleet.mobileNos);
    const admin = await benchAdminToken(fleet.worker);
    const base = fleet.worker.url;
    const mobileNo = fleet.mobileNos[0]!;
    const farmers = tokens.map((token) => new ApiClient(base, { token }));
    const farmer = farmers[0]!;
    const asAdmin = new ApiClient(base, { token: admin });
    const anonymous = new ApiClient(base);
    const cookie = { Cookie: `sinchai_session=${tokens[0]}` };

    /**
     * `prepare` runs before each call, outside what is measured. A command needs a box of its own
     * (the cooldown is per box), so it is not sent once more to warm up: the rows before it have
     * warmed the Worker.
     */
    const measure = async (
      call: string,
      count: number,
      request: (index: number) => Promise<unknown>,
      { prepare, warmUp = true }: { prepare?: (index: number) => Promise<unknown>; warmUp?: boolean } = {},
    ): Promise<CpuRow> => {
      const costs: number[] = [];
      if (warmUp) await request(0);
      for (let index = 0; index < count; index++) {
        await prepare?.(index);
        const { cpu } = await cpuDuring(processes, () => request(index));
        costs.push(cpu.front + cpu.runtime);
        // wrangler restarts workerd when the Worker's build changes (another build in this
        // folder): the new process is not the one read, so the row would read a fraction of it.
        if (workerdPids(fleet.worker.process.pid!).join() !== runtime)
          throw new Error(`the local runtime restarted while "${call}" was measured: its figures would be wrong`);
      }
      return {
        call,
        medianMs: round(percentile(costs, 50), 2),
        p99Ms: round(percentile(costs, 99), 2),
        samples: count,
      };
    };

    return [
      await measure("floor: unknown route (404)", samples, () =>
        anonymous.request("GET", "/api/no-such-route", apiErrorSchema),
      ),
      await measure("GET motor status (D1 + hub RPC)", samples, () =>
        farmer.get(`/api/devices/motor/status/${mobileNo}`, motorStatusResponseSchema),
      ),
      await measure("GET motor logs (D1)", samples, () =>
        farmer.get(`/api/logs/motor/${mobileNo}`, motorLogsResponseSchema),
      ),
      await measure("GET plan (D1)", samples, () => farmer.get("/api/recharge/plan", planResponseSchema)),
      await measure("GET admin recharge list (D1)", samples, () =>
        asAdmin.get("/api/admin/recharge-requests", rechargeListResponseSchema),
      ),
      // A hub that has had nothing to do since its box connected may have been put to sleep by
      // the runtime: its first call pays its start (the state read under blockConcurrencyWhile).
      await measure(
        "POST motor command (hub + box ack), its hub asleep",
        samples - 1,
        (index) => farmers[index + 1]!.switchMotor("on"),
        { warmUp: false },
      ),
      // As a tap on an open pump page: the page's status call has woken the hub (outside what
      // is measured), as the HTTP round-trip bench does before each command.
      await measure(
        "POST motor command (hub + box ack), its hub awake",
        samples,
        (index) => farmers[samples + index]!.switchMotor("on"),
        {
          warmUp: false,
          prepare: (index) =>
            farmers[samples + index]!.get(
              `/api/devices/motor/status/${fleet.mobileNos[samples + index]}`,
              motorStatusResponseSchema,
            ),
        },
      ),
      // What a running pump's every reading costs: its hub parses it, counts its run hours and
      // energy, keeps its power history and tells the one page watching (whose socket makes the
      // box report, as an open page does). The "hub asleep" row switched this box ON.
      await measureReading(fleet.worker.port, fleet.mobileNos[1]!, tokens[1]!, fleet.devices[1]!, (reading) =>
        measure("a box's power reading, its motor running, one page watching", samples, reading, {
          // One reading at a time, within the box's frame rate.
          prepare: () => new Promise((resolve) => setTimeout(resolve, 1_000 / DEVICE_FRAMES_PER_SECOND + 50)),
        }),
      ),
      await measure("GET /motor-control page (SSR)", samples, async () =>
        (await fetch(`${base}/motor-control`, { headers: cookie })).arrayBuffer(),
      ),
      await measure("POST login (password hashing, reported apart)", Math.min(30, samples), () =>
        anonymous.post("/api/auth/login", loginResponseSchema, { mobileNo, password: "sim-fleet-password" }),
      ),
    ];
  } finally {
    await fleet.stop();
  }
}

/**
 * Opens a page's socket on the pump of `mobileNo` and runs `measure` with a call that has `box`
 * send one reading and resolves when the page has it.
 */
async function measureReading(
  port: number,
  mobileNo: string,
  token: string,
  box: SimulatedDevice,
  measure: (reading: () => Promise<void>) => Promise<CpuRow>,
): Promise<CpuRow> {
  const page = openPageSocket(port, mobileNo, token);
  try {
    await new Promise((resolve) => page.once("message", resolve)); // initialData
    await new Promise((resolve) => setTimeout(resolve, 500)); // the watch message has reached the box
    return await measure(
      () =>
        new Promise<void>((resolve, reject) => {
          const onMessage = (data: WebSocket.RawData) => {
            if (!data.toString().includes('"powerDataUpdate"')) return;
            page.off("message", onMessage);
            page.off("close", onClose);
            resolve();
          };
          // A page whose socket closed (the runtime restarted) gets no reading: fail, not wait.
          const onClose = () => reject(new Error("the page's socket closed while a reading was measured"));
          page.on("message", onMessage);
          page.once("close", onClose);
          box.sendPowerReading();
        }),
    );
  } finally {
    page.close();
  }
}
