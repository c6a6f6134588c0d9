// The simulator's theft and tamper frames against the fake hub, which checks each with the
// protocol's schemas (docs/device-protocol.md §7, "Theft and tamper"): the last frame of a cut
// supply, sent on the battery, and the enclosure's tamper switch, once per opening.
import { describe, expect, it } from "vitest";
import { boxOnFakeHub } from "./fake-hub.ts";

async function connectedBox(kind: "1phase" | "3phase") {
  const { hub: fakeHub, device } = await boxOnFakeHub({
    deviceId: "SNC-THEFTBOX",
    kind,
    horsePower: kind === "3phase" ? 5 : 1,
  });
  return { fakeHub, device };
}

describe("a cut supply's last frame", () => {
  it("says powerLost on the battery with every phase at 0 V and the relay OFF, while the motor ran", async () => {
    const { fakeHub, device } = await connectedBox("3phase");
    fakeHub.send({ type: "switch", id: "cmd-1", relay: "on" });
    expect(await fakeHub.next("ack")).toMatchObject({ ok: true, relay: "on" });
    device.inject("powerCut");
    expect(await fakeHub.next("event")).toEqual({
      type: "event",
      event: "powerLost",
      relay: "off",
      battery: true,
      voltages: [0, 0, 0],
    });
  });

  it("has one phase on a 1-phase box", async () => {
    const { fakeHub, device } = await connectedBox("1phase");
    device.inject("powerCut");
    expect(await fakeHub.next("event")).toMatchObject({ event: "powerLost", battery: true, voltages: [0] });
  });
});

describe("the enclosure's tamper switch", () => {
  it("reports an opening once, its closing, and the next opening again", async () => {
    const { fakeHub, device } = await connectedBox("3phase");
    device.inject("tamper");
    expect(await fakeHub.next("event")).toEqual({ type: "event", event: "tamper", relay: "off" });
    device.inject("tamper"); // still open: nothing new to say
    await fakeHub.expectNone("event", 300);
    device.inject("tamperClose");
    expect(await fakeHub.next("event")).toMatchObject({ event: "tamperOk" });
    device.inject("tamper");
    expect(await fakeHub.next("event")).toMatchObject({ event: "tamper" });
  });
});
