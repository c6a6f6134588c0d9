// Power history (durable-objects/device-hub/power-history.ts) driven directly: readings are kept
// only while the motor runs, at most one a minute, and the daily pruning keeps a week.
import { describe, expect, it } from "vitest";
import { POWER_HISTORY_RETENTION_MS, PowerSamplesTable } from "../../durable-objects/device-hub/power-samples-table.ts";
import { TIMERS } from "../../durable-objects/device-hub/timers.ts";
import { withRooms } from "./room-support.ts";

const NOW = Date.now();
const reading = (current: number) => ({ current, wattage: current * 575 });

describe("power history", () => {
  it("keeps readings only while the motor runs, one a minute, and arms the daily pruning once", async () => {
    const { history, prune } = await withRooms(({ hub, power }) => {
      power.onReading(reading(0), NOW - 120_000); // OFF: nothing kept
      hub.state.save({ motor: { status: "on", since: NOW - 100_000, source: "ack" } });
      power.onReading(reading(8.9), NOW - 90_000);
      const prune = hub.timers.dueAt(TIMERS.prunePower);
      power.onReading(reading(9.1), NOW - 60_000); // within the minute: skipped
      power.onReading(reading(9.3), NOW - 30_000);
      return { history: power.history(10), prune: { first: prune, after: hub.timers.dueAt(TIMERS.prunePower) } };
    });
    expect(history.map((sample) => sample.current)).toEqual([9.3, 8.9]);
    expect(prune.first).toBeGreaterThan(NOW);
    expect(prune.after).toBe(prune.first);
  });

  it("pruning drops what is older than a week, and re-arms only while the motor runs", async () => {
    const { history, rearmed, notRearmed } = await withRooms(({ hub, power }, state) => {
      const samples = new PowerSamplesTable(state.storage.sql);
      samples.sample(NOW - POWER_HISTORY_RETENTION_MS - 1_000, 9, 5_000, true);
      samples.sample(NOW - 1_000, 8, 4_600, true);
      hub.state.save({ motor: { status: "on", since: NOW - 100_000, source: "ack" } });
      power.prune(NOW);
      const rearmed = hub.timers.dueAt(TIMERS.prunePower);
      hub.timers.delete(TIMERS.prunePower);
      hub.state.save({ motor: { status: "off", since: NOW, source: "ack" } });
      power.prune(NOW);
      return { history: power.history(10), rearmed, notRearmed: hub.timers.dueAt(TIMERS.prunePower) };
    });
    expect(history.map((sample) => sample.current)).toEqual([8]);
    expect(rearmed).toBeGreaterThan(NOW);
    expect(notRearmed).toBeNull();
  });
});
