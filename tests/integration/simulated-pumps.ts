// Farmers with a pump each on the real local Worker: the farmer registered through the API, the
// pump provisioned for them by the admin API and online as a simulated 5 HP 3-phase box. A test
// file gets the Worker, its admin and the pumps from `pumpsOnWorkerForFile`.
import { afterAll, beforeAll } from "vitest";
import type { ApiClient } from "../../common/api-client.ts";
import { motorConfigResponseSchema } from "../../common/api-responses/devices.ts";
import { motorLogsResponseSchema } from "../../common/api-responses/logs.ts";
import {
  localDeviceSocketUrl,
  type SimulatedDevice,
  type SimulatedDeviceOptions,
  simulateBox,
} from "../../device-sim/simulated-device.ts";
import { executeLocalSql, sqlText } from "../../scripts/lib/local-d1.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { createAdmin, markNumberVerified, registerFarmer, uniqueMobileNo } from "./accounts.ts";
import { freePort, freshPersistDir, type LocalWorker, startLocalWorker } from "./local-worker.ts";
import { sharedAdmin, sharedWorker, type WorkerAddress } from "./shared-worker.ts";

export type SimulatedPump = { farmer: ApiClient; mobileNo: string; deviceId: string; box: SimulatedDevice };

export type SimulatedPumpOptions = {
  /** The simulator's options over its defaults. */
  box?: Partial<SimulatedDeviceOptions>;
  /** Set before the box comes online: the number verified (as its code would) and the pump's name. */
  verified?: boolean;
  name?: string;
  /** The installer sets the running current of its 5 HP motor (about 9 A), so protection does not trip it. */
  runningCurrent?: boolean;
};

/** Makes farmers with simulated pumps; `boxes` holds every box started, for the suite to stop. */
function simulatedPumps(worker: WorkerAddress, admin: ApiClient) {
  const boxes: SimulatedDevice[] = [];
  async function farmerWithPump(options: SimulatedPumpOptions = {}): Promise<SimulatedPump> {
    const mobileNo = uniqueMobileNo();
    const farmer = await registerFarmer(worker.url, mobileNo);
    const { device, key } = await admin.provisionDevice("3phase", mobileNo);
    if (options.verified) await markNumberVerified(worker.persistTo, mobileNo);
    if (options.name !== undefined) {
      await executeLocalSql(
        worker.persistTo,
        `UPDATE devices SET name = ${sqlText(options.name)} WHERE id = ${sqlText(device.id)};`,
      );
    }
    const identity = { deviceId: device.id, key, kind: "3phase", horsePower: 5 } as const;
    const box = simulateBox(localDeviceSocketUrl(worker.port), identity, options.box);
    boxes.push(box);
    box.start();
    await box.waitUntilConnected(CONDITION_LIMIT_MS);
    if (options.runningCurrent) {
      await farmer.post(`/api/devices/motor/config/${mobileNo}`, motorConfigResponseSchema, {
        defaultCurrent: 9,
        dryRunThreshold: 30,
        overCurrentThreshold: 30,
      });
    }
    return { farmer, mobileNo, deviceId: device.id, box };
  }
  return {
    boxes,
    farmerWithPump,
    stop: async () => {
      await Promise.all(boxes.map((box) => box.stop()));
    },
  };
}

type SimulatedPumps = ReturnType<typeof simulatedPumps>;

/**
 * For the test file that calls it, on the project's shared Worker (shared-worker.ts): its admin
 * and the pumps' factory from the file's `beforeAll` on; after its tests the pumps' boxes stop.
 */
export function pumpsOnSharedWorker(): ReturnType<typeof sharedWorker> & { admin: ApiClient; pumps: SimulatedPumps } {
  const suite = sharedWorker() as ReturnType<typeof sharedWorker> & { admin: ApiClient; pumps: SimulatedPumps };
  beforeAll(async () => {
    suite.admin = await sharedAdmin();
    suite.pumps = simulatedPumps(suite.worker, suite.admin);
  });
  afterAll(async () => {
    await suite.pumps?.stop();
  });
  return suite;
}

/** A Worker on a fresh database of its own. */
export async function freshWorker(): Promise<{ worker: LocalWorker }> {
  return { worker: await startLocalWorker(await freshPersistDir(), await freePort()) };
}

/**
 * For the test file that calls it: before its tests, `start` starts the Worker (and what runs
 * beside it), then its admin (`adminMobileNo`) is made and the pumps' factory; after them the
 * pumps' boxes stop, then `stopBeside` stops what runs beside the Worker, then the Worker. The
 * fields are there from the file's `beforeAll` on (a test may replace the Worker or the admin).
 */
export function pumpsOnWorkerForFile<Started extends { worker: LocalWorker }>(
  adminMobileNo: string,
  start: () => Promise<Started>,
  stopBeside: (started: Partial<Started>) => Promise<void> = async () => {},
): Started & { admin: ApiClient; pumps: SimulatedPumps } {
  const suite = {} as Started & { admin: ApiClient; pumps: SimulatedPumps };
  beforeAll(async () => {
    Object.assign(suite, await start());
    suite.admin = await createAdmin(suite.worker.url, suite.worker.persistTo, adminMobileNo);
    suite.pumps = simulatedPumps(suite.worker, suite.admin);
  });
  afterAll(async () => {
    await suite.pumps?.stop();
    await stopBeside(suite);
    await suite.worker?.stop();
  });
  return suite;
}

/** The texts of the pump's motor log, newest first, as the farmer reads them. */
export async function logTexts(farmer: ApiClient, mobileNo: string): Promise<string[]> {
  return (await farmer.get(`/api/logs/motor/${mobileNo}`, motorLogsResponseSchema)).map((log) => log.logMessage);
}
