// One failure never takes the rest of the hub with it (durable-objects/device-hub.ts): a frame
// whose handling throws is logged and the next one is handled as usual; a timer whose handler
// throws is set again TIMER_RETRY_MS later, and the other timers of the same delivery, the due
// schedules and the log flush still run. The failures are made by replacing one room's method
// on the running hub for the moment.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TIMER_RETRY_MS } from "../../durable-objects/device-hub/alarm.ts";
import { BROWSER_TAG } from "../../durable-objects/device-hub/sockets.ts";
import { TIMERS } from "../../durable-objects/device-hub/timers.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { farmerWithBox } from "../worker/helpers/boxes.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";
import { browserWatching } from "../worker/helpers/sockets.ts";

type Rooms = { person: { personOfSocket: unknown }; link: { checkLiveness: unknown }; power: { prune: unknown } };
/** The running hub's rooms, which the class keeps to itself. */
const roomsOf = (hub: DeviceHub) => (hub as unknown as { rooms: Rooms }).rooms;

const switchOn = (requestId: string) => JSON.stringify({ type: "switchMotor", action: "on", requestId });

describe("error boundaries", () => {
  it("a frame whose handling throws is logged, and the next frame is handled", async () => {
    const { user, token, device, box } = await farmerWithBox({ autoAck: true });
    await browserWatching(user.mobileNo, { token });
    const outcome = await runInDurableObject(hubStub(device.deviceId), async (hub: DeviceHub, state) => {
      const [ws] = state.getWebSockets(BROWSER_TAG);
      const person = roomsOf(hub).person;
      const real = person.personOfSocket;
      person.personOfSocket = async () => {
        throw new Error("a room failed");
      };
      const first = await hub.webSocketMessage(ws!, switchOn("throws")).then(
        () => "handled",
        () => "threw out of webSocketMessage",
      );
      person.personOfSocket = real;
      await hub.webSocketMessage(ws!, switchOn("after"));
      return first;
    });
    expect(outcome).toBe("handled");
    expect(box.received.filter((message) => message.type === "switch")).toEqual([
      expect.objectContaining({ relay: "on" }),
    ]);
    box.close();
  });

  it("a timer that throws runs again later, and the others of the same delivery still run", async () => {
    const { device, box } = await farmerWithBox();
    const result = await runInDurableObject(hubStub(device.deviceId), async (hub: DeviceHub, state) => {
      const rooms = roomsOf(hub);
      let pruned = 0;
      rooms.link.checkLiveness = async () => {
        throw new Error("a timer failed");
      };
      rooms.power.prune = () => {
        pruned += 1;
      };
      const due = Date.now() - 1_000;
      for (const name of [TIMERS.liveness, TIMERS.prunePower])
        state.storage.sql.exec(
          "INSERT INTO timers (name, due_at) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET due_at = excluded.due_at",
          name,
          due,
        );
      const before = Date.now();
      const alarm = await hub.alarm().then(
        () => "handled",
        () => "threw out of alarm",
      );
      const liveness = state.storage.sql
        .exec<{ dueAt: number }>("SELECT due_at AS dueAt FROM timers WHERE name = ?", TIMERS.liveness)
        .toArray()[0]?.dueAt;
      return { alarm, pruned, livenessIn: (liveness ?? 0) - before };
    });
    expect(result.alarm).toBe("handled");
    expect(result.pruned).toBe(1);
    expect(result.livenessIn).toBeGreaterThanOrEqual(TIMER_RETRY_MS - 1_000);
    expect(result.livenessIn).toBeLessThanOrEqual(TIMER_RETRY_MS + 1_000);
    box.close();
  });
});
