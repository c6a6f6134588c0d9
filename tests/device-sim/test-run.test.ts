// Commissioning's test run in the simulator (docs/device-protocol.md, "Commissioning"), against
// the in-process fake hub: every phase checked before the start, the surge left out of the
// running current, the motor stopped at the end or by an OFF, no power frames on the way; and
// the settings suggested from the measurement within 5 % of the simulated motor's.
import { describe, expect, it } from "vitest";
import { suggestSettings } from "../../common/commissioning.ts";
import { ratedCurrent } from "../../device-sim/motor-model.ts";
import { boxOnFakeHub, expectAnOffToEndRun, type FakeHub } from "./fake-hub.ts";

function within5Percent(actual: number, expected: number) {
  expect(Math.abs(actual - expected) / expected).toBeLessThanOrEqual(0.05);
}

async function testRun(hub: FakeHub, seconds: number) {
  hub.send({ type: "testRun", id: "run-1", seconds });
  return hub.next("testRunResult", seconds * 1000 + 3_000);
}

describe("a commissioning test run", () => {
  it("measures the running current past the surge, stops the motor, and sends no power frames meanwhile", async () => {
    const { hub, device } = await boxOnFakeHub({ kind: "3phase", horsePower: 7.5 });
    hub.send({ type: "watch", watched: true, intervalSeconds: 1 });
    await hub.next("power");
    const result = await testRun(hub, 3);
    expect(result).toMatchObject({ id: "run-1", ok: true, relay: "off" });
    expect(result.voltages).toHaveLength(3);
    for (const volts of result.voltages) within5Percent(volts, 415);
    const rated = ratedCurrent("3phase", 7.5);
    within5Percent(result.runningCurrent!, rated);
    // The surge is several times the running current and never part of it.
    expect(result.surgeCurrent!).toBeGreaterThan(3 * rated);
    expect(result.ranSeconds!).toBeGreaterThanOrEqual(3);
    expect(device.relay).toBe("off");
    expect(hub.received.filter((message) => message.type === "power" && message.current > 0)).toEqual([]);
  });

  it("suggests a rated current, thresholds and horsepower within 5 % of the simulated motor's", async () => {
    for (const [kind, horsePower] of [
      ["3phase", 5],
      ["1phase", 1],
    ] as const) {
      const { hub } = await boxOnFakeHub({ kind, horsePower });
      const result = await testRun(hub, 3);
      const suggested = suggestSettings(kind, result.runningCurrent!);
      within5Percent(suggested.defaultCurrent, ratedCurrent(kind, horsePower));
      within5Percent(suggested.horsePower, horsePower);
      expect(suggested).toMatchObject({ dryRunThreshold: 30, overCurrentThreshold: 30 });
    }
  });

  it("does not start without every phase, and says why", async () => {
    const { hub, device } = await boxOnFakeHub({ kind: "3phase", horsePower: 5 });
    device.inject("phaseLoss");
    await hub.next("event");
    const result = await testRun(hub, 3);
    expect(result).toMatchObject({ ok: false, relay: "off", error: "A phase is missing" });
    expect(result.voltages).toContain(0);
    expect(result.runningCurrent).toBeUndefined();
  });

  it("ends at once on an OFF, not ok", async () => {
    const { hub, device } = await boxOnFakeHub({ kind: "3phase", horsePower: 5 });
    await expectAnOffToEndRun(hub, device, { type: "testRun", id: "run-2" });
  });
});
