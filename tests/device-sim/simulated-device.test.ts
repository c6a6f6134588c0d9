// The simulator against a WebSocket server in this process that speaks the hub's side of
// the protocol and checks every frame with the shared schemas, as the real hub does.
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import {
  deviceMessageSchema,
  parseFrame,
  type DeviceMessage,
  type ServerToDeviceMessage,
} from "../../common/device-protocol.ts";
import { ratedCurrent, runningReading, wattageFor } from "../../device-sim/motor-model.ts";
import { SimulatedDevice } from "../../device-sim/simulated-device.ts";

type Hub = {
  url: string;
  connections: number;
  authorizations: string[];
  received: DeviceMessage[];
  /** Every text frame as it arrived, and every frame the hub sent. */
  rawIn: string[];
  rawOut: string[];
  socket: () => WebSocket;
  send: (message: ServerToDeviceMessage) => void;
  next: <T extends DeviceMessage["type"]>(type: T) => Promise<Extract<DeviceMessage, { type: T }>>;
  dropConnection: () => void;
  close: () => Promise<void>;
  refuseWith?: number;
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function startHub(options: { refuseWith?: number } = {}): Promise<Hub> {
  const server = new WebSocketServer({
    port: 0,
    verifyClient: (info, done) => {
      hub.authorizations.push(info.req.headers.authorization ?? "");
      if (options.refuseWith) done(false, options.refuseWith);
      else done(true);
    },
  });
  await new Promise((resolve) => server.once("listening", resolve));
  let current: WebSocket | null = null;
  const sendText = (text: string) => {
    hub.rawOut.push(text);
    current!.send(text);
  };
  const hub: Hub = {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/device/connect`,
    connections: 0,
    authorizations: [],
    received: [],
    rawIn: [],
    rawOut: [],
    socket: () => current!,
    send: (message) => sendText(JSON.stringify(message)),
    async next(type) {
      for (let waited = 0; waited < 5_000; waited += 20) {
        const index = hub.received.findIndex((message) => message.type === type);
        if (index !== -1) return hub.received.splice(index, 1)[0] as never;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no ${type}; got ${JSON.stringify(hub.received)}`);
    },
    dropConnection: () => current!.terminate(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  server.on("connection", (socket) => {
    current = socket;
    hub.connections++;
    socket.on("message", (data) => {
      const text = data.toString();
      hub.rawIn.push(text);
      if (text === "ping") {
        sendText("pong");
        return;
      }
      const parsed = parseFrame(deviceMessageSchema, text);
      if (!parsed.ok) throw new Error(`simulator sent an invalid frame: ${parsed.error}: ${text}`);
      hub.received.push(parsed.message);
      if (parsed.message.type === "hello") {
        sendText(JSON.stringify({ type: "welcome", protocol: 1, heartbeatSeconds: 1, watched: false }));
      }
    });
  });
  cleanups.push(async () => {
    for (const client of server.clients) client.terminate();
    await hub.close();
  });
  return hub;
}

function simulator(hub: Hub, overrides: Partial<ConstructorParameters<typeof SimulatedDevice>[0]> = {}) {
  const device = new SimulatedDevice({
    url: hub.url,
    deviceId: "SNC-TESTPUMP",
    key: "secret-key",
    kind: "3phase",
    horsePower: 5,
    reconnectBaseMs: 50,
    reconnectMaxMs: 200,
    ...overrides,
  });
  cleanups.unshift(() => device.stop());
  return device;
}

describe("SimulatedDevice", () => {
  it("connects with Basic device credentials and says hello with its relay state", async () => {
    const hub = await startHub();
    const device = simulator(hub);
    device.start();
    await device.waitUntilConnected();
    expect(hub.authorizations[0]).toBe(`Basic ${Buffer.from("SNC-TESTPUMP:secret-key").toString("base64")}`);
    expect(await hub.next("hello")).toMatchObject({ protocol: 1, kind: "3phase", relay: "off", firmware: "sim-1.0.0" });
  });

  it("acknowledges a switch command, switches its relay and reports a realistic current", async () => {
    const hub = await startHub();
    const device = simulator(hub);
    device.start();
    await device.waitUntilConnected();
    hub.send({ type: "switch", id: "cmd-1", relay: "on" });
    expect(await hub.next("ack")).toEqual({ type: "ack", id: "cmd-1", ok: true, relay: "on" });
    const reading = await hub.next("power");
    const rated = ratedCurrent("3phase", 5);
    expect(reading.current).toBeGreaterThan(rated * 0.97);
    expect(reading.current).toBeLessThan(rated * 1.03);
    expect(device.relay).toBe("on");

    hub.send({ type: "switch", id: "cmd-2", relay: "off" });
    expect(await hub.next("ack")).toEqual({ type: "ack", id: "cmd-2", ok: true, relay: "off" });
    expect(await hub.next("power")).toEqual({ type: "power", current: 0, wattage: 0 });
  });

  it("reports power every interval while watched, and stops when nobody watches", async () => {
    const hub = await startHub();
    const device = simulator(hub);
    device.start();
    await device.waitUntilConnected();
    hub.send({ type: "watch", watched: true, intervalSeconds: 1 });
    await hub.next("power"); // at once
    await hub.next("power"); // one interval later
    hub.send({ type: "watch", watched: false, intervalSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    hub.received.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(hub.received.filter((message) => message.type === "power")).toHaveLength(0);
  });

  it("sends heartbeats at the interval the hub asks for", async () => {
    const hub = await startHub();
    const device = simulator(hub);
    device.start();
    await device.waitUntilConnected();
    const before = device.counters.framesSent;
    await new Promise((resolve) => setTimeout(resolve, 1_150));
    expect(device.counters.framesSent).toBe(before + 1); // one "ping"
  });

  it("reconnects after the connection drops, says hello again and keeps its relay", async () => {
    const hub = await startHub();
    const device = simulator(hub);
    device.start();
    await device.waitUntilConnected();
    hub.send({ type: "switch", id: "cmd-1", relay: "on" });
    await hub.next("ack");
    await hub.next("hello");
    const reconnected = new Promise((resolve) => device.once("welcome", resolve));
    hub.dropConnection();
    await reconnected;
    expect(hub.connections).toBe(2);
    expect(await hub.next("hello")).toMatchObject({ relay: "on" });
  });

  it("backs off with jitter while the server refuses it", async () => {
    const hub = await startHub({ refuseWith: 401 });
    const device = simulator(hub, { reconnectBaseMs: 20, reconnectMaxMs: 100 });
    const refusals: number[] = [];
    device.on("refused", (status: number) => refusals.push(status));
    device.start();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(refusals.length).toBeGreaterThanOrEqual(3);
    expect(refusals.every((status) => status === 401)).toBe(true);
    // Delays are capped, so it keeps trying but never floods: at most one try per ~0 ms..100 ms.
    expect(refusals.length).toBeLessThan(600 / 5);
  });

  it("counts payload and framing bytes both ways", async () => {
    const hub = await startHub();
    const device = simulator(hub);
    device.start();
    await device.waitUntilConnected();
    await hub.next("hello");
    // Client frames: 2-byte header (+2 when the payload is 126 bytes or more) + 4-byte mask.
    const framing = (bytes: number, masked: boolean) => 2 + (bytes >= 126 ? 2 : 0) + (masked ? 4 : 0);
    const sent = hub.rawIn.reduce((total, text) => total + text.length + framing(text.length, true), 0);
    const received = hub.rawOut.reduce((total, text) => total + text.length + framing(text.length, false), 0);
    expect(device.counters).toEqual({ framesSent: 1, framesReceived: 1, bytesSent: sent, bytesReceived: received });
    expect(sent).toBeGreaterThan(100); // the hello is the big one
  });
});

describe("motor model", () => {
  it("follows the horsepower formula of SPEC §9 for 3-phase motors", () => {
    // HP = current × 718.78 × 0.58 / 746
    const current = ratedCurrent("3phase", 5);
    expect((current * 718.78 * 0.58) / 746).toBeCloseTo(5, 6);
  });

  it("draws more current at 230 V for the same power", () => {
    expect(ratedCurrent("1phase", 1)).toBeGreaterThan(ratedCurrent("3phase", 1) * 3);
    expect(wattageFor("1phase", 5)).toBeCloseTo(230 * 5 * 0.8);
  });

  it("adds at most ±2 % noise", () => {
    const rated = ratedCurrent("1phase", 2);
    expect(runningReading("1phase", 2, () => 0).current).toBeCloseTo(rated * 0.98, 1);
    expect(runningReading("1phase", 2, () => 1).current).toBeCloseTo(rated * 1.02, 1);
  });
});
