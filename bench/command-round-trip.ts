// Command round trip: POST /api/devices/motor → Worker → DeviceHub → simulated box's ack →
// answer, one command at a time, each to a different box (the 10 s cooldown is per box).
import { logInFarmers, startFleet } from "./fleet.ts";

export async function measureCommandRoundTrip(commands: number): Promise<{ roundTrips: number[]; httpFloor: number[]; errors: number }> {
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
    // A second floor: an HTTP call through the same local stack that does nothing (an unknown
    // route: no D1, no hub). The command pays this before any work of its own.
    const httpFloor: number[] = [];
    for (let index = 0; index < commands; index++) {
      const started = performance.now();
      await (await fetch(`${fleet.worker.url}/api/no-such-route`)).arrayBuffer();
      httpFloor.push(performance.now() - started);
    }
    return { roundTrips, httpFloor, errors };
  } finally {
    await fleet.stop();
  }
}
