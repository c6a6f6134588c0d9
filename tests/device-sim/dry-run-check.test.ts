// Commissioning's dry-run check in the simulator (docs/device-protocol.md §12), against the
// in-process fake hub: the box's own dry-run protection, with the limit of the settings it
// holds, stops a pump running dry (a closed valve: the `dryRun` fault, 45 % of its current) and
// says so; a pump still pumping runs its seconds without a trip; a box with broken protection
// never reports a trip; the motor is stopped at the end in every case, by an OFF at once, and
// no power or event frame is sent on the way.
import { describe, expect, it } from "vitest";
import { protectionLimits } from "../../common/protection.ts";
import { ratedCurrent } from "../../device-sim/motor-model.ts";
import { boxOnFakeHub, expectAnOffToEndRun, type FakeHub } from "./fake-hub.ts";

/** A 5 HP motor (about 9 A) whose box holds 9 A and 30 %: it trips below 6.3 A. Short grace and sustain times. */
function connectedBox() {
  return boxOnFakeHub({ protectionGraceMs: 1_000, protectionSustainMs: 1_000 });
}

async function dryRunCheck(hub: FakeHub, seconds: number) {
  hub.send({ type: "dryRunCheck", id: "check-1", seconds });
  return hub.next("dryRunCheckResult", seconds * 1000 + 3_000);
}

const TRIP_BELOW = protectionLimits({ defaultCurrent: 9, dryRunThreshold: 30, overCurrentThreshold: 30 }).dryRunBelow;

describe("a commissioning dry-run check", () => {
  it("trips on a pump running dry, with the current that tripped it and the limit of the box's settings", async () => {
    const { hub, device } = await connectedBox();
    hub.send({ type: "watch", watched: true, intervalSeconds: 1 });
    await hub.next("power");
    // The installer closes the valve: the pump loses its load.
    device.inject("dryRun");
    const result = await dryRunCheck(hub, 15);
    expect(result).toMatchObject({ id: "check-1", ok: true, relay: "off", tripped: true });
    expect(result.tripBelow).toBeCloseTo(TRIP_BELOW, 2);
    expect(result.current!).toBeLessThan(TRIP_BELOW);
    expect(result.current!).toBeGreaterThan(0.3 * ratedCurrent("3phase", 5));
    // The trip ended it long before the seconds were up.
    expect(result.ranSeconds!).toBeLessThan(10);
    expect(device.relay).toBe("off");
    const onTheWay = hub.received.filter(
      (message) => (message.type === "power" && message.current > 0) || message.type === "event",
    );
    expect(onTheWay).toEqual([]);
  });

  it("runs its seconds without a trip on a pump still pumping, then stops the motor", async () => {
    const { hub, device } = await connectedBox();
    const result = await dryRunCheck(hub, 15);
    expect(result).toMatchObject({ ok: true, relay: "off", tripped: false });
    expect(result.current!).toBeGreaterThan(TRIP_BELOW);
    expect(result.ranSeconds!).toBeGreaterThanOrEqual(15);
    expect(device.relay).toBe("off");
  });

  it("never reports a trip from a box whose protection is broken", async () => {
    const { hub, device } = await connectedBox();
    device.inject("ignoreProtection");
    device.inject("dryRun");
    const result = await dryRunCheck(hub, 15);
    expect(result).toMatchObject({ ok: true, relay: "off", tripped: false });
    // What it measured says why it should have.
    expect(result.current!).toBeLessThan(TRIP_BELOW);
  });

  it("ends at once on an OFF, not ok, and does not start without every phase", async () => {
    const { hub, device } = await connectedBox();
    await expectAnOffToEndRun(hub, device, { type: "dryRunCheck", id: "check-2" });

    device.inject("phaseLoss");
    await hub.next("event");
    const refused = await dryRunCheck(hub, 15);
    expect(refused).toMatchObject({ ok: false, relay: "off", error: "A phase is missing" });
    expect(refused.tripped).toBeUndefined();
  });
});
