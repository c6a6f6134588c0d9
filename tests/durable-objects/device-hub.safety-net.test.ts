// The hub's safety net: a motor whose readings breach a protection limit for longer than
// the box should ever allow is switched off by the hub itself.
import { describe, expect, it } from "vitest";
import { hubStub } from "../worker/helpers/hub-state.ts";
import { ageRun, runningMotor } from "./safety-net-support.ts";

describe("DeviceHub safety net", () => {
  it("switches off an overcurrent the box did not stop, logs it and tells the browsers", async () => {
    const { device, box, browser } = await runningMotor();
    await ageRun(device.deviceId, null);
    box.send({ type: "power", current: 2.5, wattage: 1400 }); // first breaching reading
    await box.expectNone("switch", 200);
    await ageRun(device.deviceId, "overCurrent");
    box.send({ type: "power", current: 2.6, wattage: 1450 }); // still breaching, long after
    expect(await box.next("switch")).toMatchObject({ relay: "off" });
    await browser.next("overCurrentDetected");
    const snapshot = await hubStub(device.deviceId).getSnapshot();
    expect(snapshot.motorStatus).toBe("off");
    expect(snapshot.lastLogs[0]?.logMessage).toBe(
      "Motor turned OFF by the server: overcurrent that the box did not stop.",
    );
  });

  it("switches off a dry run the box did not stop", async () => {
    const { device, box, browser } = await runningMotor();
    await ageRun(device.deviceId, "dryRun");
    // Below the 0.7 A dry-run limit but turning (next to no current is "no current", not a dry run).
    box.send({ type: "power", current: 0.5, wattage: 250 });
    expect(await box.next("switch")).toMatchObject({ relay: "off" });
    await browser.next("dryRunDetected");
  });

  it("leaves the inrush of a start alone", async () => {
    const { box } = await runningMotor();
    box.send({ type: "power", current: 6.5, wattage: 3600 }); // within the start-up grace
    box.send({ type: "power", current: 6.0, wattage: 3300 });
    await box.expectNone("switch", 300);
  });

  it("forgets a breach when a healthy reading comes", async () => {
    const { device, box } = await runningMotor();
    await ageRun(device.deviceId, "overCurrent");
    box.send({ type: "power", current: 1.0, wattage: 575 }); // healthy
    box.send({ type: "power", current: 2.5, wattage: 1400 }); // a new breach starts now
    await box.expectNone("switch", 300);
    expect((await hubStub(device.deviceId).getSnapshot()).motorStatus).toBe("on");
  });
});
