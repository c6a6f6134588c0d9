// The hub's side of the device protocol, in this process: a WebSocket server that checks every
// frame the simulator sends with the shared schema, as the real hub does.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, onTestFinished } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import {
  type DeviceConfig,
  type DeviceMessage,
  deviceMessageSchema,
  parseFrame,
  type ServerToDeviceMessage,
} from "../../common/device-protocol.ts";
import { SimulatedDevice, type SimulatedDeviceOptions } from "../../device-sim/simulated-device.ts";

export type FakeHub = {
  url: string;
  connections: number;
  authorizations: string[];
  received: DeviceMessage[];
  rawIn: string[];
  rawOut: string[];
  config: DeviceConfig;
  /** What the next welcome tells the box about heartbeats. */
  heartbeatSeconds: number;
  send: (message: ServerToDeviceMessage) => void;
  next: <T extends DeviceMessage["type"]>(type: T, timeoutMs?: number) => Promise<Extract<DeviceMessage, { type: T }>>;
  expectNone: (type: DeviceMessage["type"], ms: number) => Promise<void>;
  /**
   * Forgets what came so far, then waits for a stretch of `ms` with no message of `type` (a
   * motor's start-up surge fades slower on a busy machine); fails if none comes within `withinMs`.
   */
  untilQuiet: (type: DeviceMessage["type"], ms: number, withinMs: number) => Promise<void>;
  dropConnection: () => void;
  close: () => Promise<void>;
};

export async function startFakeHub(options: { refuseWith?: number } = {}): Promise<FakeHub> {
  let current: WebSocket | null = null;
  const hub: FakeHub = {
    url: "",
    connections: 0,
    authorizations: [],
    received: [],
    rawIn: [],
    rawOut: [],
    config: { defaultCurrent: 9, dryRunThreshold: 30, overCurrentThreshold: 30, debug: false, mobileNo: "9876543210" },
    heartbeatSeconds: 1,
    send: (message) => sendText(JSON.stringify(message)),
    async next(type, timeoutMs = 5_000) {
      for (let waited = 0; waited < timeoutMs; waited += 20) {
        const index = hub.received.findIndex((message) => message.type === type);
        if (index !== -1) return hub.received.splice(index, 1)[0] as never;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no ${type} within ${timeoutMs} ms; got ${JSON.stringify(hub.received)}`);
    },
    async expectNone(type, ms) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      const found = hub.received.find((message) => message.type === type);
      if (found) throw new Error(`unexpected ${type}: ${JSON.stringify(found)}`);
    },
    async untilQuiet(type, ms, withinMs) {
      const deadline = Date.now() + withinMs;
      while (Date.now() < deadline) {
        hub.received.length = 0;
        await new Promise((resolve) => setTimeout(resolve, ms));
        if (!hub.received.some((message) => message.type === type)) return;
      }
      throw new Error(`${type} kept coming for ${withinMs} ms`);
    },
    dropConnection: () => current?.terminate(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const sendText = (text: string) => {
    hub.rawOut.push(text);
    current!.send(text);
  };
  const server = new WebSocketServer({
    port: 0,
    verifyClient: (info, done) => {
      hub.authorizations.push(info.req.headers.authorization ?? "");
      if (options.refuseWith) done(false, options.refuseWith);
      else done(true);
    },
  });
  await new Promise((resolve) => server.once("listening", resolve));
  hub.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/device/connect`;
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
        hub.send({
          type: "welcome",
          protocol: 1,
          heartbeatSeconds: hub.heartbeatSeconds,
          watched: false,
          config: hub.config,
        });
      }
    });
  });
  const close = hub.close;
  hub.close = async () => {
    for (const client of server.clients) client.terminate();
    await close();
  };
  return hub;
}

/** A simulated box for `hub`, not started: by default a 5 HP three-phase pump that reconnects fast. */
export function simulatedBox(hub: FakeHub, overrides: Partial<SimulatedDeviceOptions> = {}) {
  return new SimulatedDevice({
    url: hub.url,
    deviceId: "SNC-TESTPUMP",
    key: "secret-key",
    kind: "3phase",
    horsePower: 5,
    reconnectBaseMs: 50,
    reconnectMaxMs: 200,
    ...overrides,
  });
}

/**
 * A simulated box (by default a 5 HP three-phase pump) connected to a fake hub of its own, past
 * its hello; the box is stopped and the hub closed when the test ends.
 */
export async function boxOnFakeHub(overrides: Partial<SimulatedDeviceOptions> = {}) {
  const hub = await startFakeHub();
  const device = simulatedBox(hub, overrides);
  onTestFinished(async () => {
    await device.stop();
    await hub.close();
  });
  device.start();
  await device.waitUntilConnected();
  await hub.next("hello");
  return { hub, device };
}

/**
 * Starts a 30 s `run` (a test run or a dry-run check), `id`, and switches the box OFF while it
 * runs: the run ends at once, not ok, and the OFF is acknowledged.
 */
export async function expectAnOffToEndRun(
  hub: FakeHub,
  device: SimulatedDevice,
  run: { type: "testRun" | "dryRunCheck"; id: string },
) {
  hub.send({ ...run, seconds: 30 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(device.relay).toBe("on");
  hub.send({ type: "switch", id: "off-1", relay: "off" });
  const result = await hub.next(`${run.type}Result`, 2_000);
  expect(result).toMatchObject({ id: run.id, ok: false, relay: "off", error: "Stopped by an OFF" });
  expect(await hub.next("ack")).toMatchObject({ id: "off-1", ok: true, relay: "off" });
}

/** A firmware file server that, like the Worker, wants the box's Basic credentials. */
export async function startFirmwareServer(
  image: Buffer,
  authorization: string,
): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.headers.authorization !== authorization) {
      response.writeHead(401).end();
      return;
    }
    if (request.url !== "/firmware/1") {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Length": image.length }).end(image);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
