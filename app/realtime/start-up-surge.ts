// A motor draws several times its running current for the first seconds after it starts (53 A
// on a 5 HP motor rated 8.9 A). The hub does not judge protection then (its start-up grace);
// the pages do not show such a reading as the running current either, but as the start-up
// surge. Pure, tested in Node (tests/app/start-up-surge.test.ts).
import { PROTECTION_STARTUP_GRACE_MS } from "../../common/protection.ts";
import type { PumpState } from "../../common/pump-state.ts";

/**
 * Whether the reading the page shows belongs to the start: the motor is ON and either the hub's
 * start-up grace is still running (`now`, the hub's clock: a reading can reach the page a moment
 * before the state that dates it) or the reading was taken within it. While ON, `statusSince`
 * is when the run began, which is where the hub counts its grace from.
 */
export function showsStartUpSurge(pump: PumpState, now: number): boolean {
  // A run the hub credited from its current (an ON whose answer was lost) was proven by a reading
  // at least the ack's 5 s after the tap: the surge (about 1.5 s) is over, the reading is running.
  if (pump.status !== "on" || pump.statusSource === "currentAfterCommand") return false;
  const graceEnds = pump.statusSince + PROTECTION_STARTUP_GRACE_MS;
  if (now < graceEnds) return true;
  return pump.powerDataAt !== null && pump.powerDataAt >= pump.statusSince && pump.powerDataAt < graceEnds;
}
