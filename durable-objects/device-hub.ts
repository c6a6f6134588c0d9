// One DeviceHub per controller box, addressed by the box's stable device id.
// It holds the box's WebSocket and the browsers watching it (hibernation API), and is the
// source of truth for relay, presence, protection state, cooldown and the last motor logs.
// Every motor log goes to D1 through an outbox, so a failed D1 write is retried, never lost.
import { DurableObject } from "cloudflare:workers";
import {
  DEFAULT_MOTOR_CONFIG,
  DEVICE_ACK_TIMEOUT_MS,
  DEVICE_HEARTBEAT_INTERVAL_MS,
  DEVICE_OFFLINE_AFTER_MS,
  LIVE_MOTOR_LOG_LIMIT,
  MOTOR_COOLDOWN_MS,
  WATCHED_OFFLINE_AFTER_MS,
  WATCHED_POWER_INTERVAL_MS,
} from "../common/constants.ts";
import {
  DEVICE_PROTOCOL_VERSION,
  deviceMessageSchema,
  HEARTBEAT_REQUEST,
  HEARTBEAT_RESPONSE,
  parseFrame,
  type DeviceCommand,
  type DeviceConfig,
  type DeviceKind,
  type DeviceMessage,
  type RelayState,
  type ServerToDeviceMessage,
} from "../common/device-protocol.ts";
import {
  breachOf,
  HUB_SAFETY_SUSTAIN_MS,
  PROTECTION_STARTUP_GRACE_MS,
} from "../common/protection.ts";
import type {
  DeviceStatus,
  HealthData,
  MotorLogEntry,
  PowerData,
  RealtimeMessage,
} from "../common/realtime-protocol.ts";
import { getDb } from "../worker/db/client.ts";
import { findDeviceWithOwner, updateDeviceIdentity, updateDevicePresence } from "../worker/db/devices.ts";
import { activateDevice } from "../worker/db/plans.ts";
import { insertMotorLog, listRecentMotorLogs, toMotorLogEntry } from "../worker/db/motor-logs.ts";
import type { MotorLogRow } from "../worker/db/schema.ts";
import {
  MAX_SCHEDULES_PER_DEVICE,
  type ScheduleInput,
  type ScheduleOutcome,
  type ScheduleView,
} from "../common/schedule-schemas.ts";
import { formatClock, istMinuteKey, nextOccurrence } from "../common/schedule-time.ts";
import { HUB_HEADERS } from "./hub-headers.ts";
import { HubSql, type PowerSample, type ScheduleOffRow, type ScheduleRow } from "./hub-sql.ts";

type Owner = { userId: number; mobileNo: string };
type Breach = "dryRun" | "overCurrent";

type OtaJob = {
  id: string;
  version: string;
  stage: "sent" | "downloading" | "verifying" | "installing";
  startedAt: number;
};

type HubState = {
  owner: Owner | null;
  config: DeviceConfig;
  relay: RelayState;
  /** When the relay last went ON; the start-up grace counts from here. */
  relayOnSince: number | null;
  online: boolean;
  /** Last frame of any kind from the box (heartbeats are tracked by the runtime). */
  lastSeenAt: number | null;
  power: PowerData;
  supply: boolean;
  phaseFault: boolean;
  cooldownUntil: number;
  /** When the current watch began; liveness while watched counts from here at the earliest. */
  watchedSince: number | null;
  /** Newest first, at most LIVE_MOTOR_LOG_LIMIT; null until loaded from D1 once. */
  lastLogs: MotorLogEntry[] | null;
  health: HealthData | null;
  kind: DeviceKind | null;
  /** A protection limit the readings have breached since `since` (the safety net). */
  breach: { kind: Breach; since: number } | null;
  /** The last relay command sent, kept so a confirmation arriving late is still attributed. */
  pendingSwitch: { id: string; relay: RelayState; source: CommandSource; note?: string } | null;
  ota: OtaJob | null;
};

const INITIAL_STATE: HubState = {
  owner: null,
  config: { ...DEFAULT_MOTOR_CONFIG, debug: false, mobileNo: null },
  relay: "off",
  relayOnSince: null,
  online: false,
  lastSeenAt: null,
  power: { current: 0, wattage: 0 },
  supply: true,
  phaseFault: false,
  cooldownUntil: 0,
  watchedSince: null,
  lastLogs: null,
  health: null,
  kind: null,
  breach: null,
  pendingSwitch: null,
  ota: null,
};

const ZERO_POWER: PowerData = { current: 0, wattage: 0 };

type DeviceAttachment = { role: "device"; connectedAt: number; helloAt: number | null };
type BrowserAttachment = { role: "browser"; viewerId: number; viewerRole: "user" | "admin" };
type SocketAttachment = DeviceAttachment | BrowserAttachment;

/** Tags let getWebSockets() find sockets by role after hibernation. */
const DEVICE_TAG = "device";
const BROWSER_TAG = "browser";
const ADMIN_VIEWER_TAG = "viewer:admin";

const LOG_FLUSH_RETRY_MS = 30_000;
/** A firmware update that has not finished by then is reported as failed. */
export const OTA_TIMEOUT_MS = 10 * 60_000;
/** Debug mode streams every log line over the SIM: it switches itself off after this long. */
export const DEBUG_MODE_MAX_MS = 30 * 60_000;
const POWER_PRUNE_INTERVAL_MS = 24 * 60 * 60_000;
/**
 * A schedule run that comes later than this (the hub could not run: an outage, a deploy) is
 * logged as missed rather than carried out: a motor started hours after the farmer planned
 * could run with nobody expecting it.
 */
export const SCHEDULE_LATE_LIMIT_MS = 10 * 60_000;
/** An owed switch-off that failed (box offline, no confirmation) is tried again this often... */
export const SCHEDULE_OFF_RETRY_MS = 60_000;
/** ...for this long after it was due; then it is given up and logged. */
export const SCHEDULE_OFF_GIVE_UP_MS = 24 * 60 * 60_000;
/** The one timer that wakes the hub for schedules; the schedules table says what is due. */
const SCHEDULES_TIMER = "schedules";

export type CommandSource = "app" | "schedule";

export type HubFailure = {
  ok: false;
  code: "offline" | "cooldown" | "busy" | "timeout" | "rejected" | "phaseFault" | "noSupply";
  message: string;
  retryAfterMs?: number;
};

export type MotorCommandResult = { ok: true; status: RelayState } | HubFailure;

export type ScheduleFailure = { ok: false; code: "notFound" | "conflict" | "limit"; message: string };
export type ScheduleResult = { ok: true; schedule: ScheduleView } | ScheduleFailure;

export type HubSnapshot = {
  motorStatus: RelayState;
  deviceStatus: DeviceStatus;
  powerData: PowerData;
  lastLogs: MotorLogEntry[];
  phaseFault: boolean;
  health: HealthData | null;
  debug: boolean;
};

export type HubStats = {
  /** Constructions after the first: wakes from hibernation or eviction. */
  wakes: number;
  deviceFrames: number;
  /** When the last 20 constructions happened (ms). */
  recentWakes: number[];
};

export type FirmwareOffer = { version: string; url: string; sha256: string; size: number };

type AckMessage = Extract<DeviceMessage, { type: "ack" }>;
type HealthMessage = Extract<DeviceMessage, { type: "health" }>;
type PowerMessage = Extract<DeviceMessage, { type: "power" }>;
type FrameWaiter =
  | { type: "health"; resolve: (message: HealthMessage | null) => void }
  | { type: "power"; resolve: (message: PowerMessage | null) => void };

const OFFLINE: HubFailure = {
  ok: false,
  code: "offline",
  message: "Device is offline. Check its power and network, then try again.",
};
const NO_CONFIRMATION: HubFailure = {
  ok: false,
  code: "timeout",
  message: "The device did not confirm the command. Check the motor status and try again.",
};

export class DeviceHub extends DurableObject<Env> {
  private state: HubState = INITIAL_STATE;
  private store!: HubSql;
  /** In memory only: a command in flight keeps the object awake until it settles. */
  private pendingAcks = new Map<string, (ack: AckMessage | null) => void>();
  private frameWaiters: FrameWaiter[] = [];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Answered by the runtime itself: a heartbeat never wakes a hibernating hub.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(HEARTBEAT_REQUEST, HEARTBEAT_RESPONSE));
    void ctx.blockConcurrencyWhile(async () => {
      this.store = new HubSql(ctx.storage.sql);
      this.state = { ...INITIAL_STATE, ...ctx.storage.kv.get<HubState>("state") };
      // Every construction after the first is a wake from hibernation or eviction: counted so
      // the idle benchmark can show heartbeats never wake a hub.
      const stats = ctx.storage.kv.get<HubStats>("stats") ?? { wakes: -1, deviceFrames: 0, recentWakes: [] };
      ctx.storage.kv.put("stats", {
        ...stats,
        wakes: stats.wakes + 1,
        recentWakes: [...stats.recentWakes, Date.now()].slice(-20),
      });
      // Schedules are the truth, their wake-up timer only a copy: restore it if a crash lost it.
      this.syncScheduleTimer();
    });
  }

  /** The device id this hub was created for (`idFromName(deviceId)`). */
  private get deviceId(): string {
    const name = this.ctx.id.name;
    if (!name) throw new Error("DeviceHub must be addressed with idFromName(deviceId)");
    return name;
  }

  private saveState(changes: Partial<HubState>): void {
    this.state = { ...this.state, ...changes };
    this.ctx.storage.kv.put("state", this.state);
  }

  // ---- sockets ---------------------------------------------------------------------------

  /** Only the Worker calls this, after it has authenticated the socket (see worker/api). */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const role = request.headers.get(HUB_HEADERS.socketRole);
    if (role === "device") return this.acceptDevice();
    if (role === "browser") return this.acceptBrowser(request);
    return new Response("Unknown socket role", { status: 400 });
  }

  private acceptDevice(): Response {
    // A box that reconnects (new SIM session, restart) replaces its old socket.
    for (const old of this.ctx.getWebSockets(DEVICE_TAG)) {
      this.closeQuietly(old, 4001, "Replaced by a newer connection");
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [DEVICE_TAG]);
    server.serializeAttachment({ role: "device", connectedAt: Date.now(), helloAt: null } satisfies DeviceAttachment);
    return new Response(null, { status: 101, webSocket: client });
  }

  private async acceptBrowser(request: Request): Promise<Response> {
    const viewerId = Number(request.headers.get(HUB_HEADERS.viewerId));
    const viewerRole = request.headers.get(HUB_HEADERS.viewerRole) === "admin" ? "admin" : "user";
    const { 0: client, 1: server } = new WebSocketPair();
    const wasWatched = this.browserSockets().length > 0;
    this.ctx.acceptWebSocket(server, [BROWSER_TAG, `viewer:${viewerRole}`]);
    server.serializeAttachment({ role: "browser", viewerId, viewerRole } satisfies BrowserAttachment);
    this.send(server, { type: "initialData", ...(await this.snapshot()) } satisfies RealtimeMessage);
    if (viewerRole === "admin") {
      for (const { at, line } of this.store.debugLines()) this.send(server, this.debugLogMessage(at, line));
    }
    if (!wasWatched) this.setWatched(true);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, frame: string | ArrayBuffer): Promise<void> {
    const attachment = ws.deserializeAttachment() as SocketAttachment | null;
    if (attachment?.role !== "device") return; // browsers only listen
    const parsed = parseFrame(deviceMessageSchema, frame);
    if (!parsed.ok) {
      this.send(ws, { type: "error", message: parsed.error } satisfies ServerToDeviceMessage);
      return;
    }
    const stats = this.ctx.storage.kv.get<HubStats>("stats")!;
    this.ctx.storage.kv.put("stats", { ...stats, deviceFrames: stats.deviceFrames + 1 });
    if (parsed.message.type !== "hello" && !attachment.helloAt) {
      this.send(ws, { type: "error", message: "Say hello first." } satisfies ServerToDeviceMessage);
      return;
    }
    // Refused before anything is recorded: a box we cannot talk to gives no sign of life
    // (the fuzz suite found such a hello moving lastSeenAt).
    if (parsed.message.type === "hello" && parsed.message.protocol !== DEVICE_PROTOCOL_VERSION) {
      this.send(ws, { type: "error", message: `Unsupported protocol version ${parsed.message.protocol}; this server speaks ${DEVICE_PROTOCOL_VERSION}.` } satisfies ServerToDeviceMessage);
      this.closeQuietly(ws, 4002, "Unsupported protocol version");
      return;
    }
    const now = Date.now();
    this.saveState({ lastSeenAt: now });
    await this.handleDeviceMessage(ws, attachment, parsed.message, now);
  }

  private async handleDeviceMessage(
    ws: WebSocket,
    attachment: DeviceAttachment,
    message: DeviceMessage,
    now: number,
  ): Promise<void> {
    switch (message.type) {
      case "hello":
        await this.handleHello(ws, attachment, message, now);
        return;
      case "ack": {
        const waiter = this.pendingAcks.get(message.id);
        if (waiter) {
          waiter(message);
          return;
        }
        // A confirmation that came after its command timed out (or after an eviction):
        // the box is the truth about its relay, so adopt what it reports.
        const pending = this.state.pendingSwitch;
        if (pending?.id === message.id) {
          this.saveState({ pendingSwitch: null });
          await this.applyRelay(message.relay, `${this.commandLogText(message.relay, pending.source, pending.note)} (confirmed late)`);
        } else {
          await this.applyRelay(message.relay, this.relayLogText(message.relay, "reported by the box"));
        }
        return;
      }
      case "power":
        await this.handlePower(message, now);
        return;
      case "relay":
        await this.applyRelay(
          message.relay,
          this.relayLogText(
            message.relay,
            message.cause === "manual" ? "switched at the box" : message.cause === "schedule" ? "by the box's schedule" : "box restarted",
          ),
        );
        return;
      case "health":
        await this.handleHealth(message, now);
        return;
      case "event":
        await this.handleEvent(message);
        return;
      case "log":
        if (!this.state.config.debug) return; // a box should not send these; never store them unasked
        this.store.addDebugLine(now, message.line);
        this.broadcast(this.debugLogMessage(now, message.line), ADMIN_VIEWER_TAG);
        return;
      case "ota":
        await this.handleOtaProgress(message);
        return;
      default: {
        const unreachable: never = message;
        throw new Error(`unhandled device message ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private async handleHello(
    ws: WebSocket,
    attachment: DeviceAttachment,
    message: Extract<DeviceMessage, { type: "hello" }>,
    now: number,
  ): Promise<void> {
    ws.serializeAttachment({ ...attachment, helloAt: now } satisfies DeviceAttachment);
    await this.loadOwnerAndConfig();
    const wasOnline = this.state.online;
    const wasPhaseFault = this.state.phaseFault;
    this.saveState({
      online: true,
      kind: message.kind,
      supply: message.supply ?? true,
      phaseFault: message.phaseFault ?? false,
      pendingSwitch: null,
      breach: null,
      health: {
        ...(this.state.health ?? emptyHealth()),
        relay: message.relay,
        chipId: message.chipId ?? this.state.health?.chipId ?? null,
        imei: message.imei ?? this.state.health?.imei ?? null,
        sim: message.sim ?? this.state.health?.sim ?? null,
        signal: message.signal ?? this.state.health?.signal ?? null,
        version: message.firmware,
        connection: message.connection ?? this.state.health?.connection ?? null,
        mqtt: "connected",
      },
    });
    // Watched means a browser socket is open now. After a restart (every deploy) the stored
    // flag can outlive the browsers it described; trusting it would hold an unwatched box to
    // the 20 s watched liveness limit and disconnect it again and again.
    const watched = this.browserSockets().length > 0;
    if (watched !== (this.state.watchedSince !== null)) this.saveState({ watchedSince: watched ? now : null });
    this.send(ws, {
      type: "welcome",
      protocol: DEVICE_PROTOCOL_VERSION,
      heartbeatSeconds: DEVICE_HEARTBEAT_INTERVAL_MS / 1000,
      watched,
      config: this.state.config,
    } satisfies ServerToDeviceMessage);
    if (watched) this.sendWatch(ws, true);
    if (!wasOnline) this.broadcast({ type: "deviceStatusUpdate", deviceStatus: "online" });
    if (this.state.phaseFault !== wasPhaseFault) {
      this.broadcast({ type: this.state.phaseFault ? "phaseFaultDetected" : "phaseOk" });
    }
    await this.finishOtaOnHello(message.firmware);
    // The box is the truth about its relay: a box that restarted (power cut) comes back OFF.
    await this.applyRelay(message.relay, this.relayLogText(message.relay, "reported by the box when it reconnected"));
    this.scheduleLivenessCheck(now);
    await this.syncToD1("presence and identity", (db) =>
      Promise.all([
        updateDevicePresence(db, this.deviceId, { online: true, lastSeenAt: now }),
        updateDeviceIdentity(db, this.deviceId, {
          firmware: message.firmware,
          kind: message.kind,
          connection: message.connection,
          imei: message.imei,
          sim: message.sim,
          chipId: message.chipId,
          signal: message.signal,
        }),
        // The first hello starts the box's free year of connectivity.
        activateDevice(db, this.deviceId, now),
      ]),
    );
  }

  private async handlePower(message: PowerMessage, now: number): Promise<void> {
    const power = { current: message.current, wattage: message.wattage };
    this.saveState({ power, supply: message.supply ?? this.state.supply });
    this.broadcast({ type: "powerDataUpdate", powerData: power });
    this.resolveFrameWaiters("power", message);
    if (this.state.relay === "on") {
      this.store.samplePower(now, power.current, power.wattage);
      if (!this.store.hasTimer("prune-power")) this.setTimer("prune-power", now + POWER_PRUNE_INTERVAL_MS);
    }
    await this.checkSafetyNet(now);
  }

  private async handleHealth(message: HealthMessage, now: number): Promise<void> {
    const health: HealthData = {
      uptime: message.uptime,
      signal: message.signal ?? null,
      relay: message.relay,
      chipId: message.chipId ?? null,
      imei: message.imei ?? null,
      mqtt: message.connection,
      sim: message.sim ?? null,
      version: message.version,
      connection: this.state.health?.connection ?? null,
      reportedAt: new Date(now).toISOString(),
    };
    this.saveState({ health });
    this.broadcast({ type: "healthData", mobileNo: this.state.owner?.mobileNo ?? null, payload: health });
    this.resolveFrameWaiters("health", message);
    await this.syncToD1("signal", (db) =>
      updateDeviceIdentity(db, this.deviceId, { signal: message.signal, firmware: message.version }),
    );
  }

  private async handleEvent(message: Extract<DeviceMessage, { type: "event" }>): Promise<void> {
    const detail = message.detail ? `: ${message.detail}` : "";
    switch (message.event) {
      case "dryRun":
        this.saveState({ breach: null });
        await this.applyRelay(message.relay, "Dry run detected. Motor turned OFF automatically.", { always: true });
        this.broadcast({ type: "dryRunDetected" });
        return;
      case "overCurrent":
        this.saveState({ breach: null });
        await this.applyRelay(message.relay, "Overcurrent detected. Motor turned OFF!", { always: true });
        this.broadcast({ type: "overCurrentDetected" });
        return;
      case "phaseFault":
        this.saveState({ phaseFault: true });
        await this.applyRelay(message.relay, `Phase fault detected${detail}. Motor operation is disabled.`, { always: true });
        this.broadcast({ type: "phaseFaultDetected" });
        return;
      case "phaseOk":
        this.saveState({ phaseFault: false });
        await this.recordMotorLog("other", "Phase is OK now.");
        await this.applyRelay(message.relay, this.relayLogText(message.relay, "reported by the box"));
        this.broadcast({ type: "phaseOk" });
        return;
      case "powerLost":
        this.saveState({ supply: false });
        await this.applyRelay(message.relay, "Power cut at the pump. Motor stopped.", { always: true });
        this.broadcast({ type: "powerLost" });
        return;
      case "powerRestored":
        this.saveState({ supply: true });
        await this.recordMotorLog("other", "Power is back at the pump. The motor stays OFF until someone switches it on.");
        this.broadcast({ type: "powerRestored" });
        if (message.relay === "on") {
          // A box must never restart a motor by itself after a power cut.
          await this.applyRelay("on", this.relayLogText("on", "restarted by the box after the power cut"));
          await this.forceOff("it restarted by itself after a power cut");
        }
        return;
      default: {
        const unreachable: never = message.event;
        throw new Error(`unhandled event ${String(unreachable)}`);
      }
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    // Reciprocate the close handshake; the peer may already be gone, which is fine.
    this.closeQuietly(ws, code === 1005 || code === 1006 ? 1000 : code, reason);
    await this.handleSocketGone(ws);
  }

  override async webSocketError(ws: WebSocket, error: unknown): Promise<void> {
    console.error(`DeviceHub ${this.ctx.id.name}: socket error`, error);
    await this.handleSocketGone(ws);
  }

  private async handleSocketGone(ws: WebSocket): Promise<void> {
    const attachment = ws.deserializeAttachment() as SocketAttachment | null;
    if (attachment?.role === "device") {
      // getWebSockets() can still list the closing socket: only another open one counts.
      if (this.deviceSocket(ws) === null) await this.markOffline();
    } else if (attachment?.role === "browser") {
      if (this.browserSockets(ws).length === 0) this.setWatched(false);
    }
  }

  // ---- RPC from the Worker ---------------------------------------------------------------

  /** `note` goes into the motor log after the source ("by schedule (10:00 AM, daily)"). */
  async switchMotor(command: { action: RelayState; source: CommandSource; note?: string }): Promise<MotorCommandResult> {
    const device = this.deviceSocket();
    if (!device) return OFFLINE;
    if (command.action === "on" && this.state.phaseFault) {
      return {
        ok: false,
        code: "phaseFault",
        message: "Phase fault detected. Motor operation is disabled until the phase is OK.",
      };
    }
    if (command.action === "on" && !this.state.supply) {
      return { ok: false, code: "noSupply", message: "There is no mains power at the pump." };
    }
    const now = Date.now();
    if (now < this.state.cooldownUntil) {
      return {
        ok: false,
        code: "cooldown",
        message: "Please wait for cooldown.",
        retryAfterMs: this.state.cooldownUntil - now,
      };
    }
    if (this.state.pendingSwitch && this.pendingAcks.has(this.state.pendingSwitch.id)) {
      return { ok: false, code: "busy", message: "Another command is in progress. Please wait." };
    }
    const id = crypto.randomUUID();
    // The cooldown starts when the command leaves for the box, whatever the outcome: a relay
    // that may have switched must not be switched again straight away.
    this.saveState({
      cooldownUntil: now + MOTOR_COOLDOWN_MS,
      pendingSwitch: { id, relay: command.action, source: command.source, note: command.note },
    });
    const ack = await this.sendCommand(device, { type: "switch", id, relay: command.action });
    if (ack === null) return NO_CONFIRMATION;
    this.saveState({ pendingSwitch: null });
    if (!ack.ok) {
      await this.applyRelay(ack.relay, this.relayLogText(ack.relay, "reported by the box"));
      return { ok: false, code: "rejected", message: ack.error ?? "The device refused the command." };
    }
    await this.applyRelay(ack.relay, this.commandLogText(ack.relay, command.source, command.note), { always: true });
    return { ok: true, status: ack.relay };
  }

  async getSnapshot(): Promise<HubSnapshot> {
    return this.snapshot();
  }

  /** Takes new protection settings (already saved in D1 by the Worker) to the box. */
  async updateConfig(changes: Partial<DeviceConfig>): Promise<{ delivered: boolean }> {
    const config = { ...this.state.config, ...changes };
    const debugChanged = config.debug !== this.state.config.debug;
    this.saveState({ config });
    if (debugChanged) this.broadcast({ type: "debugModeUpdate", debug: config.debug }, ADMIN_VIEWER_TAG);
    const device = this.deviceSocket();
    if (!device) return { delivered: false }; // the next hello's welcome carries it
    const ack = await this.sendCommand(device, { type: "config", id: crypto.randomUUID(), config });
    return { delivered: ack?.ok === true };
  }

  /**
   * Debug mode (admin): the box streams its log lines; it ends by itself after 30 minutes.
   * Switching it on needs the box online and confirming; switching it off always succeeds.
   */
  async setDebug(debug: boolean): Promise<{ ok: true; delivered: boolean } | HubFailure> {
    if (debug && !this.deviceSocket()) return OFFLINE;
    if (debug) this.setTimer("debug-off", Date.now() + DEBUG_MODE_MAX_MS);
    else this.deleteTimer("debug-off");
    const { delivered } = await this.updateConfig({ debug });
    if (debug && !delivered) {
      this.saveState({ config: { ...this.state.config, debug: false } });
      this.broadcast({ type: "debugModeUpdate", debug: false }, ADMIN_VIEWER_TAG);
      this.deleteTimer("debug-off");
      return NO_CONFIRMATION;
    }
    return { ok: true, delivered };
  }

  /** The owner's number changed (already in D1): tell the box, which then restarts. */
  async changeMobileNo(mobileNo: string): Promise<{ ok: true; delivered: boolean } | HubFailure> {
    const owner = this.state.owner ? { ...this.state.owner, mobileNo } : null;
    this.saveState({ owner });
    const { delivered } = await this.updateConfig({ mobileNo });
    await this.recordMotorLog("other", `Mobile number changed to ${mobileNo}. The box restarts.`);
    if (!delivered) return { ok: true, delivered: false };
    const device = this.deviceSocket();
    if (device) await this.sendCommand(device, { type: "restart", id: crypto.randomUUID() });
    return { ok: true, delivered: true };
  }

  /** Asks the box for a fresh health report and returns it. */
  async requestHealth(): Promise<{ ok: true; health: HealthData } | HubFailure> {
    const frame = await this.requestFrame("health");
    if (!frame.ok) return frame;
    return { ok: true, health: this.state.health ?? emptyHealth() };
  }

  /** Asks the box for a power reading now and returns it. */
  async requestPower(): Promise<{ ok: true; powerData: PowerData } | HubFailure> {
    const frame = await this.requestFrame("power");
    if (!frame.ok) return frame;
    return { ok: true, powerData: { current: frame.message.current, wattage: frame.message.wattage } };
  }

  /** Counters for operators and benchmarks: wakes, device frames handled. */
  async hubStats(): Promise<HubStats> {
    return this.ctx.storage.kv.get<HubStats>("stats")!;
  }

  async powerHistory(limit: number): Promise<PowerSample[]> {
    return this.store.powerHistory(limit);
  }

  /** Offers a firmware image; success here means the box accepted the job. */
  async startOta(offer: FirmwareOffer): Promise<{ ok: true } | HubFailure> {
    const device = this.deviceSocket();
    if (!device) return OFFLINE;
    const running = this.state.ota;
    if (running && Date.now() - running.startedAt < OTA_TIMEOUT_MS) {
      return { ok: false, code: "busy", message: `A firmware update to ${running.version} is already in progress.` };
    }
    const id = crypto.randomUUID();
    const ack = await this.sendCommand(device, { type: "ota", id, ...offer });
    if (ack === null) return NO_CONFIRMATION;
    if (!ack.ok) {
      const reason = ack.error ?? "the box refused it";
      await this.recordMotorLog("other", `Firmware update to ${offer.version} refused: ${reason}.`);
      return { ok: false, code: "rejected", message: `The device refused the update: ${reason}.` };
    }
    const now = Date.now();
    this.saveState({ ota: { id, version: offer.version, stage: "sent", startedAt: now } });
    this.setTimer("ota-timeout", now + OTA_TIMEOUT_MS);
    await this.recordMotorLog("other", `Firmware update to ${offer.version} started.`);
    this.broadcastOta(offer.version, "sent");
    return { ok: true };
  }

  /** Ownership changed in D1 (assignment, deletion): pick up the new owner and config. */
  async refreshOwner(): Promise<void> {
    await this.loadOwnerAndConfig();
    // A new owner (or none) must never inherit the previous owner's schedules.
    this.store.deleteSchedulesNotOwnedBy(this.state.owner?.userId ?? null);
    this.syncScheduleTimer();
    const device = this.deviceSocket();
    if (device) await this.sendCommand(device, { type: "config", id: crypto.randomUUID(), config: this.state.config });
  }

  /** The box's key was rotated: drop its connection so it must come back with the new key. */
  async disconnectDevice(reason: string): Promise<void> {
    for (const ws of this.ctx.getWebSockets(DEVICE_TAG)) this.closeQuietly(ws, 4003, reason.slice(0, 120));
    await this.markOffline();
  }

  // ---- schedules (the farmer's own, carried out here whether or not a browser is open) --

  async listSchedules(userId: number): Promise<ScheduleView[]> {
    return this.store.schedules(userId).map(scheduleView);
  }

  async createSchedule(userId: number, input: ScheduleInput): Promise<ScheduleResult> {
    if (this.store.scheduleCount() >= MAX_SCHEDULES_PER_DEVICE) {
      return { ok: false, code: "limit", message: `A device can have at most ${MAX_SCHEDULES_PER_DEVICE} schedules.` };
    }
    const clash = this.scheduleClash(input.minuteOfDay, null);
    if (clash) return clash;
    const now = Date.now();
    // A time already past today (also for "once") means its next occurrence: tomorrow.
    const id = this.store.insertSchedule({
      userId,
      minuteOfDay: input.minuteOfDay,
      action: input.action,
      repeat: input.repeat,
      durationMinutes: input.durationMinutes,
      nextRunAt: nextOccurrence(input.minuteOfDay, now),
      createdAt: now,
    });
    this.syncScheduleTimer();
    return { ok: true, schedule: scheduleView(this.store.schedule(id)!) };
  }

  async updateSchedule(userId: number, id: number, input: ScheduleInput): Promise<ScheduleResult> {
    const existing = this.store.schedule(id);
    if (!existing || existing.userId !== userId) return SCHEDULE_NOT_FOUND;
    const clash = this.scheduleClash(input.minuteOfDay, id);
    if (clash) return clash;
    this.store.updateSchedule(id, {
      minuteOfDay: input.minuteOfDay,
      action: input.action,
      repeat: input.repeat,
      durationMinutes: input.durationMinutes,
      nextRunAt: nextOccurrence(input.minuteOfDay, Date.now()),
    });
    this.syncScheduleTimer();
    return { ok: true, schedule: scheduleView(this.store.schedule(id)!) };
  }

  /** A switch-off still owed for a run under way stays: deleting a schedule never leaves a motor running. */
  async deleteSchedule(userId: number, id: number): Promise<boolean> {
    const existing = this.store.schedule(id);
    if (!existing || existing.userId !== userId) return false;
    this.store.deleteSchedule(id);
    this.syncScheduleTimer();
    return true;
  }

  private scheduleClash(minuteOfDay: number, exceptId: number | null): ScheduleFailure | null {
    if (!this.store.scheduleAtMinute(minuteOfDay, exceptId)) return null;
    return { ok: false, code: "conflict", message: `Another schedule is already set for ${formatClock(minuteOfDay)}.` };
  }

  private syncScheduleTimer(): void {
    const due = this.store.nextScheduleDue();
    if (due === this.store.timerDue(SCHEDULES_TIMER)) return;
    if (due === null) this.deleteTimer(SCHEDULES_TIMER);
    else this.setTimer(SCHEDULES_TIMER, due);
  }

  /** Runs every schedule and owed switch-off that is due. Safe to run twice (claims first). */
  private async runDueSchedules(): Promise<void> {
    for (const schedule of this.store.dueSchedules(Date.now())) {
      try {
        await this.runSchedule(schedule);
      } catch (error) {
        console.error(`DeviceHub ${this.deviceId}: schedule ${schedule.id} failed`, error);
      }
    }
    for (const off of this.store.dueScheduleOffs(Date.now())) {
      try {
        await this.runScheduleOff(off);
      } catch (error) {
        console.error(`DeviceHub ${this.deviceId}: switch-off of schedule ${off.scheduleId} failed`, error);
      }
    }
    this.syncScheduleTimer();
  }

  private async runSchedule(schedule: ScheduleRow): Promise<void> {
    const scheduledAt = schedule.nextRunAt!;
    const runKey = istMinuteKey(scheduledAt);
    const now = Date.now();
    const next = schedule.repeat === "daily" ? nextOccurrence(schedule.minuteOfDay, Math.max(now, scheduledAt)) : null;
    // Claimed before anything is sent: an alarm delivered twice, even while the first run
    // still waits for the box, finds the run taken and switches nothing.
    if (!this.store.claimScheduleRun(schedule.id, runKey, scheduledAt, next)) {
      this.store.setScheduleNextRun(schedule.id, next);
      return;
    }
    // Whose box is it now? D1 says (an admin may have reassigned or deleted it since the
    // hub last heard). Only a schedule of the current owner may move the motor.
    const loaded = await this.loadOwnerAndConfig();
    const ownerId = this.state.owner?.userId ?? null;
    if ((loaded || ownerId !== null) && ownerId !== schedule.userId) {
      this.store.deleteSchedule(schedule.id);
      return;
    }
    const action = schedule.action;
    const label = `${action.toUpperCase()} at ${formatClock(schedule.minuteOfDay)}`;
    const finish = async (outcome: ScheduleOutcome, code: string | null, message: string | null, log?: string) => {
      this.store.recordScheduleOutcome(schedule.id, runKey, outcome, code, message);
      if (log) await this.recordMotorLog("other", log);
    };
    if (now - scheduledAt > SCHEDULE_LATE_LIMIT_MS) {
      await finish("missed", "late", "The server could not run it on time.", `Scheduled ${label} was missed: the server could not run it on time.`);
      return;
    }
    const note = `${formatClock(schedule.minuteOfDay)}, ${schedule.repeat}${
      action === "on" && schedule.durationMinutes ? `, for ${schedule.durationMinutes} minutes` : ""
    }`;
    const result = await this.switchForSchedule(action, note);
    if (result.ok) {
      await finish("done", null, null);
      if (action === "on" && schedule.durationMinutes) {
        const dueAt = Date.now() + schedule.durationMinutes * 60_000;
        this.store.setScheduleOff({
          scheduleId: schedule.id,
          plannedAt: dueAt,
          dueAt,
          label: `after ${schedule.durationMinutes} minutes`,
          attempts: 0,
        });
      }
      return;
    }
    if (result.code === "offline") {
      await finish("missed", "offline", result.message, `Scheduled ${label} was missed: the device was offline.`);
      return;
    }
    await finish("failed", result.code, result.message, `Scheduled ${label} was not carried out: ${withoutFullStop(result.message)}.`);
  }

  /** "ON for N minutes" is over: switch off, unless the motor already stopped. */
  private async runScheduleOff(off: ScheduleOffRow): Promise<void> {
    if (this.state.relay === "off") {
      this.store.deleteScheduleOff(off.scheduleId);
      return;
    }
    const now = Date.now();
    if (now - off.plannedAt > SCHEDULE_OFF_GIVE_UP_MS) {
      this.store.deleteScheduleOff(off.scheduleId);
      await this.recordMotorLog("other", `Scheduled switch-off (${off.label}) was given up after a day of failed attempts. Check the pump.`);
      return;
    }
    // Claimed by moving the next attempt on: a second delivery finds nothing due, and a crash
    // mid-attempt is retried a minute later. Stopping a motor twice does no harm.
    this.store.setScheduleOff({ ...off, dueAt: now + SCHEDULE_OFF_RETRY_MS, attempts: off.attempts + 1 });
    const result = await this.switchForSchedule("off", off.label);
    if (result.ok) {
      this.store.deleteScheduleOff(off.scheduleId);
      return;
    }
    if (off.attempts === 0) {
      await this.recordMotorLog(
        "other",
        `Scheduled switch-off (${off.label}) failed: ${withoutFullStop(result.message)}. Trying again every minute.`,
      );
    }
  }

  /**
   * A schedule's switch, through the same path as the app's (offline, phase fault, cooldown
   * and logging all apply). A cooldown or a command in flight is waited out once: a farmer who
   * switched by hand a few seconds before the schedule still gets the schedule.
   */
  private async switchForSchedule(action: RelayState, note: string): Promise<MotorCommandResult> {
    const result = await this.switchMotor({ action, source: "schedule", note });
    if (result.ok || (result.code !== "cooldown" && result.code !== "busy")) return result;
    await new Promise((resolve) => setTimeout(resolve, (result.retryAfterMs ?? DEVICE_ACK_TIMEOUT_MS) + 250));
    return this.switchMotor({ action, source: "schedule", note });
  }

  // ---- state changes ---------------------------------------------------------------------

  /**
   * Adopts the relay state the box reported; when it changed (or `always`), writes `logText`
   * to the motor log. Broadcasts the change.
   */
  private async applyRelay(relay: RelayState, logText: string, options: { always?: boolean } = {}): Promise<void> {
    const changed = relay !== this.state.relay;
    if (changed) {
      this.saveState({
        relay,
        relayOnSince: relay === "on" ? Date.now() : null,
        breach: null,
        power: relay === "off" ? ZERO_POWER : this.state.power,
        health: this.state.health ? { ...this.state.health, relay } : null,
      });
      this.broadcast({ type: "motorStatusUpdate", status: relay });
      if (relay === "off") {
        this.broadcast({ type: "powerDataUpdate", powerData: ZERO_POWER });
        // Whoever stopped it, a schedule's "ON for N minutes" has nothing left to switch off
        // (and must not stop a run someone starts later).
        this.store.clearScheduleOffs();
        this.syncScheduleTimer();
      }
    }
    if (changed || options.always) await this.recordMotorLog(relay, logText);
  }

  /** Switches the motor off for safety, ignoring the cooldown. */
  private async forceOff(why: string): Promise<boolean> {
    const device = this.deviceSocket();
    if (!device) return false;
    const id = crypto.randomUUID();
    this.saveState({ cooldownUntil: Date.now() + MOTOR_COOLDOWN_MS });
    const ack = await this.sendCommand(device, { type: "switch", id, relay: "off" });
    if (ack?.ok && ack.relay === "off") {
      await this.applyRelay("off", `Motor turned OFF by the server: ${why}.`, { always: true });
      return true;
    }
    await this.recordMotorLog("other", `The server could not switch the motor OFF (${why}). Check the pump.`);
    return false;
  }

  /**
   * The safety net: the box should trip within seconds of a breach; if readings still breach
   * a protection limit HUB_SAFETY_SUSTAIN_MS later, the hub switches the motor off itself.
   */
  private async checkSafetyNet(now: number): Promise<void> {
    const { relay, relayOnSince, power, breach, config } = this.state;
    if (relay !== "on" || relayOnSince === null || now - relayOnSince < PROTECTION_STARTUP_GRACE_MS) {
      if (breach) this.saveState({ breach: null });
      return;
    }
    const kind = breachOf(power.current, config);
    if (kind === null) {
      if (breach) this.saveState({ breach: null });
      return;
    }
    if (!breach || breach.kind !== kind) {
      this.saveState({ breach: { kind, since: now } });
      return;
    }
    if (now - breach.since < HUB_SAFETY_SUSTAIN_MS) return;
    this.saveState({ breach: null });
    const label = kind === "dryRun" ? "dry run" : "overcurrent";
    if (await this.forceOff(`${label} that the box did not stop`)) {
      this.broadcast({ type: kind === "dryRun" ? "dryRunDetected" : "overCurrentDetected" });
    }
  }

  private async markOffline(): Promise<void> {
    for (const resolve of this.pendingAcks.values()) resolve(null);
    for (const waiter of this.frameWaiters.splice(0)) waiter.resolve(null);
    if (!this.state.online) return;
    const now = Date.now();
    this.saveState({
      online: false,
      power: ZERO_POWER,
      breach: null,
      health: this.state.health ? { ...this.state.health, mqtt: "disconnected" } : null,
    });
    this.broadcast({ type: "deviceStatusUpdate", deviceStatus: "offline" });
    this.broadcast({ type: "powerDataUpdate", powerData: ZERO_POWER });
    this.deleteTimer("liveness");
    await this.syncToD1("presence", (db) =>
      updateDevicePresence(db, this.deviceId, { online: false, lastSeenAt: this.state.lastSeenAt ?? now }),
    );
  }

  private setWatched(watched: boolean): void {
    this.saveState({ watchedSince: watched ? Date.now() : null });
    const device = this.deviceSocket();
    if (device) {
      this.sendWatch(device, watched);
      this.scheduleLivenessCheck(Date.now());
    }
  }

  private sendWatch(device: WebSocket, watched: boolean): void {
    this.send(device, {
      type: "watch",
      watched,
      intervalSeconds: WATCHED_POWER_INTERVAL_MS / 1000,
    } satisfies ServerToDeviceMessage);
  }

  /** False when D1 could not be read (the last known owner and settings stay). */
  private async loadOwnerAndConfig(): Promise<boolean> {
    try {
      const found = await findDeviceWithOwner(getDb(this.env.DB), this.deviceId);
      const owner = found?.owner ?? null;
      this.saveState({
        owner: owner ? { userId: owner.id, mobileNo: owner.mobileNo } : null,
        config: {
          ...this.state.config,
          defaultCurrent: owner?.defaultCurrent ?? DEFAULT_MOTOR_CONFIG.defaultCurrent,
          dryRunThreshold: owner?.dryRunThreshold ?? DEFAULT_MOTOR_CONFIG.dryRunThreshold,
          overCurrentThreshold: owner?.overCurrentThreshold ?? DEFAULT_MOTOR_CONFIG.overCurrentThreshold,
          mobileNo: owner?.mobileNo ?? null,
        },
      });
      return true;
    } catch (error) {
      // Keep the last known owner and settings; the box still gets a consistent welcome.
      console.error(`DeviceHub ${this.deviceId}: could not load owner and config from D1`, error);
      return false;
    }
  }

  // ---- firmware updates ------------------------------------------------------------------

  private async handleOtaProgress(message: Extract<DeviceMessage, { type: "ota" }>): Promise<void> {
    const job = this.state.ota;
    if (!job || job.id !== message.id) return;
    if (message.stage === "failed") {
      await this.failOta(message.error ?? "the box reported a failure");
      return;
    }
    this.saveState({ ota: { ...job, stage: message.stage } });
    this.broadcastOta(job.version, message.stage, message.progress ?? null);
  }

  private async finishOtaOnHello(firmware: string): Promise<void> {
    const job = this.state.ota;
    if (!job) return;
    if (firmware === job.version) {
      this.saveState({ ota: null });
      this.deleteTimer("ota-timeout");
      await this.recordMotorLog("other", `Firmware updated to ${job.version}.`);
      this.broadcastOta(job.version, "done");
    } else if (job.stage === "installing") {
      await this.failOta(`the box restarted with ${firmware}`);
    }
  }

  private async failOta(reason: string): Promise<void> {
    const job = this.state.ota;
    if (!job) return;
    this.saveState({ ota: null });
    this.deleteTimer("ota-timeout");
    await this.recordMotorLog("other", `Firmware update to ${job.version} failed: ${reason}.`);
    this.broadcastOta(job.version, "failed", null, reason);
  }

  private broadcastOta(
    version: string,
    stage: "sent" | "downloading" | "verifying" | "installing" | "done" | "failed",
    progress: number | null = null,
    error: string | null = null,
  ): void {
    this.broadcast({ type: "otaStatus", version, stage, progress, error });
  }

  // ---- commands to the box ---------------------------------------------------------------

  /** Sends a command and waits for its ack; null when none came in time or the box went away. */
  private sendCommand(device: WebSocket, command: DeviceCommand): Promise<AckMessage | null> {
    return new Promise((resolve) => {
      const settle = (ack: AckMessage | null) => {
        clearTimeout(timer);
        this.pendingAcks.delete(command.id);
        resolve(ack);
      };
      const timer = setTimeout(() => settle(null), DEVICE_ACK_TIMEOUT_MS);
      this.pendingAcks.set(command.id, settle);
      this.send(device, command);
    });
  }

  /** Sends a `request` and waits for the frame it asks for (health or power), within 5 s. */
  private async requestFrame<T extends "health" | "power">(
    what: T,
  ): Promise<{ ok: true; message: T extends "health" ? HealthMessage : PowerMessage } | HubFailure> {
    const device = this.deviceSocket();
    if (!device) return OFFLINE;
    const frame = new Promise<HealthMessage | PowerMessage | null>((resolve) => {
      const timer = setTimeout(() => settle(null), DEVICE_ACK_TIMEOUT_MS);
      const settle = (message: HealthMessage | PowerMessage | null) => {
        clearTimeout(timer);
        this.frameWaiters = this.frameWaiters.filter((waiter) => waiter.resolve !== settle);
        resolve(message);
      };
      this.frameWaiters.push({ type: what, resolve: settle } as FrameWaiter);
    });
    const ack = await this.sendCommand(device, { type: "request", id: crypto.randomUUID(), what });
    if (ack === null) return NO_CONFIRMATION;
    const message = await frame;
    if (message === null) return NO_CONFIRMATION;
    return { ok: true, message: message as T extends "health" ? HealthMessage : PowerMessage };
  }

  private resolveFrameWaiters(type: "health", message: HealthMessage): void;
  private resolveFrameWaiters(type: "power", message: PowerMessage): void;
  private resolveFrameWaiters(type: "health" | "power", message: HealthMessage | PowerMessage): void {
    for (const waiter of this.frameWaiters.filter((candidate) => candidate.type === type)) {
      (waiter.resolve as (message: HealthMessage | PowerMessage) => void)(message);
    }
  }

  // ---- motor logs ------------------------------------------------------------------------

  private commandLogText(relay: RelayState, source: CommandSource, note?: string): string {
    const base = relay === "on" ? "Motor turned ON" : "Motor turned OFF";
    const text = source === "schedule" ? `${base} by schedule` : `${base} from the app`;
    return note ? `${text} (${note})` : text;
  }

  private relayLogText(relay: RelayState, note: string): string {
    return `${relay === "on" ? "Motor turned ON" : "Motor turned OFF"} (${note})`;
  }

  private async recordMotorLog(action: MotorLogRow["action"], message: string): Promise<void> {
    const now = Date.now();
    const owner = this.state.owner;
    const row: Omit<MotorLogRow, "id" | "hubRef"> = {
      deviceId: this.deviceId,
      userId: owner?.userId ?? null,
      mobileNo: owner?.mobileNo ?? null,
      action,
      message,
      createdAt: now,
    };
    // Outbox first: if D1 is unreachable the log waits here and the alarm retries it.
    const outboxId = this.store.addToOutbox(row);
    let entry: MotorLogEntry = { id: -outboxId, action, logMessage: message, timestamp: new Date(now).toISOString() };
    try {
      entry = toMotorLogEntry(await this.flushLog(outboxId, row));
    } catch (error) {
      console.error(`DeviceHub ${this.deviceId}: D1 log write failed, will retry`, error);
      this.setTimer("flush-logs", now + LOG_FLUSH_RETRY_MS);
    }
    const lastLogs = [entry, ...(await this.loadLastLogs())].slice(0, LIVE_MOTOR_LOG_LIMIT);
    this.saveState({ lastLogs });
    this.broadcast({ type: "motorLogUpdate", log: entry });
  }

  private async flushLog(outboxId: number, row: Omit<MotorLogRow, "id" | "hubRef">): Promise<MotorLogRow> {
    const stored = await insertMotorLog(getDb(this.env.DB), { ...row, hubRef: `${this.deviceId}:${outboxId}` });
    this.store.removeFromOutbox(outboxId);
    return stored;
  }

  private async flushOutbox(): Promise<void> {
    for (const { id, row } of this.store.outbox<Omit<MotorLogRow, "id" | "hubRef">>()) {
      try {
        await this.flushLog(id, row);
      } catch (error) {
        console.error(`DeviceHub ${this.deviceId}: D1 log retry failed`, error);
        this.setTimer("flush-logs", Date.now() + LOG_FLUSH_RETRY_MS);
        return;
      }
    }
  }

  private async loadLastLogs(): Promise<MotorLogEntry[]> {
    if (this.state.lastLogs) return this.state.lastLogs;
    const rows = await listRecentMotorLogs(getDb(this.env.DB), this.deviceId, LIVE_MOTOR_LOG_LIMIT);
    const lastLogs = rows.map(toMotorLogEntry);
    this.saveState({ lastLogs });
    return lastLogs;
  }

  private async snapshot(): Promise<HubSnapshot> {
    const online = this.state.online && this.deviceSocket() !== null;
    return {
      motorStatus: this.state.relay,
      deviceStatus: online ? "online" : "offline",
      powerData: online ? this.state.power : ZERO_POWER,
      lastLogs: await this.loadLastLogs(),
      phaseFault: this.state.phaseFault,
      health: this.state.health ? { ...this.state.health, mqtt: online ? "connected" : "disconnected" } : null,
      debug: this.state.config.debug,
    };
  }

  /**
   * D1's copy of presence and identity serves the admin lists; the hub's own storage is the
   * truth. A failed copy is logged and corrected by the next change, never fatal to the hub.
   */
  private async syncToD1(what: string, write: (db: ReturnType<typeof getDb>) => Promise<unknown>) {
    try {
      await write(getDb(this.env.DB));
    } catch (error) {
      console.error(`DeviceHub ${this.deviceId}: D1 ${what} update failed`, error);
    }
  }

  // ---- timers: one alarm multiplexed over named, idempotent timers -----------------------

  private setTimer(name: string, dueAt: number): void {
    this.store.setTimer(name, dueAt);
    this.syncAlarm();
  }

  private deleteTimer(name: string): void {
    this.store.deleteTimer(name);
    this.syncAlarm();
  }

  private syncAlarm(): void {
    const next = this.store.nextTimerDue();
    if (next === null) void this.ctx.storage.deleteAlarm();
    else void this.ctx.storage.setAlarm(next);
  }

  /** Alarms are at-least-once: every timer handler must be safe to run twice. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    for (const name of this.store.takeDueTimers(now)) {
      switch (name) {
        case "liveness":
          await this.checkLiveness(now);
          break;
        case "flush-logs":
          await this.flushOutbox();
          break;
        case "ota-timeout":
          if (this.state.ota && now - this.state.ota.startedAt >= OTA_TIMEOUT_MS) {
            await this.failOta("no answer from the box within 10 minutes");
          }
          break;
        case "debug-off":
          if (this.state.config.debug) await this.updateConfig({ debug: false });
          break;
        case "prune-power":
          this.store.prunePowerHistory(now);
          if (this.state.relay === "on") this.store.setTimer("prune-power", now + POWER_PRUNE_INTERVAL_MS);
          break;
        case SCHEDULES_TIMER:
          break; // only a wake-up: due schedules run below, whatever woke the hub
        default:
          console.error(`DeviceHub ${this.deviceId}: unknown timer ${name}`);
      }
    }
    await this.runDueSchedules();
    this.syncAlarm();
  }

  private livenessLimit(): number {
    const watched = this.state.watchedSince !== null && this.browserSockets().length > 0;
    return watched ? WATCHED_OFFLINE_AFTER_MS : DEVICE_OFFLINE_AFTER_MS;
  }

  /** When the box last proved it was alive: a frame, a heartbeat, or the watch start. */
  private lastSignOfLife(device: WebSocket): number {
    const attachment = device.deserializeAttachment() as DeviceAttachment;
    return Math.max(
      attachment.connectedAt,
      this.state.lastSeenAt ?? 0,
      this.ctx.getWebSocketAutoResponseTimestamp(device)?.getTime() ?? 0,
      this.state.watchedSince ?? 0,
    );
  }

  private scheduleLivenessCheck(now: number): void {
    const device = this.deviceSocket();
    if (!device) return;
    const dueAt = Math.max(now, this.lastSignOfLife(device)) + this.livenessLimit() + 1_000;
    this.setTimer("liveness", dueAt);
  }

  private async checkLiveness(now: number): Promise<void> {
    const device = this.deviceSocket();
    if (!device) {
      await this.markOffline();
      return;
    }
    if (now - this.lastSignOfLife(device) > this.livenessLimit()) {
      this.closeQuietly(device, 4008, "No heartbeat");
      await this.markOffline();
      return;
    }
    this.scheduleLivenessCheck(now);
  }

  // ---- helpers ---------------------------------------------------------------------------

  /** The box's open socket that has said hello, ignoring `except` (a socket being closed). */
  private deviceSocket(except?: WebSocket): WebSocket | null {
    for (const ws of this.ctx.getWebSockets(DEVICE_TAG)) {
      if (ws === except || ws.readyState !== WebSocket.OPEN) continue;
      const attachment = ws.deserializeAttachment() as DeviceAttachment | null;
      if (attachment?.helloAt) return ws;
    }
    return null;
  }

  private browserSockets(except?: WebSocket): WebSocket[] {
    return this.ctx
      .getWebSockets(BROWSER_TAG)
      .filter((ws) => ws !== except && ws.readyState === WebSocket.OPEN);
  }

  private debugLogMessage(at: number, line: string): RealtimeMessage {
    return {
      type: "debugLog",
      log: line,
      timestamp: new Date(at).toISOString(),
      mobileNo: this.state.owner?.mobileNo ?? null,
    };
  }

  /** Sends to every open browser socket, or only to those with `tag` (admin viewers). */
  private broadcast(message: RealtimeMessage, tag: string = BROWSER_TAG): void {
    const frame = JSON.stringify(message);
    for (const ws of this.ctx.getWebSockets(tag)) {
      if (ws.readyState === WebSocket.OPEN) this.send(ws, frame);
    }
  }

  private send(ws: WebSocket, message: string | RealtimeMessage | ServerToDeviceMessage): void {
    try {
      ws.send(typeof message === "string" ? message : JSON.stringify(message));
    } catch (error) {
      // A socket that cannot take a frame is broken: close it so the peer reconnects.
      console.error(`DeviceHub ${this.ctx.id.name}: send failed`, error);
      this.closeQuietly(ws, 1011, "Send failed");
    }
  }

  private closeQuietly(ws: WebSocket, code: number, reason: string): void {
    try {
      ws.close(code, reason);
    } catch {
      // Already closed.
    }
  }
}

function emptyHealth(): HealthData {
  return {
    uptime: null,
    signal: null,
    relay: "off",
    chipId: null,
    imei: null,
    mqtt: "disconnected",
    sim: null,
    version: null,
    connection: null,
    reportedAt: null,
  };
}

const SCHEDULE_NOT_FOUND: ScheduleFailure = { ok: false, code: "notFound", message: "Schedule not found." };

function withoutFullStop(text: string): string {
  return text.replace(/\.+$/, "");
}

function scheduleView(row: ScheduleRow): ScheduleView {
  return {
    id: row.id,
    time: formatClock(row.minuteOfDay),
    minuteOfDay: row.minuteOfDay,
    action: row.action === "on" ? "ON" : "OFF",
    repeat: row.repeat,
    durationMinutes: row.durationMinutes,
    nextRunAt: row.nextRunAt === null ? null : new Date(row.nextRunAt).toISOString(),
    lastRun:
      row.lastRunAt === null || row.lastOutcome === null
        ? null
        : {
            at: new Date(row.lastRunAt).toISOString(),
            outcome: row.lastOutcome,
            code: row.lastCode,
            message: row.lastMessage,
          },
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
