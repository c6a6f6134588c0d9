// How many bytes a box moves over its SIM: idle, running unwatched, running watched, and
// running watched by someone who taps Refresh over and over (fresh power and health, as fast
// as a script: what a viewer who wants to drain the owner's SIM does). Real simulator, real
// Worker (workerd via wrangler dev), real protocol timings; the figures are the simulator's own
// counters (payload + WebSocket framing), scaled to an hour.
//
//   node bench/device-data-cost.ts [--minutes 16]
import { parseArgs } from "node:util";
import { ApiClient } from "../common/api-client.ts";
import { healthReadingResponseSchema, powerReadingResponseSchema } from "../common/api-responses/devices.ts";
import { localDeviceSocketUrl, simulateBox } from "../device-sim/simulated-device.ts";
import { FLEET_PASSWORD, provisionLocalFleet } from "../scripts/lib/local-devices.ts";
import { freePort, freshPersistDir, startLocalWorker, THROWAWAY_JWT_SECRET } from "../scripts/lib/local-worker.ts";
import { openPageSocket } from "./fleet.ts";

/** Per frame on the SIM beyond what the counters see (docs/device-protocol.md, "Data cost"). */
const TLS_RECORD_BYTES = 29; // TLS 1.2 AES-GCM: 5 header + 8 explicit nonce + 16 tag
const TCP_IP_BYTES = 52; // IPv4 20 + TCP 20 + timestamps 12
const ACK_PACKET_BYTES = 52; // the peer's bare ACK
/** The Refresh spammer's pace: a fresh power and a fresh health call, each back to back, this far apart. */
const REFRESH_SPAM_EVERY_MS = 250;

export type DataCost = {
  scenario: string;
  frames: number;
  measuredBytes: number;
  perHourMeasured: number;
  perHourOnTheWire: number;
  /** The Refresh spammer's calls, per hour (the other scenarios make none). */
  refreshCallsPerHour: number;
};

export async function measureDeviceDataCost(
  minutesToRun: number,
  log: (line: string) => void = console.log,
): Promise<DataCost[]> {
  // The production build (run `npm run build` first): its files do not change while we measure,
  // so wrangler never reloads the Worker and drops the sockets mid-measurement.
  const worker = await startLocalWorker({
    kind: "build",
    persistTo: await freshPersistDir(),
    port: await freePort(),
    jwtSecret: THROWAWAY_JWT_SECRET,
  });
  try {
    const fleet = await provisionLocalFleet(worker.persistTo, { count: 4, kind: "3phase", horsePower: 5 });
    const devices = fleet.map((credentials) => simulateBox(localDeviceSocketUrl(worker.port), credentials));
    for (const device of devices) device.start();
    await Promise.all(devices.map((device) => device.waitUntilConnected()));
    const tokens = await Promise.all(
      fleet.map(({ ownerMobileNo }) => new ApiClient(worker.url).logIn(ownerMobileNo, FLEET_PASSWORD)),
    );
    // Device 0 idles; devices 1, 2 and 3 run; someone watches devices 2 and 3 the whole time,
    // and on device 3 they also tap Refresh without pause (fresh power and health).
    for (const index of [1, 2, 3]) {
      await new ApiClient(worker.url, { token: tokens[index] }).switchMotor("on");
    }
    const watchers = await Promise.all(
      [2, 3].map(async (index) => {
        const watcher = openPageSocket(worker.port, fleet[index]!.ownerMobileNo, tokens[index]!);
        await new Promise((resolve) => watcher.once("open", resolve));
        return watcher;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // let the start settle
    const start = devices.map((device) => ({ ...device.counters }));
    log(`measuring for ${minutesToRun} minutes...`);
    const spammer = new ApiClient(worker.url, { token: tokens[3] });
    const spammed = fleet[3]!.ownerMobileNo;
    let refreshCalls = 0;
    const measuredUntil = Date.now() + minutesToRun * 60_000;
    const spam = async (what: "power" | "health") => {
      const schema = what === "power" ? powerReadingResponseSchema : healthReadingResponseSchema;
      while (Date.now() < measuredUntil) {
        // Refusals count too: what matters here is what reaches the box.
        await spammer.request("POST", `/api/devices/motor/${what}/${spammed}`, schema);
        refreshCalls++;
        await new Promise((resolve) => setTimeout(resolve, REFRESH_SPAM_EVERY_MS));
      }
    };
    await Promise.all([
      spam("power"),
      spam("health"),
      new Promise((resolve) => setTimeout(resolve, Math.max(0, measuredUntil - Date.now()))),
    ]);
    const scenarios = [
      "idle (relay off, nobody watching)",
      "running, nobody watching",
      "running, watched",
      "running, watched, Refresh spammed",
    ];
    const results = devices.map((device, index) => {
      const before = start[index]!;
      const frames =
        device.counters.framesSent - before.framesSent + device.counters.framesReceived - before.framesReceived;
      const measuredBytes =
        device.counters.bytesSent - before.bytesSent + device.counters.bytesReceived - before.bytesReceived;
      const perHour = (value: number) => Math.round((value * 60) / minutesToRun);
      return {
        scenario: scenarios[index]!,
        frames: perHour(frames),
        measuredBytes,
        perHourMeasured: perHour(measuredBytes),
        perHourOnTheWire: perHour(measuredBytes + frames * (TLS_RECORD_BYTES + TCP_IP_BYTES + ACK_PACKET_BYTES)),
        refreshCallsPerHour: index === 3 ? perHour(refreshCalls) : 0,
      };
    });
    for (const watcher of watchers) watcher.close();
    await Promise.all(devices.map((device) => device.stop()));
    return results;
  } finally {
    await worker.stop();
  }
}

/** MB a month at `runningHoursPerDay`, from per-hour figures. */
export function monthlyMegabytes(idlePerHour: number, runningPerHour: number, runningHoursPerDay = 4): number {
  const perDay = idlePerHour * (24 - runningHoursPerDay) + runningPerHour * runningHoursPerDay;
  return Math.round((perDay * 30) / 1e4) / 100;
}

if (import.meta.main) {
  // Parsed only when run on its own: bench/run.ts imports this module with options of its own.
  const { values } = parseArgs({ options: { minutes: { type: "string", default: "16" } } });
  const results = await measureDeviceDataCost(Number(values.minutes));
  console.table(results);
  const [idle, running, watched, spammed] = results;
  console.log(`Per month at 4 h running a day, on the wire (TLS and TCP/IP estimated):`);
  console.log(`  nobody watching:          ${monthlyMegabytes(idle!.perHourOnTheWire, running!.perHourOnTheWire)} MB`);
  console.log(`  watched whenever it runs: ${monthlyMegabytes(idle!.perHourOnTheWire, watched!.perHourOnTheWire)} MB`);
  console.log(`  Refresh spammed meanwhile: ${monthlyMegabytes(idle!.perHourOnTheWire, spammed!.perHourOnTheWire)} MB`);
}
