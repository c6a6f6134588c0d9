// A flooding box and everybody else: one box streams 3,000 power readings while another farmer
// asks for their own pump's status in a loop, against the same calls on a quiet Worker. Locally
// every hub and D1 share one workerd thread, which is what a flood could take from the others;
// the frame-rate cap cuts the box off after its burst (docs/security.md, "Caps").
import { ApiClient } from "../common/api-client.ts";
import { connectFloodingBox } from "../device-sim/flooding-box.ts";
import { localDeviceSocketUrl } from "../device-sim/simulated-device.ts";
import { logInFarmers, startFleet } from "./fleet.ts";

export async function measureDeviceFlood(
  frames: number,
): Promise<{ quiet: number[]; during: number[]; sent: number; closeCode: number | null }> {
  const fleet = await startFleet(2);
  try {
    const [otherToken] = await logInFarmers(fleet.worker, fleet.mobileNos.slice(1));
    const other = new ApiClient(fleet.worker.url, { token: otherToken });
    const timedStatus = async () => {
      const started = performance.now();
      await other.motorStatus(fleet.mobileNos[1]!);
      return performance.now() - started;
    };
    // The first box's simulator makes way for firmware gone wrong on the same credentials.
    await fleet.devices[0]!.stop();
    const { deviceId, key } = fleet.credentials[0]!;
    const flooder = await connectFloodingBox(localDeviceSocketUrl(fleet.worker.port), deviceId, key, "3phase");

    await timedStatus(); // warm
    const quiet: number[] = [];
    for (const until = Date.now() + 1_500; Date.now() < until; ) quiet.push(await timedStatus());
    const flood = flooder.flood(frames);
    const during: number[] = [];
    for (const until = Date.now() + 4_000; Date.now() < until; ) during.push(await timedStatus());
    const sent = await flood;
    const closeCode = await flooder.closedWithin(30_000);
    return { quiet, during, sent, closeCode };
  } finally {
    await fleet.stop();
  }
}
