// A socket the hub closed acts no more (durable-objects/device-hub/sockets.ts, `close`): the
// runtime keeps handing the hub frames from a peer that ignores the close frame, so the real
// hub is given a `switchMotor` request on each socket right after it closed it, before any
// answer to the close could arrive, for every way the hub closes a browser socket. The box
// hears nothing, nothing is answered, and the close is written into the socket's attachment,
// which is what survives hibernation. The same attack over a real TCP connection that never
// answers the close is tests/integration/closed-sockets.test.ts.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BROWSER_CLOSE, DEVICE_CLOSE, FRAME_TOO_BIG_CLOSE } from "../../common/hub-contract.ts";
import { BROWSER_REQUEST_BURST, MAX_BROWSER_FRAME_BYTES } from "../../common/realtime-protocol.ts";
import { attachmentOf, BROWSER_TAG } from "../../durable-objects/device-hub/sockets.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { farmerWithBox } from "../worker/helpers/boxes.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";
import { browserWatching } from "../worker/helpers/sockets.ts";

const switchOn = (requestId: string) => JSON.stringify({ type: "switchMotor", action: "on", requestId });

/** How the hub closes a tab, run inside the hub on its one browser socket. */
const CLOSES: { name: string; code: number; close: (hub: DeviceHub, ws: WebSocket) => Promise<unknown> }[] = [
  {
    name: "its session ended (logout, password change)",
    code: BROWSER_CLOSE.signedOut,
    close: (hub, ws) => hub.closeViewerSockets({ sessionIds: [sessionOf(ws)] }, "signedOut"),
  },
  {
    name: "the account lost access",
    code: BROWSER_CLOSE.accessRemoved,
    close: (hub, ws) => hub.closeViewerSockets({ userId: viewerOf(ws) }, "accessRemoved"),
  },
  {
    name: "a flood of requests",
    code: DEVICE_CLOSE.tooManyFrames,
    close: async (hub, ws) => {
      for (let index = 0; index <= BROWSER_REQUEST_BURST; index++)
        await hub.webSocketMessage(
          ws,
          JSON.stringify({ type: "switchMotor", action: "sideways", requestId: `f${index}` }),
        );
    },
  },
  {
    name: "an oversized frame",
    code: FRAME_TOO_BIG_CLOSE,
    close: (hub, ws) => hub.webSocketMessage(ws, "x".repeat(MAX_BROWSER_FRAME_BYTES + 1)),
  },
];

function sessionOf(ws: WebSocket): string {
  const attachment = attachmentOf(ws);
  return attachment?.role === "browser" ? attachment.sessionId : "";
}

function viewerOf(ws: WebSocket): number {
  const attachment = attachmentOf(ws);
  return attachment?.role === "browser" ? attachment.viewerId : -1;
}

describe("a frame on a socket the hub closed", () => {
  for (const { name, code, close } of CLOSES) {
    it(`is dropped when the hub closed it for ${name} (${code}), and the close is in its attachment`, async () => {
      const { user, token, device, box } = await farmerWithBox({ autoAck: true });
      const tab = await browserWatching(user.mobileNo, { token });
      const marked = await runInDurableObject(hubStub(device.deviceId), async (hub: DeviceHub, state) => {
        const [ws] = state.getWebSockets(BROWSER_TAG);
        await close(hub, ws!);
        // The peer has not answered the close: its frames still reach the hub.
        await hub.webSocketMessage(ws!, switchOn("after-close"));
        return attachmentOf(ws!)?.closedWith;
      });
      expect(marked).toBe(code);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(box.received.filter((message) => message.type === "switch")).toEqual([]);
      expect(tab.raw.some((frame) => frame.includes('"commandResult"') && frame.includes("after-close"))).toBe(false);
      box.close();
    });
  }

  it("from a tab still open is acted on: the check drops only what the hub closed", async () => {
    const { user, token, device, box } = await farmerWithBox({ autoAck: true });
    await browserWatching(user.mobileNo, { token });
    await runInDurableObject(hubStub(device.deviceId), async (hub: DeviceHub, state) => {
      const [ws] = state.getWebSockets(BROWSER_TAG);
      await hub.webSocketMessage(ws!, switchOn("open"));
    });
    expect(box.received.filter((message) => message.type === "switch")).toEqual([
      expect.objectContaining({ relay: "on" }),
    ]);
    box.close();
  });
});
