// The start-up surge is labelled, not shown as the running reading: during the hub's start-up
// grace, and afterwards for as long as the reading shown was taken within it.
import { describe, expect, it } from "vitest";
import { showsStartUpSurge } from "../../app/realtime/start-up-surge.ts";
import { PROTECTION_STARTUP_GRACE_MS } from "../../common/protection.ts";
import type { PumpState } from "../../common/pump-state.ts";

const STARTED = 100_000;
const GRACE_ENDS = STARTED + PROTECTION_STARTUP_GRACE_MS;

const running: PumpState = {
  status: "on",
  statusSince: STARTED,
  statusSource: "ack",
  deviceStatus: "online",
  lastSeenAt: STARTED,
  pendingCommand: null,
  cooldownUntil: STARTED + 10_000,
  faults: [],
  powerDataAt: STARTED + 500,
  stopsAt: null,
  startedBy: null,
  at: STARTED + 500,
};

describe("the start-up surge", () => {
  it("is the reading shown during the hub's grace, even one the page has not got the time of yet", () => {
    expect(showsStartUpSurge(running, STARTED + 1_000)).toBe(true);
    // The reading reached the page before the state that dates it: it still shows the OFF's time.
    expect(showsStartUpSurge({ ...running, powerDataAt: STARTED - 60_000 }, STARTED + 1_000)).toBe(true);
  });

  it("stays labelled after the grace while no later reading came, and goes with the first one after it", () => {
    expect(showsStartUpSurge(running, GRACE_ENDS + 5_000)).toBe(true);
    expect(showsStartUpSurge({ ...running, powerDataAt: GRACE_ENDS - 1 }, GRACE_ENDS + 5_000)).toBe(true);
    expect(showsStartUpSurge({ ...running, powerDataAt: GRACE_ENDS }, GRACE_ENDS + 5_000)).toBe(false);
  });

  it("is never a reading from before the run once the grace is over, nor one of a motor that is not ON", () => {
    expect(showsStartUpSurge({ ...running, powerDataAt: STARTED - 1 }, GRACE_ENDS + 1)).toBe(false);
    expect(showsStartUpSurge({ ...running, powerDataAt: null }, GRACE_ENDS + 1)).toBe(false);
    for (const status of ["off", "unknown"] as const)
      expect(showsStartUpSurge({ ...running, status }, STARTED + 1_000)).toBe(false);
  });

  it("is never the reading of a run the hub credited from its current (an ON whose answer was lost): that reading is the running one", () => {
    const credited = { ...running, statusSource: "currentAfterCommand" as const, powerDataAt: STARTED + 6_000 };
    expect(showsStartUpSurge(credited, STARTED + 6_500)).toBe(false);
    expect(showsStartUpSurge(credited, GRACE_ENDS + 5_000)).toBe(false);
  });
});
