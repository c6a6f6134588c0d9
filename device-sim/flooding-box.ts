// A box whose firmware has gone wrong: once welcomed it streams power readings as fast as its
// socket takes them. The hub must cut it off after its burst (docs/security.md, "Caps"); the
// integration test checks that it does, and the benchmark times everybody else meanwhile.
import WebSocket from "ws";
import { DEVICE_PROTOCOL_VERSION, type DeviceKind } from "../common/device-protocol.ts";
import { boxAuthorization } from "./box-authorization.ts";

export type FloodingBox = {
  socket: WebSocket;
  /** Every frame the hub sent it, as text. */
  messages: string[];
  /** The close code the hub ended its socket with. */
  closed: Promise<number>;
  /** That close code, or null if the socket is still open after `ms`. */
  closedWithin: (ms: number) => Promise<number | null>;
  /** Sends up to `frames` readings, stopping when the socket closes; resolves with how many went. */
  flood: (frames: number) => Promise<number>;
};

export async function connectFloodingBox(url: string, deviceId: string, key: string, kind: DeviceKind) {
  const socket = new WebSocket(url, { headers: { Authorization: boxAuthorization(deviceId, key) } });
  const messages: string[] = [];
  socket.on("message", (data) => messages.push(data.toString()));
  const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  const welcome = new Promise((resolve) => socket.once("message", resolve));
  socket.send(
    JSON.stringify({ type: "hello", protocol: DEVICE_PROTOCOL_VERSION, firmware: "flood-1", kind, relay: "off" }),
  );
  await welcome;
  const flood = async (frames: number) => {
    let sent = 0;
    for (let index = 0; index < frames && socket.readyState === WebSocket.OPEN; index++) {
      socket.send(JSON.stringify({ type: "power", current: 5 + (index % 10) / 10, wattage: 3_000 }));
      sent++;
      // Let the socket drain now and then, as a box's TCP stack would: a stream, not one write.
      if (index % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
    }
    return sent;
  };
  const closedWithin = async (ms: number) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), ms);
    });
    try {
      return await Promise.race([closed, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  return { socket, messages, closed, closedWithin, flood } satisfies FloodingBox;
}
