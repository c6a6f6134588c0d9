// Command round trip: POST /api/devices/motor → Worker → DeviceHub → simulated box's ack →
// answer, one command at a time, each to a different box (the 10 s cooldown is per box).
import { logInFarmers, startFleet } from "./fleet.ts";

export async function measureCommandRoundTrip(commands: number): Promise<{ roundTrips: number[]; errors: number }> {
  const fleet = await startFleet(commands);
  try {
    const tokens = await logInFarmers(fleet.worker, fleet.mobileNos);
    const roundTrips: number[] = [];
    let errors = 0;
    for (const token of tokens) {
      const started = performance.now();
      const response = await fetch(`${fleet.worker.url}/api/devices/motor`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ action: "on" }),
      });
      await response.arrayBuffer();
      roundTrips.push(performance.now() - started);
      if (!response.ok) errors++;
    }
    return { roundTrips, errors };
  } finally {
    await fleet.stop();
  }
}
