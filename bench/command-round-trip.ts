// Command round trip: POST /api/devices/motor → Worker → DeviceHub → simulated box's ack →
// answer, one command at a time, each to a different box (the 10 s cooldown is per box).
import { ApiClient } from "../common/api-client.ts";
import { apiErrorSchema } from "../common/api-responses/refusals.ts";
import { logInFarmers, startFleet } from "./fleet.ts";

export async function measureCommandRoundTrip(
  commands: number,
): Promise<{ roundTrips: number[]; httpFloor: number[]; errors: number }> {
  const fleet = await startFleet(commands);
  try {
    const tokens = await logInFarmers(fleet.worker, fleet.mobileNos);
    const roundTrips: number[] = [];
    let errors = 0;
    // Both measurements read and parse their answer as any client of ours would (tens of
    // microseconds, against milliseconds of round trip).
    for (const token of tokens) {
      const farmer = new ApiClient(fleet.worker.url, { token });
      const started = performance.now();
      const answer = await farmer.switchMotor("on");
      roundTrips.push(performance.now() - started);
      if (!answer.ok) errors++;
    }
    // A second floor: an HTTP call through the same local stack that does nothing (an unknown
    // route: no D1, no hub, just its refusal). The command pays this before any work of its own.
    const httpFloor: number[] = [];
    const anonymous = new ApiClient(fleet.worker.url);
    for (let index = 0; index < commands; index++) {
      const started = performance.now();
      await anonymous.request("GET", "/api/no-such-route", apiErrorSchema);
      httpFloor.push(performance.now() - started);
    }
    return { roundTrips, httpFloor, errors };
  } finally {
    await fleet.stop();
  }
}
