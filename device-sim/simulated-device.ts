// A controller box in software: the same WebSocket protocol a firmware speaks
// (docs/device-protocol.md), with a relay, a motor that draws current, and reconnects.
import { EventEmitter } from "node:events";
import WebSocket from "ws";
import { UNWATCHED_POWER_INTERVAL_MS } from "../common/constants.ts";
import {
  DEVICE_PROTOCOL_VERSION,
  HEARTBEAT_REQUEST,
  parseFrame,
  serverToDeviceMessageSchema,
  type DeviceKind,
  type DeviceMessage,
  type RelayState,
  type ServerToDeviceMessage,
} from "../common/device-protocol.ts";
import { runningReading } from "./motor-model.ts";

export type SimulatedDeviceOptions = {
  /** ws(s)://host/api/device/connect */
  url: string;
  deviceId: string;
  key: string;
  kind: DeviceKind;
  horsePower: number;
  firmware?: string;
  /** First reconnect waits up to this long; each further attempt doubles it (full jitter). */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  log?: (line: string) => void;
};

export type TrafficCounters = {
  framesSent: number;
  framesReceived: number;
  /** Payload bytes plus WebSocket framing (client frames are masked: +4 bytes). */
  bytesSent: number;
  bytesReceived: number;
};

function frameOverhead(payloadBytes: number, masked: boolean): number {
  const lengthBytes = payloadBytes < 126 ? 0 : payloadBytes < 65_536 ? 2 : 8;
  return 2 + lengthBytes + (masked ? 4 : 0);
}

export class SimulatedDevice extends EventEmitter {
  readonly options: Required<Omit<SimulatedDeviceOptions, "log">> & Pick<SimulatedDeviceOptions, "log">;
  relay: RelayState = "off";
  watched = false;
  connected = false;
  readonly counters: TrafficCounters = { framesSent: 0, framesReceived: 0, bytesSent: 0, bytesReceived: 0 };

  private socket: WebSocket | null = null;
  private stopped = false;
  private reconnectAttempt = 0;
  private heartbeatSeconds = 240;
  private watchIntervalSeconds = 5;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private powerTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(options: SimulatedDeviceOptions) {
    super();
    this.options = {
      firmware: "sim-1.0.0",
      reconnectBaseMs: 1_000,
      reconnectMaxMs: 60_000,
      ...options,
    };
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Closes the socket and stops reconnecting. */
  stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.stopTimers();
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once("close", () => resolve());
      socket.close(1000, "Simulator stopped");
      setTimeout(() => {
        socket.terminate();
        resolve();
      }, 2_000).unref();
    });
  }

  /** Resolves once the hub has welcomed this device. */
  waitUntilConnected(timeoutMs = 10_000): Promise<void> {
    if (this.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.options.deviceId} did not connect`)), timeoutMs);
      this.once("welcome", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private log(line: string): void {
    this.options.log?.(`[${this.options.deviceId}] ${line}`);
  }

  private connect(): void {
    const { url, deviceId, key } = this.options;
    const socket = new WebSocket(url, {
      headers: { Authorization: `Basic ${Buffer.from(`${deviceId}:${key}`).toString("base64")}` },
      handshakeTimeout: 10_000,
    });
    this.socket = socket;
    socket.on("open", () => {
      this.log("connected, saying hello");
      this.send({
        type: "hello",
        protocol: DEVICE_PROTOCOL_VERSION,
        firmware: this.options.firmware,
        kind: this.options.kind,
        relay: this.relay,
        imei: `86${deviceId.replace(/\D/g, "").padEnd(13, "7").slice(0, 13)}`,
        sim: "M2M",
        chipId: deviceId.slice(4),
        signal: -67,
      });
    });
    socket.on("message", (data, isBinary) => {
      const text = isBinary ? "" : data.toString();
      this.counters.framesReceived++;
      this.counters.bytesReceived += Buffer.byteLength(text) + frameOverhead(Buffer.byteLength(text), false);
      if (text === "pong") return;
      const parsed = parseFrame(serverToDeviceMessageSchema, text);
      if (!parsed.ok) {
        this.log(`ignoring bad frame: ${parsed.error}`);
        return;
      }
      this.handle(parsed.message);
    });
    socket.on("unexpected-response", (_request, response) => {
      this.log(`refused with HTTP ${response.statusCode}`);
      this.emit("refused", response.statusCode);
      socket.terminate();
    });
    socket.on("error", (error) => this.log(`socket error: ${error.message}`));
    socket.on("close", (code, reason) => {
      const wasConnected = this.connected;
      this.connected = false;
      this.stopTimers();
      if (wasConnected) this.emit("disconnected", code, reason.toString());
      if (this.stopped) return;
      // Full jitter: after a deploy every box reconnects at once; spread them out.
      const ceiling = Math.min(
        this.options.reconnectMaxMs,
        this.options.reconnectBaseMs * 2 ** this.reconnectAttempt,
      );
      const delay = Math.round(Math.random() * ceiling);
      this.reconnectAttempt++;
      this.log(`closed (${code}), reconnecting in ${delay} ms`);
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
    });
  }

  private handle(message: ServerToDeviceMessage): void {
    switch (message.type) {
      case "welcome":
        this.connected = true;
        this.reconnectAttempt = 0;
        this.heartbeatSeconds = message.heartbeatSeconds;
        this.watched = message.watched;
        this.startHeartbeat();
        this.schedulePowerReports();
        this.emit("welcome");
        return;
      case "switch":
        this.switchRelay(message.relay);
        this.send({ type: "ack", id: message.id, ok: true, relay: this.relay });
        this.reportPower();
        this.emit("switched", this.relay);
        return;
      case "watch":
        this.watched = message.watched;
        this.watchIntervalSeconds = message.intervalSeconds;
        this.schedulePowerReports();
        if (message.watched) this.reportPower();
        return;
      case "error":
        this.log(`hub error: ${message.message}`);
        this.emit("hubError", message.message);
        return;
      default: {
        const unreachable: never = message;
        throw new Error(`unhandled message ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private switchRelay(relay: RelayState): void {
    if (this.relay === relay) return;
    this.relay = relay;
    this.log(`relay ${relay.toUpperCase()}`);
    this.schedulePowerReports();
  }

  /** What the current transformer reads right now. */
  reading(): { current: number; wattage: number } {
    return this.relay === "on"
      ? runningReading(this.options.kind, this.options.horsePower)
      : { current: 0, wattage: 0 };
  }

  private reportPower(): void {
    this.send({ type: "power", ...this.reading() });
  }

  private startHeartbeat(): void {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = setInterval(() => this.sendRaw(HEARTBEAT_REQUEST), this.heartbeatSeconds * 1000);
  }

  /** Fast while someone watches; slow while the motor runs unwatched; silent otherwise. */
  private schedulePowerReports(): void {
    clearInterval(this.powerTimer);
    const interval = this.watched
      ? this.watchIntervalSeconds * 1000
      : this.relay === "on"
        ? UNWATCHED_POWER_INTERVAL_MS
        : null;
    if (interval !== null && this.connected) {
      this.powerTimer = setInterval(() => this.reportPower(), interval);
    }
  }

  private stopTimers(): void {
    clearInterval(this.heartbeatTimer);
    clearInterval(this.powerTimer);
  }

  private send(message: DeviceMessage): void {
    this.sendRaw(JSON.stringify(message));
  }

  private sendRaw(text: string): void {
    if (this.socket?.readyState !== WebSocket.OPEN) return;
    const bytes = Buffer.byteLength(text);
    this.counters.framesSent++;
    this.counters.bytesSent += bytes + frameOverhead(bytes, true);
    this.socket.send(text);
  }
}
