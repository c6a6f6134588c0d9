// The two kinds of socket a test opens through the Worker: a box's (/api/device/connect) and a
// browser's (/api/realtime), each a peer that queues what it receives so tests can await it.
import type { DeviceKind, DeviceMessage, ServerToDeviceMessage } from "../../../common/device-protocol.ts";
import { DEVICE_PROTOCOL_VERSION, serverToDeviceMessageSchema } from "../../../common/device-protocol.ts";
import { type RealtimeMessage, realtimeMessageSchema } from "../../../common/realtime-protocol.ts";
import { CONDITION_LIMIT_MS } from "../../time-limits.ts";
import { api, bearer, ORIGIN } from "./http.ts";

/** A box as the tests provision it: its id and the key it signs in with. */
export type TestDevice = { deviceId: string; key: string };

/** A WebSocket peer that queues what it receives, so tests can await the next message. */
export class SocketPeer<Incoming extends { type: string }> {
  readonly received: Incoming[] = [];
  readonly raw: string[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];
  readonly ws: WebSocket;

  /** Every frame is read with the protocol's schema: a frame off the contract fails the test. */
  constructor(ws: WebSocket, schema: { parse(value: unknown): Incoming }) {
    this.ws = ws;
    ws.addEventListener("message", (event) => {
      const text = typeof event.data === "string" ? event.data : new TextDecoder().decode(event.data as ArrayBuffer);
      this.raw.push(text);
      if (text !== "pong") this.received.push(schema.parse(JSON.parse(text)));
      this.notify();
    });
    ws.addEventListener("close", (event) => {
      this.closed = { code: event.code, reason: event.reason };
      this.notify();
    });
  }

  private notify() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Resolves with the first received message of `type` not taken before, waiting if needed. */
  async next<T extends Incoming["type"]>(
    type: T,
    timeoutMs = CONDITION_LIMIT_MS,
  ): Promise<Extract<Incoming, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.received.findIndex((message) => message.type === type);
      if (index !== -1) return this.received.splice(index, 1)[0] as Extract<Incoming, { type: T }>;
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for ${type}`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no ${type} within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Asserts nothing of `type` arrives within `ms`. */
  async expectNone(type: Incoming["type"], ms = 300): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    const found = this.received.find((message) => message.type === type);
    if (found) throw new Error(`unexpected ${type}: ${JSON.stringify(found)}`);
  }

  async waitForClose(timeoutMs = CONDITION_LIMIT_MS): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error("socket did not close");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closed;
  }

  sendRaw(text: string) {
    this.ws.send(text);
  }

  close() {
    try {
      this.ws.close(1000, "test done");
    } catch {
      // already closed
    }
  }
}

export class DevicePeer extends SocketPeer<ServerToDeviceMessage> {
  constructor(ws: WebSocket) {
    super(ws, serverToDeviceMessageSchema);
  }

  send(message: DeviceMessage) {
    this.sendRaw(JSON.stringify(message));
  }

  /**
   * Answers every command like a healthy box: switches and reports the new current,
   * acknowledges settings and restarts, answers requests for health and power.
   */
  autoAck(options: { runningCurrent?: number } = {}) {
    let relay: "on" | "off" = "off";
    const current = () => (relay === "on" ? (options.runningCurrent ?? 8.9) : 0);
    this.ws.addEventListener("message", (event) => {
      if (typeof event.data !== "string" || event.data === "pong") return;
      const message = serverToDeviceMessageSchema.parse(JSON.parse(event.data));
      switch (message.type) {
        case "switch":
          relay = message.relay;
          this.send({ type: "ack", id: message.id, ok: true, relay });
          this.send({ type: "power", current: current(), wattage: Math.round(current() * 575) });
          return;
        case "config":
        case "restart":
        case "ota":
          this.send({ type: "ack", id: message.id, ok: true, relay });
          return;
        case "request":
          this.send({ type: "ack", id: message.id, ok: true, relay });
          if (message.what === "power")
            this.send({ type: "power", current: current(), wattage: Math.round(current() * 575) });
          else
            this.send({
              type: "health",
              uptime: 42,
              signal: -71,
              relay,
              connection: "connected",
              version: "test-1.0.0",
              imei: "866000000000001",
            });
          return;
        default:
          return;
      }
    });
    return this;
  }
}

export class BrowserPeer extends SocketPeer<RealtimeMessage> {
  constructor(ws: WebSocket) {
    super(ws, realtimeMessageSchema);
  }
}

async function upgrade(path: string, headers: Record<string, string>): Promise<Response> {
  return api(path, { headers: { Upgrade: "websocket", ...headers } });
}

export function basicAuth(deviceId: string, key: string): string {
  return `Basic ${btoa(`${deviceId}:${key}`)}`;
}

export type ConnectOptions = {
  hello?: boolean;
  relay?: "on" | "off";
  kind?: DeviceKind;
  firmware?: string;
  phaseFault?: boolean;
  supply?: boolean;
};

/** Opens the device socket; with `hello`, also says hello and waits for the welcome. */
export async function connectDevice(device: TestDevice, options: ConnectOptions = {}): Promise<DevicePeer> {
  const response = await upgrade("/api/device/connect", {
    Authorization: basicAuth(device.deviceId, device.key),
  });
  if (response.status !== 101 || !response.webSocket) {
    throw new Error(`device upgrade failed: ${response.status} ${await response.text()}`);
  }
  response.webSocket.accept();
  const peer = new DevicePeer(response.webSocket);
  if (options.hello ?? true) {
    peer.send({
      type: "hello",
      protocol: DEVICE_PROTOCOL_VERSION,
      firmware: options.firmware ?? "test-1.0.0",
      kind: options.kind ?? "3phase",
      relay: options.relay ?? "off",
      imei: "866000000000001",
      ...(options.phaseFault === undefined ? {} : { phaseFault: options.phaseFault }),
      ...(options.supply === undefined ? {} : { supply: options.supply }),
    });
    await peer.next("welcome");
  }
  return peer;
}

/** Opens a browser's realtime socket: the first box of a number, or `{ deviceId }` a box by its id. */
export async function connectBrowser(
  target: string | { deviceId: string },
  auth: { token: string } | { cookie: string; origin?: string },
): Promise<BrowserPeer> {
  const headers: Record<string, string> =
    "token" in auth ? bearer(auth.token) : { Cookie: auth.cookie, Origin: auth.origin ?? ORIGIN };
  const query = typeof target === "string" ? `mobileNo=${target}` : `deviceId=${target.deviceId}`;
  const response = await upgrade(`/api/realtime?${query}`, headers);
  if (response.status !== 101 || !response.webSocket) {
    throw new Error(`browser upgrade failed: ${response.status} ${await response.text()}`);
  }
  response.webSocket.accept();
  return new BrowserPeer(response.webSocket);
}

/** Opens a browser's socket and takes its initialData, so what it receives next is news. */
export async function browserWatching(...args: Parameters<typeof connectBrowser>): Promise<BrowserPeer> {
  const browser = await connectBrowser(...args);
  await browser.next("initialData");
  return browser;
}
