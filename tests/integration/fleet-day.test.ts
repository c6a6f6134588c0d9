// The fleet-day simulation (`npm run bench -- --only fleet-day`) at a small N against the real
// local Worker, as a check of behaviour, not of timing: the schedule minute starts every clock
// box's motor once, the feeder's return starts every box of the feeder once (its
// windows wait for supply), the API answers throughout, and D1 grows by what a day's events
// write, not more. The schedules fire at a whole minute of the clock, so it waits for the next
// one: one to two minutes in all. The power windows' random delay is off here (the bench waits it out).
import { describe, expect, it } from "vitest";
import { runFleetDay } from "../../bench/fleet-day.ts";
import { freshPersistDir } from "./local-worker.ts";

describe("a fleet's day, compressed, at a small N", () => {
  it("starts every scheduled motor once at the common minute and every feeder motor once after the return, and writes a bounded day, its log in the hubs", async () => {
    const day = await runFleetDay({
      boxes: 6,
      feederShare: 0.5,
      cutShare: 0,
      watcherShare: 0.5,
      // The hub's random delay (0–120 s) and the runs' own end are the bench's to wait for.
      randomDelay: false,
      waitForStops: false,
      kind: "api",
      persistTo: await freshPersistDir(),
      log: () => {},
    });
    // Three on the feeder, three on the clock: each motor started exactly once.
    expect(day.feederBoxes).toBe(3);
    expect(day.feederStarts).toHaveLength(3);
    expect(day.motorStarts).toBe(6);
    // The feeder's windows opened without supply: none started before its return.
    for (const seconds of day.feederStarts) expect(seconds).toBeGreaterThanOrEqual(0);
    expect(day.apiErrors).toBe(0);
    expect(day.apiDuringBursts.scheduleMinute.length).toBeGreaterThan(0);
    expect(day.apiDuringBursts.feederReturn.length).toBeGreaterThan(0);
    // The day's log: a few entries per box (a start, a stop, the feeder's supply lost and back),
    // in the boxes' hubs; D1 gets no motor log, and no table writes more than its events.
    expect(day.hubLog.rowsWritten).toBeGreaterThanOrEqual(6);
    expect(day.hubLog.rowsWritten).toBeLessThanOrEqual(6 * 6);
    expect(day.tables.find((table) => table.table === "motor_logs")).toBeUndefined();
    for (const table of day.tables) expect(table.rowsWritten, table.table).toBeLessThanOrEqual(6 * 6);
  });
});
