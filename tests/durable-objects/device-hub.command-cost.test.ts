// What a person's switch costs the hub, as its own stats say (durable-objects/device-hub/
// command-meter.ts, `lastCommand`): each step's storage writes, bytes and frames, counted. Times
// are kept too, but never asserted (the runtime's clock moves only on I/O, and this machine is
// shared).
import { describe, expect, it } from "vitest";
import { COMMAND_STEPS, type CommandCost } from "../../common/hub-contract.ts";
import { farmerWithBox } from "../worker/helpers/boxes.ts";
import { postJson } from "../worker/helpers/http.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";
import { browserWatching } from "../worker/helpers/sockets.ts";

const counted = (cost: CommandCost | null) =>
  Object.fromEntries(Object.entries(cost?.steps ?? {}).map(([step, { writes, frames }]) => [step, { writes, frames }]));

describe("the cost of a switch, step by step", () => {
  it("over the page's socket: the cooldown and the pending command stored before the switch leaves, in a few bytes", async () => {
    const { user, token, box, device } = await farmerWithBox({ autoAck: true });
    const tab = await browserWatching(user.mobileNo, { token });
    tab.sendRaw(JSON.stringify({ type: "switchMotor", requestId: "r1", action: "on" }));
    expect((await tab.next("commandResult")).result).toEqual({ ok: true, status: "on" });

    const cost = (await hubStub(device.deviceId).hubStats()).lastCommand;
    // In the order the hub takes them: nothing leaves for the box before its state is written.
    // The steps as the hub recorded them, in the order it took them: the documented order.
    expect(Object.keys(cost?.steps ?? {})).toEqual([...COMMAND_STEPS]);
    expect(counted(cost)).toMatchObject({
      parse: { writes: 0, frames: 0 },
      checks: { writes: 0, frames: 0 },
      // The cooldown and the pending command, and only they.
      stateWrite: { writes: 2, frames: 0 },
      // "switching" before the switch; the new status and the new state after the ack.
      broadcasts: { writes: 0, frames: 3 },
      switchFrame: { writes: 0, frames: 1 },
      outbox: { writes: 2, frames: 1 },
      answer: { writes: 0, frames: 1 },
    });
    // Only what changed is written: the whole state (about a kilobyte) is never serialised again.
    expect(cost!.steps.stateWrite!.bytes).toBeLessThan(300);
    expect(cost!.total.bytes).toBeLessThan(1_500);
    expect(cost!.total.frames).toBe(6);
    for (const peer of [tab, box]) peer.close();
  });

  it("over HTTP: the same steps but the parse (the Worker's), and a refusal costs no write", async () => {
    const { token, box, device } = await farmerWithBox({ autoAck: true });
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    const switched = (await hubStub(device.deviceId).hubStats()).lastCommand;
    expect(Object.keys(switched?.steps ?? {})).toEqual(COMMAND_STEPS.filter((step) => step !== "parse"));
    expect(counted(switched).stateWrite).toEqual({ writes: 2, frames: 0 });

    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(429); // the cooldown
    const refused = (await hubStub(device.deviceId).hubStats()).lastCommand;
    expect(refused?.total).toMatchObject({ writes: 0, frames: 0 });
    box.close();
  });
});
