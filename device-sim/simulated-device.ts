// A controller box in software: the same WebSocket protocol a firmware speaks
// (docs/device-protocol.md), with a relay, a motor that draws current, its own protection,
// health reports, debug lines, restarts and firmware updates. Faults can be injected.
import { createHash } from "node:crypto";
import { EventEmitter } from "node:events";
import WebSocket from "ws";
import {
  DEFAULT_MOTOR_CONFIG,
  UNWATCHED_POWER_CHANGE_FRACTION,
  UNWATCHED_POWER_INTERVAL_MS,
} from "../common/constants.ts";
import {
  type ConnectionType,
  DEVICE_PROTOCOL_VERSION,
  type DeviceConfig,
  type DeviceEvent,
  type DeviceKind,
  type DeviceMessage,
  HEARTBEAT_REQUEST,
  type Phase,
  parseFrame,
  type RelayState,
  type ServerToDeviceMessage,
  serverToDeviceMessageSchema,
} from "../common/device-protocol.ts";
import {
  breachOf,
  PROTECTION_STARTUP_GRACE_MS,
  PROTECTION_SUSTAIN_MS,
  protectionLimits,
  type VoltageBreach,
  voltageBreachOf,
  voltageLimitsOf,
} from "../common/protection.ts";
import { boxAuthorization } from "./box-authorization.ts";
import { INRUSH_MS, MotorModel } from "./motor-model.ts";

export type SimulatedDeviceOptions = {
  /** ws(s)://host/api/device/connect */
  url: string;
  deviceId: string;
  key: string;
  kind: DeviceKind;
  horsePower: number;
  connection?: ConnectionType;
  firmware?: string;
  /** First reconnect waits up to this long; each further attempt doubles it (full jitter). */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  /** How long a restart (or firmware install) keeps the box away. */
  restartDelayMs?: number;
  /** Protection timing; the documented defaults unless a test needs them faster. */
  protectionGraceMs?: number;
  protectionSustainMs?: number;
  /** How often the box samples its own current for protection. */
  protectionSampleMs?: number;
  /** How late the `slowAck` fault answers: past the hub's 5 s patience by default. */
  slowAckMs?: number;
  /** Benchmarks only: ping this often instead of what the hub asks (0: as asked). */
  heartbeatOverrideSeconds?: number;
  log?: (line: string) => void;
};

/** What provisioning gives a box (scripts/lib/local-devices.ts keeps it beside the database). */
export type BoxIdentity = Pick<SimulatedDeviceOptions, "deviceId" | "key" | "kind" | "horsePower">;

/** The device socket of a Worker on this machine. */
export const localDeviceSocketUrl = (port: number) => `ws://localhost:${port}/api/device/connect`;

/** A simulator for a provisioned box, not yet started. */
export function simulateBox(url: string, box: BoxIdentity, options: Partial<SimulatedDeviceOptions> = {}) {
  const { deviceId, key, kind, horsePower } = box;
  return new SimulatedDevice({ url, deviceId, key, kind, horsePower, ...options });
}

/** Faults a test or an operator can inject (`npm run sim -- --fault dryRun@30`). */
export const FAULTS = [
  "dryRun",
  "overCurrent",
  "noLoad",
  "normal",
  "phaseLoss",
  "phaseRestore",
  "powerCut",
  "powerRestore",
  "tamper",
  "tamperClose",
  "lowVoltage",
  "highVoltage",
  "unbalancedVoltage",
  "normalVoltage",
  "networkDrop",
  "goSilent",
  "slowAck",
  "noAck",
  "ackNormally",
  "corruptDownload",
  "ignoreProtection",
  "contactorWelded",
  "contactorFreed",
] as const;
export type Fault = (typeof FAULTS)[number];

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

const DEBUG_LINE_INTERVAL_MS = 2_000;
/** A test run samples the current this often, and counts the surge this long past its model's end. */
const TEST_RUN_SAMPLE_MS = 100;
const TEST_RUN_SURGE_MARGIN_MS = 500;

const SUPPLY_CONDITION_OF = {
  lowVoltage: "low",
  highVoltage: "high",
  unbalancedVoltage: "unbalanced",
  normalVoltage: "normal",
} as const;

/** How the box words a voltage refusal in its ack (the hub goes by the ack's `reason`). */
const VOLTAGE_REFUSAL: Record<VoltageBreach, string> = {
  underVoltage: "Low voltage: motor held off",
  overVoltage: "High voltage: motor held off",
  voltageUnbalance: "Voltage unbalance: motor held off",
};

export class SimulatedDevice extends EventEmitter {
  readonly options: Required<Omit<SimulatedDeviceOptions, "log">> & Pick<SimulatedDeviceOptions, "log">;
  readonly motor: MotorModel;
  relay: RelayState = "off";
  /** When the box last sent anything (a frame or a heartbeat), for "offline within N s" checks. */
  lastFrameSentAt: number | null = null;
  firmware: string;
  watched = false;
  connected = false;
  phaseFault = false;
  /** The enclosure is open (its tamper switch): reported once per opening. */
  enclosureOpen = false;
  config: DeviceConfig = { ...DEFAULT_MOTOR_CONFIG, debug: false, mobileNo: null };
  ackMode: "normal" | "slow" | "none" = "normal";
  corruptDownloads = false;
  /** A broken box that does not trip: lets tests prove the hub's safety net. */
  protectionDisabled = false;
  /**
   * The starter's contactor welded shut: the motor runs whatever the box's relay says, so its
   * current is a motor nobody's command explains (lets tests raise "running without a command").
   */
  contactorWelded = false;
  /**
   * The link is dead but nobody closed it (a SIM that lost coverage): nothing the box sends
   * arrives, heartbeats included, until the connection is replaced.
   */
  silent = false;
  readonly counters: TrafficCounters = { framesSent: 0, framesReceived: 0, bytesSent: 0, bytesReceived: 0 };

  private socket: WebSocket | null = null;
  /** A commissioning run under way (a test run or a dry-run check): how it ends (an OFF ends it early). */
  private testRun: { finish: (error?: string) => void } | null = null;
  private stopped = false;
  private bootedAt = Date.now();
  private relayOnAt: number | null = null;
  private breachSince: number | null = null;
  /** The current and voltages in the last power report, for change-only reporting while unwatched. */
  private lastReportedCurrent = 0;
  private lastReportedVoltages: number[] = [];
  private reconnectAttempt = 0;
  private heartbeatSeconds = 240;
  private watchIntervalSeconds = 5;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private powerTimer: NodeJS.Timeout | undefined;
  private protectionTimer: NodeJS.Timeout | undefined;
  private debugTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(options: SimulatedDeviceOptions) {
    super();
    this.options = {
      connection: "sim",
      firmware: "sim-1.0.0",
      reconnectBaseMs: 1_000,
      reconnectMaxMs: 60_000,
      restartDelayMs: 3_000,
      protectionGraceMs: PROTECTION_STARTUP_GRACE_MS,
      protectionSustainMs: PROTECTION_SUSTAIN_MS,
      protectionSampleMs: 1_000,
      slowAckMs: 7_000,
      heartbeatOverrideSeconds: 0,
      ...options,
    };
    this.firmware = this.options.firmware;
    this.motor = new MotorModel(options.kind, options.horsePower);
  }

  get deviceId(): string {
    return this.options.deviceId;
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
    clearInterval(this.protectionTimer);
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
    return this.waitFor("welcome", timeoutMs).then(() => undefined);
  }

  /** Resolves with the arguments of the next `event` this device emits. */
  waitFor(event: string, timeoutMs = 10_000): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off(event, listener);
        reject(new Error(`${this.deviceId}: no ${event} within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (...args: unknown[]) => {
        clearTimeout(timer);
        resolve(args);
      };
      this.once(event, listener);
    });
  }

  /** What the current transformer and voltage sensors read right now. */
  reading() {
    return this.motor.reading(this.relayOnAt === null ? null : Date.now() - this.relayOnAt);
  }

  inject(fault: Fault): void {
    this.log(`fault injected: ${fault}`);
    switch (fault) {
      case "dryRun":
      case "overCurrent":
      case "noLoad":
      case "normal":
        this.motor.condition = fault;
        return;
      case "phaseLoss":
        if (this.options.kind !== "3phase") return;
        this.motor.missingPhase = 1;
        this.phaseFault = true;
        this.openRelay();
        this.sendEvent("phaseFault", { detail: "Phase Y missing", phase: "Y" });
        return;
      case "phaseRestore":
        if (this.options.kind !== "3phase") return;
        this.motor.missingPhase = null;
        this.phaseFault = false;
        this.sendEvent("phaseOk");
        return;
      case "powerCut": {
        // Every phase gone: the relay drops, and the box says so on its backup battery. (The
        // simulator's battery lasts; a real box's may not outlast this frame.)
        this.motor.supply = false;
        this.openRelay();
        const phases = this.options.kind === "3phase" ? 3 : 1;
        this.sendEvent("powerLost", { battery: true, voltages: Array.from({ length: phases }, () => 0) });
        return;
      }
      case "powerRestore":
        // The relay stays open: a box never restarts a motor by itself.
        this.motor.supply = true;
        this.sendEvent("powerRestored");
        return;
      case "tamper":
        if (this.enclosureOpen) return;
        this.enclosureOpen = true;
        this.sendEvent("tamper");
        return;
      case "tamperClose":
        if (!this.enclosureOpen) return;
        this.enclosureOpen = false;
        this.sendEvent("tamperOk");
        return;
      case "lowVoltage":
      case "highVoltage":
      case "unbalancedVoltage":
      case "normalVoltage":
        this.motor.supplyCondition = SUPPLY_CONDITION_OF[fault];
        return;
      case "networkDrop":
        this.socket?.terminate();
        return;
      case "goSilent":
        this.silent = true;
        return;
      case "slowAck":
        this.ackMode = "slow";
        return;
      case "noAck":
        this.ackMode = "none";
        return;
      case "ackNormally":
        this.ackMode = "normal";
        return;
      case "corruptDownload":
        this.corruptDownloads = true;
        return;
      case "contactorWelded":
        this.contactorWelded = true;
        this.relayOnAt ??= Date.now();
        this.reportPower();
        return;
      case "contactorFreed":
        this.contactorWelded = false;
        if (this.relay === "off") this.relayOnAt = null;
        this.reportPower();
        return;
      case "ignoreProtection":
        this.protectionDisabled = true;
        return;
      default: {
        const unreachable: never = fault;
        throw new Error(`unknown fault ${String(unreachable)}`);
      }
    }
  }

  private log(line: string): void {
    this.options.log?.(`[${this.deviceId}] ${line}`);
    if (this.config.debug && this.connected) this.send({ type: "log", line: line.slice(0, 500) });
  }

  private connect(): void {
    const { url, deviceId, key } = this.options;
    const socket = new WebSocket(url, {
      headers: { Authorization: boxAuthorization(deviceId, key) },
      handshakeTimeout: 10_000,
    });
    this.socket = socket;
    socket.on("open", () => {
      this.options.log?.(`[${deviceId}] connected, saying hello`);
      this.send({
        type: "hello",
        protocol: DEVICE_PROTOCOL_VERSION,
        firmware: this.firmware,
        kind: this.options.kind,
        relay: this.relay,
        connection: this.options.connection,
        imei: `86${deviceId.replace(/\D/g, "").padEnd(13, "7").slice(0, 13)}`,
        sim: this.options.connection === "sim" ? "M2M" : undefined,
        chipId: deviceId.slice(4),
        signal: -67,
        supply: this.motor.supply,
        phaseFault: this.phaseFault,
      });
    });
    socket.on("message", (data, isBinary) => {
      const text = isBinary ? "" : data.toString();
      this.counters.framesReceived++;
      this.counters.bytesReceived += Buffer.byteLength(text) + frameOverhead(Buffer.byteLength(text), false);
      if (text === "pong") return;
      const parsed = parseFrame(serverToDeviceMessageSchema, text);
      if (!parsed.ok) {
        this.options.log?.(`[${deviceId}] ignoring bad frame: ${parsed.error}`);
        return;
      }
      this.handle(parsed.message);
    });
    socket.on("unexpected-response", (_request, response) => {
      this.options.log?.(`[${deviceId}] refused with HTTP ${response.statusCode}`);
      this.emit("refused", response.statusCode);
      socket.terminate();
    });
    socket.on("error", (error) => this.options.log?.(`[${deviceId}] socket error: ${error.message}`));
    socket.on("close", (code, reason) => {
      if (this.socket !== socket) return; // an older socket, already replaced
      this.silent = false; // a new connection is a new link
      const wasConnected = this.connected;
      this.connected = false;
      this.stopTimers();
      if (wasConnected) this.emit("disconnected", code, reason.toString());
      if (this.stopped) return;
      // Full jitter: after a deploy every box reconnects at once; spread them out.
      const ceiling = Math.min(this.options.reconnectMaxMs, this.options.reconnectBaseMs * 2 ** this.reconnectAttempt);
      const delay = Math.round(Math.random() * ceiling);
      this.reconnectAttempt++;
      this.options.log?.(`[${deviceId}] closed (${code}), reconnecting in ${delay} ms`);
      this.emit("reconnecting", { delayMs: delay, ceilingMs: ceiling });
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
    });
  }

  private handle(message: ServerToDeviceMessage): void {
    switch (message.type) {
      case "welcome":
        this.connected = true;
        this.reconnectAttempt = 0;
        this.heartbeatSeconds = this.options.heartbeatOverrideSeconds || message.heartbeatSeconds;
        this.watched = message.watched;
        this.config = message.config;
        this.startHeartbeat();
        this.schedulePowerReports();
        this.scheduleDebugLines();
        this.emit("welcome");
        return;
      case "switch":
        // An OFF ends a test run at once, before it is acknowledged.
        if (message.relay === "off") this.testRun?.finish("Stopped by an OFF");
        this.acknowledge(
          message.id,
          () => {
            if (message.relay === "on" && this.phaseFault) return "Phase fault: motor held off";
            if (message.relay === "on" && !this.motor.supply) return "No mains power";
            // As a starter with a voltage relay: a motor never starts on a supply that would trip it.
            const voltage = message.relay === "on" ? this.voltageBreach() : null;
            if (voltage) return { error: VOLTAGE_REFUSAL[voltage], reason: voltage };
            if (message.relay === "on") this.closeRelay();
            else this.openRelay();
            return null;
          },
          () => {
            this.reportPower();
            this.emit("switched", this.relay);
          },
        );
        return;
      case "config":
        this.acknowledge(
          message.id,
          () => {
            this.config = message.config;
            this.log(`config: ${JSON.stringify(message.config)}`);
            this.scheduleDebugLines();
            return null;
          },
          () => this.emit("configured", this.config),
        );
        return;
      case "request":
        this.acknowledge(
          message.id,
          () => null,
          () => {
            if (message.what === "health") this.reportHealth();
            else this.reportPower();
          },
        );
        return;
      case "restart":
        this.acknowledge(
          message.id,
          () => null,
          () => this.restart(),
        );
        return;
      case "ota":
        this.acknowledge(
          message.id,
          () => null,
          () => void this.installFirmware(message),
        );
        return;
      case "watch":
        this.watched = message.watched;
        this.watchIntervalSeconds = message.intervalSeconds;
        this.schedulePowerReports();
        if (message.watched) this.reportPower();
        return;
      case "testRun":
        this.startTestRun(message.id, message.seconds);
        return;
      case "dryRunCheck":
        this.startDryRunCheck(message.id, message.seconds);
        return;
      case "error":
        this.options.log?.(`[${this.deviceId}] hub error: ${message.message}`);
        this.emit("hubError", message.message);
        return;
      default: {
        const unreachable: never = message;
        throw new Error(`unhandled message ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Runs `act`, acknowledges (now, late, or never, as injected), then runs `after`. */
  private acknowledge(
    id: string,
    act: () => string | { error: string; reason: VoltageBreach } | null,
    after: () => void,
  ): void {
    const outcome = act();
    const refusal = typeof outcome === "string" ? { error: outcome } : outcome;
    const sendAck = () => {
      this.send({ type: "ack", id, ok: refusal === null, relay: this.relay, ...refusal });
      if (refusal === null) after();
    };
    if (this.ackMode === "none") return;
    if (this.ackMode === "slow") setTimeout(sendAck, this.options.slowAckMs).unref();
    else sendAck();
  }

  private closeRelay(): void {
    if (this.relay === "on") return;
    this.relay = "on";
    this.relayOnAt = Date.now();
    this.breachSince = null;
    this.log("relay ON");
    this.schedulePowerReports();
    clearInterval(this.protectionTimer);
    this.protectionTimer = setInterval(() => this.checkProtection(), this.options.protectionSampleMs);
  }

  private openRelay(): void {
    if (this.relay === "off") return;
    this.relay = "off";
    if (!this.contactorWelded) this.relayOnAt = null;
    this.breachSince = null;
    clearInterval(this.protectionTimer);
    this.log("relay OFF");
    this.schedulePowerReports();
  }

  /** Which voltage limit the supply breaches now, by the limits the hub sent (else the kind's). */
  private voltageBreach(): VoltageBreach | null {
    const { voltages, supply } = this.reading();
    return voltageBreachOf(voltages, supply, voltageLimitsOf(this.options.kind, this.config));
  }

  /**
   * Runs at every sample while the relay is closed: the box's own voltage, dry-run and
   * overcurrent protection (start-up grace, sustain time), and change-only power reports.
   * Voltage is judged first: a sagging supply is the cause of the current it makes a motor draw.
   */
  private checkProtection(): void {
    if (this.relay !== "on" || this.relayOnAt === null) return;
    const { current, voltages, supply } = this.reading();
    const moved =
      Math.abs(current - this.lastReportedCurrent) > this.lastReportedCurrent * UNWATCHED_POWER_CHANGE_FRACTION ||
      voltages.some(
        (volts, phase) =>
          Math.abs(volts - (this.lastReportedVoltages[phase] ?? 0)) > volts * UNWATCHED_POWER_CHANGE_FRACTION,
      );
    if (!this.watched && moved) this.reportPower();
    if (this.protectionDisabled) return;
    const now = Date.now();
    if (now - this.relayOnAt < this.options.protectionGraceMs) return;
    const voltage = voltageBreachOf(voltages, supply, voltageLimitsOf(this.options.kind, this.config));
    const breach = voltage ?? breachOf(current, this.config);
    if (breach === null) {
      this.breachSince = null;
      return;
    }
    this.breachSince ??= now;
    if (now - this.breachSince < this.options.protectionSustainMs) return;
    this.openRelay();
    this.sendEvent(breach, voltage ? { voltages } : { current });
    this.emit("tripped", breach);
  }

  private sendEvent(
    event: DeviceEvent,
    extra: { current?: number; voltages?: number[]; detail?: string; phase?: Phase; battery?: boolean } = {},
  ): void {
    this.log(`event ${event}`);
    this.send({ type: "event", event, relay: this.relay, ...extra });
  }

  /** Sends a power reading now (the benchmarks time its way to the browsers). */
  sendPowerReading(): void {
    this.reportPower();
  }

  /**
   * Why the box will not start a commissioning run (a test run or a dry-run check), or null:
   * one under way already, the motor running, the supply or a phase missing, a voltage limit.
   */
  private commissioningRefusal(before: ReturnType<MotorModel["reading"]>): string | null {
    const voltageBreach = this.voltageBreach();
    return this.testRun
      ? "A test run is under way"
      : this.relay === "on"
        ? "The motor is running"
        : !before.supply
          ? "No mains power"
          : this.phaseFault || before.voltages.some((volts) => volts === 0)
            ? "A phase is missing"
            : voltageBreach
              ? VOLTAGE_REFUSAL[voltageBreach]
              : null;
  }

  /**
   * Commissioning's test run (docs/device-protocol.md, "Commissioning"): every phase present and
   * the supply within its limits, or no start; then the motor runs `seconds`, the surge's peak
   * and the mean running current after it are measured (no power frames meanwhile), and the
   * relay opens again. A phase or the supply lost, or an OFF, ends it early, not ok.
   */
  private startTestRun(id: string, seconds: number): void {
    const before = this.reading();
    const refusal = this.commissioningRefusal(before);
    if (refusal) {
      this.send({ type: "testRunResult", id, ok: false, relay: this.relay, voltages: before.voltages, error: refusal });
      return;
    }
    const startedAt = Date.now();
    const surge: number[] = [];
    const running: number[] = [];
    this.relay = "on";
    this.relayOnAt = startedAt;
    this.log(`test run for ${seconds} s`);
    const finish = (error?: string) => {
      this.endCommissioningMotor(sampler, stopper);
      this.send({
        type: "testRunResult",
        id,
        ok: error === undefined,
        relay: "off",
        voltages: before.voltages,
        surgeCurrent: Math.max(0, ...surge),
        runningCurrent: meanOf(running),
        ranSeconds: Math.round((Date.now() - startedAt) / 100) / 10,
        ...(error === undefined ? {} : { error }),
      });
      this.emit("testRun", error === undefined);
    };
    const sampler = setInterval(() => {
      const now = this.reading();
      if (!now.supply || now.voltages.some((volts) => volts === 0)) {
        finish("The supply or a phase was lost");
        return;
      }
      // Past the surge, with a margin: the running current is what the motor draws from then on.
      (Date.now() - startedAt < INRUSH_MS + TEST_RUN_SURGE_MARGIN_MS ? surge : running).push(now.current);
    }, TEST_RUN_SAMPLE_MS);
    const stopper = setTimeout(() => finish(), seconds * 1000);
    this.testRun = { finish };
  }

  /** A test run or a dry-run check ends: its timers stop and the relay opens, whatever ended it. */
  private endCommissioningMotor(sampler: ReturnType<typeof setInterval>, stopper: ReturnType<typeof setTimeout>): void {
    clearInterval(sampler);
    clearTimeout(stopper);
    this.testRun = null;
    this.relay = "off";
    this.relayOnAt = null;
  }

  /**
   * Commissioning's dry-run check (docs/device-protocol.md §12): the same refusals as a test
   * run; then the motor runs with the box's protection as it always is, the dry-run limit of its
   * settings included (start-up grace, sustain time), while the installer closes the valve
   * (here: the `dryRun` fault, a pump drawing 45 % of its current). The dry-run protection
   * tripping ends it, `tripped`; the seconds running out end it, not tripped; an overcurrent or
   * voltage trip, the supply lost or an OFF end it, not ok. The relay opens at the end in every case.
   * A box whose protection is broken (`ignoreProtection`) never trips: the check shows it.
   */
  private startDryRunCheck(id: string, seconds: number): void {
    const before = this.reading();
    const refusal = this.commissioningRefusal(before);
    if (refusal) {
      this.send({
        type: "dryRunCheckResult",
        id,
        ok: false,
        relay: this.relay,
        voltages: before.voltages,
        error: refusal,
      });
      return;
    }
    const startedAt = Date.now();
    const tripBelow = Math.round(protectionLimits(this.config).dryRunBelow * 100) / 100;
    const { protectionGraceMs, protectionSustainMs } = this.options;
    /** The readings past the grace, newest last, as long as one sustain time. */
    let recent: { at: number; current: number }[] = [];
    let breach: { since: number; readings: number[]; kind: string } | null = null;
    this.relay = "on";
    this.relayOnAt = startedAt;
    this.log(`dry-run check for ${seconds} s, trips below ${tripBelow} A`);
    const finish = (end: { tripped?: boolean; current?: number; error?: string }) => {
      this.endCommissioningMotor(sampler, stopper);
      this.send({
        type: "dryRunCheckResult",
        id,
        ok: end.error === undefined,
        relay: "off",
        voltages: before.voltages,
        ...(end.tripped === undefined ? {} : { tripped: end.tripped }),
        current: end.current ?? meanOf(recent.map((reading) => reading.current)),
        tripBelow,
        ranSeconds: Math.round((Date.now() - startedAt) / 100) / 10,
        ...(end.error === undefined ? {} : { error: end.error }),
      });
      this.emit("dryRunCheck", end.tripped === true);
    };
    const sampler = setInterval(() => {
      const now = Date.now();
      const reading = this.reading();
      if (!reading.supply || reading.voltages.some((volts) => volts === 0)) {
        finish({ error: "The supply or a phase was lost" });
        return;
      }
      if (now - startedAt < protectionGraceMs) return;
      recent = [...recent.filter((past) => now - past.at < protectionSustainMs), { at: now, current: reading.current }];
      if (this.protectionDisabled) return;
      const voltage = voltageBreachOf(
        reading.voltages,
        reading.supply,
        voltageLimitsOf(this.options.kind, this.config),
      );
      const kind = voltage ?? breachOf(reading.current, this.config);
      if (kind === null) {
        breach = null;
        return;
      }
      if (breach?.kind !== kind) breach = { since: now, readings: [], kind };
      breach.readings.push(reading.current);
      if (now - breach.since < protectionSustainMs) return;
      if (kind === "dryRun") finish({ tripped: true, current: meanOf(breach.readings) });
      else finish({ error: `Stopped by ${kind} protection` });
    }, TEST_RUN_SAMPLE_MS);
    const stopper = setTimeout(() => finish({ tripped: false }), seconds * 1000);
    this.testRun = { finish: (error) => finish({ error }) };
  }

  private reportPower(): void {
    // A test run's readings are its result: the hub hears none of them on the way.
    if (this.testRun) return;
    const { current, wattage, voltages, supply } = this.reading();
    this.lastReportedCurrent = current;
    this.lastReportedVoltages = voltages;
    this.send({ type: "power", current, wattage, voltages, supply });
  }

  private reportHealth(): void {
    this.send({
      type: "health",
      uptime: Math.floor((Date.now() - this.bootedAt) / 1000),
      signal: -60 - Math.floor(Math.random() * 25),
      relay: this.relay,
      chipId: this.deviceId.slice(4),
      imei: `86${this.deviceId.replace(/\D/g, "").padEnd(13, "7").slice(0, 13)}`,
      connection: "connected",
      sim: this.options.connection === "sim" ? "M2M" : undefined,
      version: this.firmware,
    });
  }

  /** A restart drops the relay (as any power-up does) and comes back after a delay. */
  private restart(firmware?: string): void {
    this.log("restarting");
    this.openRelay();
    if (firmware) this.firmware = firmware;
    this.bootedAt = Date.now();
    const socket = this.socket;
    this.socket = null;
    this.connected = false;
    this.stopTimers();
    socket?.close(1012, "Restarting");
    this.emit("restarting");
    this.reconnectTimer = setTimeout(() => {
      if (!this.stopped) this.connect();
    }, this.options.restartDelayMs);
  }

  private async installFirmware(offer: Extract<ServerToDeviceMessage, { type: "ota" }>): Promise<void> {
    const progress = (
      stage: "downloading" | "verifying" | "installing" | "failed",
      extra: { progress?: number; error?: string } = {},
    ) => this.send({ type: "ota", id: offer.id, stage, ...extra });
    try {
      progress("downloading", { progress: 0 });
      const response = await fetch(offer.url, {
        headers: { Authorization: boxAuthorization(this.deviceId, this.options.key) },
      });
      if (!response.ok) throw new Error(`download failed with HTTP ${response.status}`);
      const image = Buffer.from(await response.arrayBuffer());
      if (this.corruptDownloads && image.length > 0) image[0] = image[0]! ^ 0xff;
      progress("verifying", { progress: 100 });
      const sha256 = createHash("sha256").update(image).digest("hex");
      if (sha256 !== offer.sha256) throw new Error("SHA-256 mismatch");
      if (image.length !== offer.size) throw new Error("size mismatch");
      progress("installing");
      this.emit("otaInstalling", offer.version);
      this.restart(offer.version);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log(`firmware update failed: ${message}`);
      progress("failed", { error: message.slice(0, 200) });
      this.emit("otaFailed", message);
    }
  }

  /** A ping only after `heartbeatSeconds` of silence: any frame proves the box is alive. */
  private startHeartbeat(): void {
    clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = setTimeout(() => this.sendRaw(HEARTBEAT_REQUEST), this.heartbeatSeconds * 1000);
  }

  /**
   * Fast while someone watches; while the motor runs unwatched, one report per heartbeat
   * interval (changes are reported as they happen, see checkProtection); silent otherwise.
   */
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

  private scheduleDebugLines(): void {
    clearInterval(this.debugTimer);
    if (!this.config.debug || !this.connected) return;
    this.debugTimer = setInterval(() => {
      const { current, voltages } = this.reading();
      this.log(
        `relay=${this.relay.toUpperCase()} current=${current}A V=${voltages.join("/")} heap=${180 + Math.floor(Math.random() * 20)}k`,
      );
    }, DEBUG_LINE_INTERVAL_MS);
  }

  private stopTimers(): void {
    clearTimeout(this.heartbeatTimer);
    clearInterval(this.powerTimer);
    clearInterval(this.debugTimer);
  }

  private send(message: DeviceMessage): void {
    this.sendRaw(JSON.stringify(message));
  }

  private sendRaw(text: string): void {
    if (this.socket?.readyState !== WebSocket.OPEN || this.silent) return;
    const bytes = Buffer.byteLength(text);
    this.counters.framesSent++;
    this.lastFrameSentAt = Date.now();
    this.counters.bytesSent += bytes + frameOverhead(bytes, true);
    this.socket.send(text);
    this.emit("sent", text, this.lastFrameSentAt);
    if (this.connected) this.startHeartbeat();
  }
}

/** The mean of readings, to 0.01 A (0 for none). */
function meanOf(readings: number[]): number {
  if (readings.length === 0) return 0;
  return Math.round((readings.reduce((sum, current) => sum + current, 0) / readings.length) * 100) / 100;
}
