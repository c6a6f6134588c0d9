// Command round trip: POST /api/devices/motor → Worker → DeviceHub → simulated box's ack →
// answer, one command at a time, each to a different box (the 10 s cooldown is per box).
import { echoRoundTrips, startEchoWorker } from "./lib.ts";
import { logInFarmers, startFleet } from "./fleet.ts";

export async function measureCommandRoundTrip(commands: number): Promise<{ roundTrips: number[]; floor: number[]; errors: number }> {
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
    const echo = await startEchoWorker();
    try {
      return { roundTrips, floor: await echoRoundTrips(echo.url, commands), errors };
    } finally {
      echo.stop();
    }
  } finally {
    await fleet.stop();
  }
}
