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
  DEVICE_FRAME_BURST,
  DEVICE_FRAMES_PER_SECOND,
  DEVICE_PROTOCOL_VERSION,
  deviceMessageSchema,
  HEARTBEAT_REQUEST,
  HEARTBEAT_RESPONSE,
  parseFrame,
  type DeviceCommand,
  type DeviceConfig,
  type DeviceKind,
  type DeviceMessage,
  type Phase,
  type RelayState,
  type ServerToDeviceMessage,
} from "../common/device-protocol.ts";
import {
  splitMotorLogEvent,
  type CommandOrigin,
  type HubFailureCode,
  type MotorLogEvent,
  type ServerReason,
} from "../common/motor-log-event.ts";
import {
  HUB_SAFETY_SUSTAIN_MS,
  NO_CURRENT_ALERT_MS,
  PROTECTION_STARTUP_GRACE_MS,
  provesRunning,
  safetyNetBreachOf,
} from "../common/protection.ts";
import {
  BROWSER_CLOSE,
  type BrowserCloseReason,
  type CommandSource,
  type Fault,
  type MotorStatus,
  type PumpState,
  type StatusSource,
} from "../common/pump-state.ts";
import {
  BROWSER_SOCKETS_PER_DEVICE,
  BROWSER_SOCKETS_PER_VIEWER,
  MAX_BROWSER_FRAME_BYTES,
  type DeviceStatus,
  type HealthData,
  type MotorLogEntry,
  type PowerData,
  type RealtimeMessage,
} from "../common/realtime-protocol.ts";
import { getDb } from "../worker/db/client.ts";
import { findDeviceWithOwner, updateDeviceIdentity, updateDevicePresence } from "../worker/db/devices.ts";
import { activateDevice } from "../worker/db/plans.ts";
import { sendAlert } from "../worker/db/push-alerts.ts";
import { insertMotorLog, listRecentMotorLogs, motorLogEntry, toMotorLogEntry, type MotorLogInsert } from "../worker/db/motor-logs.ts";
import type { MotorLogRow } from "../worker/db/schema.ts";
import {
  MAX_SCHEDULES_PER_DEVICE,
  type ScheduleInput,
  type ScheduleOutcome,
  type ScheduleView,
} from "../common/schedule-schemas.ts";
import { formatClock, istMinuteKey, nextOccurrence } from "../common/schedule-time.ts";
import type { Alert } from "../common/alerts.ts";
import {
  DEVICE_CLOSE,
  FRAME_TOO_BIG_CLOSE,
  HUB_HEADERS,
  type FirmwareOffer,
  type HubFailure,
  type HubSnapshot,
  type HubSocketRefusal,
  type HubStats,
  type MotorCommandResult,
  type PowerSample,
  type ScheduleFailure,
  type ScheduleResult,
  type SwitchRequest,
} from "../common/hub-contract.ts";
import { legacyMotorLogEvent, legacyOrigin } from "./device-hub/legacy-motor-log.ts";
import { HubSql, type ScheduleOffRow, type ScheduleRow } from "./device-hub/sql.ts";
import { DEVICE_FLOOD_COOLDOWN_MS, FrameBudget } from "./device-hub/socket-caps.ts";

type Owner = { userId: number; mobileNo: string };
/** Why a firmware update failed, as its motor log entry says. */
type OtaFailure = Pick<Extract<MotorLogEvent, { kind: "otaFailed" }>, "reason" | "error" | "firmware">;
type Breach = "dryRun" | "overCurrent";

type OtaJob = {
  id: string;
  version: string;
  stage: "sent" | "downloading" | "verifying" | "installing";
  startedAt: number;
};

/** What the hub believes about the motor, since when, and what told it. */
type MotorBelief = { status: MotorStatus; since: number; source: StatusSource };

/** The last switch command sent, kept until the box settles it, so a late answer is still attributed. */
type PendingSwitch = {
  id: string;
  relay: RelayState;
  source: CommandSource;
  /** Who asked, in detail (the schedule, the server's reason): it goes into the motor log. */
  origin: CommandOrigin;
  sentAt: number;
  state: "sent" | "unanswered";
  /** A schedule's run: its outcome is recorded when the box confirms, even late. */
  scheduleRun?: { scheduleId: number; runKey: string };
};

type HubState = {
  owner: Owner | null;
  config: DeviceConfig;
  motor: MotorBelief;
  /** When the motor last went ON; the start-up grace counts from here. */
  relayOnSince: number | null;
  online: boolean;
  /** Last frame of any kind from the box (heartbeats are tracked by the runtime). */
  lastSeenAt: number | null;
  power: PowerData;
  /** When `power` was read (or implied: a confirmed OFF reads 0). */
  powerAt: number | null;
  supply: boolean;
  supplyLostAt: number | null;
  phaseFault: boolean;
  phaseFaultSince: number | null;
  /** The box's own words for the phase fault ("Phase Y missing"). */
  phaseFaultDetail: string | null;
  /** The phase the box named as the fault's cause, if it did. */
  phaseFaultPhase: Phase | null;
  /** Why the motor last stopped, if a protection stopped it; cleared by the next start. */
  trip: { kind: Breach; at: number; current: number | null } | null;
  /** Readings next to zero while ON after the start-up grace, since when; `raised` once surfaced. */
  noCurrent: { since: number; raised: boolean } | null;
  cooldownUntil: number;
  /** When the current watch began; liveness while watched counts from here at the earliest. */
  watchedSince: number | null;
  /** Newest first, at most LIVE_MOTOR_LOG_LIMIT; null until loaded from D1 once. */
  lastLogs: MotorLogEntry[] | null;
  health: HealthData | null;
  kind: DeviceKind | null;
  /** A protection limit the readings have breached since `since` (the safety net). */
  breach: { kind: Breach; since: number } | null;
  pendingSwitch: PendingSwitch | null;
  ota: OtaJob | null;
};

const INITIAL_STATE: HubState = {
  owner: null,
  config: { ...DEFAULT_MOTOR_CONFIG, debug: false, mobileNo: null },
  // Nothing has told this hub anything yet: it cannot say OFF.
  motor: { status: "unknown", since: 0, source: "none" },
  relayOnSince: null,
  online: false,
  lastSeenAt: null,
  power: { current: 0, wattage: 0 },
  powerAt: null,
  supply: true,
  supplyLostAt: null,
  phaseFault: false,
  phaseFaultSince: null,
  phaseFaultDetail: null,
  phaseFaultPhase: null,
  trip: null,
  noCurrent: null,
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
type BrowserAttachment = {
  role: "browser";
  viewerId: number;
  viewerRole: "user" | "admin";
  /** The HTTP session that opened the socket: when it ends, so does the socket. */
  sessionId: string;
  sessionExpiresAt: number;
  /** When the hub accepted it: the per-viewer cap closes the oldest first. */
  openedAt?: number;
};
type SocketAttachment = DeviceAttachment | BrowserAttachment;

/** Tags let getWebSockets() find sockets by role after hibernation. */
const DEVICE_TAG = "device";
const BROWSER_TAG = "browser";
const ADMIN_VIEWER_TAG = "viewer:admin";
const USER_VIEWER_TAG = "viewer:user";
const sessionTag = (sessionId: string) => `session:${sessionId}`;
const userTag = (userId: number) => `user:${userId}`;

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
/** Wakes the hub when the earliest session behind a browser socket runs out. */
const SESSION_EXPIRY_TIMER = "session-expiry";
/** Until when a box cut off for flooding is refused (KV, so a restarted hub still knows). */
const DEVICE_COOLDOWN_KEY = "device-cooldown-until";
/** Frames a command asks of the box: its ack, and the reading or health that comes with it. */
const FRAMES_OWED_PER_COMMAND = 2;
/** How long the error frame and close get to reach a flooding box before the hub restarts. */
const FLOOD_CLOSE_FLUSH_MS = 20;

/** A motor log entry as the hub writes it. */
type MotorLogLine = { action: MotorLogRow["action"]; event: MotorLogEvent };

type AckMessage = Extract<DeviceMessage, { type: "ack" }>;
type HealthMessage = Extract<DeviceMessage, { type: "health" }>;
type PowerMessage = Extract<DeviceMessage, { type: "power" }>;
type FrameWaiter =
  | { type: "health"; resolve: (message: HealthMessage | null) => void }
  | { type: "power"; resolve: (message: PowerMessage | null) => void };

const OFFLINE: HubFailure = { ok: false, code: "offline" };
const NO_CONFIRMATION: HubFailure = { ok: false, code: "timeout" };
const LINK_LOST: HubFailure = { ok: false, code: "linkLost" };
const PHASE_FAULT: HubFailure = { ok: false, code: "phaseFault" };
const NO_SUPPLY: HubFailure = { ok: false, code: "noSupply" };
const BUSY: HubFailure = { ok: false, code: "busy" };

/** Sources by which the box itself told the hub what its relay does. */
const BOX_SOURCES: ReadonlySet<StatusSource> = new Set(["ack", "lateAck", "relayFrame", "hello", "health", "event", "readings"]);

export class DeviceHub extends DurableObject<Env> {
  private state: HubState = INITIAL_STATE;
  private store!: HubSql;
  /** In memory only: a command in flight keeps the object awake until it settles. */
  private pendingAcks = new Map<string, (ack: AckMessage | null) => void>();
  /** Switch commands waiting for their ack right now (memory only: an ack can only be timely while we wait). */
  private switchesInFlight = new Map<string, PendingSwitch>();
  /** The motor log entries still being written, in the order they happened. */
  private motorLogQueue: Promise<void> = Promise.resolve();
  private frameWaiters: FrameWaiter[] = [];
  /** The last pumpState sent to browsers, without its clocks; a cache, so a wake may send one again. */
  private publishedPump: string | null = null;
  /**
   * The box's frame allowance. Per hub, not per socket, so reconnecting does not refill it; in
   * memory, so a hub woken from hibernation (the box was quiet) starts with a full one.
   */
  private deviceFrameBudget = new FrameBudget(DEVICE_FRAME_BURST, DEVICE_FRAMES_PER_SECOND);
  /** The box socket closed for its rate, while frames it sent before the close keep arriving. */
  private floodingDevice: WebSocket | null = null;
  private restarting = false;
  private floodOffline: Promise<void> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Answered by the runtime itself: a heartbeat never wakes a hibernating hub.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(HEARTBEAT_REQUEST, HEARTBEAT_RESPONSE));
    void ctx.blockConcurrencyWhile(async () => {
      this.store = new HubSql(ctx.storage.sql);
      this.state = loadState(ctx.storage.kv.get<StoredState>("state"));
      // A command cannot be waiting for its ack in a hub that just started (a deploy, a crash):
      // whatever it did, nobody will hear its answer in time.
      const pending = this.state.pendingSwitch;
      if (pending?.state === "sent") {
        this.state = {
          ...this.state,
          pendingSwitch: { ...pending, state: "unanswered" },
          motor: { status: "unknown", since: Date.now(), source: "noAnswer" },
          relayOnSince: null,
        };
        ctx.storage.kv.put("state", this.state);
      }
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
    // A box cut off for flooding waits before it may come back (docs/device-protocol.md §2).
    const cooldownUntil = this.ctx.storage.kv.get<number>(DEVICE_COOLDOWN_KEY) ?? 0;
    const wait = Math.ceil((cooldownUntil - Date.now()) / 1000);
    if (wait > 0) {
      // The code and seconds are what the box's firmware acts on; the Worker words them.
      return Response.json({ code: "tooManyFrames", seconds: wait } satisfies HubSocketRefusal, { status: 429 });
    }
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
    const sessionId = request.headers.get(HUB_HEADERS.sessionId) ?? "";
    const sessionExpiresAt = Number(request.headers.get(HUB_HEADERS.sessionExpiresAt)) || Date.now();
    const { 0: client, 1: server } = new WebSocketPair();
    // The Worker found this farmer's pump in D1 a moment ago, but an admin may have relinked it
    // since: accepted only to be closed with the reason, so the page stops and says why.
    if (viewerRole === "user" && !(await this.isOwnedBy(viewerId))) {
      server.accept();
      this.closeQuietly(server, BROWSER_CLOSE.deviceUnlinked, "deviceUnlinked");
      return new Response(null, { status: 101, webSocket: client });
    }
    // Caps (docs/security.md): this viewer's own oldest sockets make room first (tabs left
    // open), so one account can never lock another out; a pump full of other viewers refuses.
    const open = this.browserSockets();
    const mine = open
      .filter((ws) => (ws.deserializeAttachment() as BrowserAttachment | null)?.viewerId === viewerId)
      .sort((a, b) => openedAt(a) - openedAt(b));
    const evicted = mine.slice(0, Math.max(0, mine.length - BROWSER_SOCKETS_PER_VIEWER + 1));
    if (open.length - evicted.length >= BROWSER_SOCKETS_PER_DEVICE) {
      return Response.json({ code: "tooManyViewers", seconds: 60 } satisfies HubSocketRefusal, { status: 429 });
    }
    for (const ws of evicted) this.closeQuietly(ws, BROWSER_CLOSE.tooManyTabs, "tooManyTabs");
    const wasWatched = open.length - evicted.length > 0;
    this.ctx.acceptWebSocket(server, [BROWSER_TAG, `viewer:${viewerRole}`, sessionTag(sessionId), userTag(viewerId)]);
    server.serializeAttachment({
      role: "browser",
      viewerId,
      viewerRole,
      sessionId,
      sessionExpiresAt,
      openedAt: Date.now(),
    } satisfies BrowserAttachment);
    this.send(server, { type: "initialData", ...(await this.snapshot()) } satisfies RealtimeMessage);
    if (viewerRole === "admin") {
      for (const { at, line } of this.store.debugLines()) this.send(server, this.debugLogMessage(at, line));
    }
    // The session's own end closes the socket even if nobody revokes it.
    const expiryDue = this.store.timerDue(SESSION_EXPIRY_TIMER);
    if (expiryDue === null || sessionExpiresAt < expiryDue) this.setTimer(SESSION_EXPIRY_TIMER, sessionExpiresAt);
    if (!wasWatched) this.setWatched(true);
    return new Response(null, { status: 101, webSocket: client });
  }

  private async isOwnedBy(userId: number): Promise<boolean> {
    if (this.state.owner?.userId === userId) return true;
    await this.loadOwnerAndConfig();
    return this.state.owner?.userId === userId;
  }

  override async webSocketMessage(ws: WebSocket, frame: string | ArrayBuffer): Promise<void> {
    // A box cut off for flooding gets nothing more done: the frames it sent before our close
    // still arrive, and each must cost next to nothing. (Any other closing socket's last frames
    // count: a box reports "installing" and closes at once to restart.)
    if (ws === this.floodingDevice) {
      this.dropFlood();
      return;
    }
    const attachment = ws.deserializeAttachment() as SocketAttachment | null;
    if (attachment?.role === "browser") {
      // Browsers only listen (heartbeats are answered without waking us): a big frame is abuse.
      if (frameBytes(frame) > MAX_BROWSER_FRAME_BYTES) this.closeQuietly(ws, FRAME_TOO_BIG_CLOSE, "Frame too large");
      return;
    }
    if (attachment?.role !== "device") return;
    // Counted before any parsing or storage: a flood must not reach D1 or the other hubs' thread.
    if (!this.deviceFrameBudget.take()) {
      this.send(ws, {
        type: "error",
        message: `Too many frames: at most ${DEVICE_FRAME_BURST} at once and ${DEVICE_FRAMES_PER_SECOND} a second.`,
      } satisfies ServerToDeviceMessage);
      this.closeQuietly(ws, DEVICE_CLOSE.tooManyFrames, "Too many frames");
      this.floodingDevice = ws;
      this.ctx.storage.kv.put(DEVICE_COOLDOWN_KEY, Date.now() + DEVICE_FLOOD_COOLDOWN_MS);
      // Offline now, in D1 too: a restart (below) would not run the close handler.
      this.floodOffline = this.markOffline(ws);
      await this.floodOffline;
      return;
    }
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
    this.publishPumpState();
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
      case "ack":
        await this.handleAck(message);
        return;
      case "power":
        await this.handlePower(message, now);
        return;
      case "relay":
        await this.adoptStatedRelay(
          message.relay,
          "relayFrame",
          message.cause === "manual" ? "manual" : message.cause === "schedule" ? "boxSchedule" : "restart",
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
    const supply = message.supply ?? true;
    const phaseFault = message.phaseFault ?? false;
    this.saveState({
      online: true,
      kind: message.kind,
      supply,
      supplyLostAt: supply ? null : (this.state.supplyLostAt ?? now),
      phaseFault,
      phaseFaultSince: phaseFault ? (this.state.phaseFaultSince ?? now) : null,
      phaseFaultDetail: phaseFault ? this.state.phaseFaultDetail : null,
      phaseFaultPhase: phaseFault ? this.state.phaseFaultPhase : null,
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
      this.alert({ kind: "phase", state: this.state.phaseFault ? "fault" : "ok", detail: this.state.phaseFaultDetail });
    }
    await this.finishOtaOnHello(message.firmware);
    // The box is the truth about its relay: a box that restarted (power cut) comes back OFF.
    await this.adoptStatedRelay(message.relay, "hello", "reconnected");
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
    const supply = message.supply ?? this.state.supply;
    this.saveState({ power, powerAt: now, supply, supplyLostAt: supply ? null : (this.state.supplyLostAt ?? now) });
    this.broadcast({ type: "powerDataUpdate", powerData: power });
    this.resolveFrameWaiters("power", message);
    await this.reconcileReadings(power.current, now);
    if (this.state.motor.status === "on") {
      this.store.samplePower(now, power.current, power.wattage);
      if (!this.store.hasTimer("prune-power")) this.setTimer("prune-power", now + POWER_PRUNE_INTERVAL_MS);
    }
    await this.checkSafetyNet(now);
  }

  /**
   * Readings are evidence too. Current proves the motor turns, whatever the hub was told (a
   * welded contactor, a hand on the starter, an ack that was lost). Next to no current while
   * ON is surfaced, but never taken as proof of OFF: a closed relay without supply starts the
   * motor the moment power returns.
   */
  private async reconcileReadings(current: number, now: number): Promise<void> {
    const { motor, config, pendingSwitch } = this.state;
    const running = provesRunning(current, config);
    if (running && motor.status !== "on") {
      // An ON still waiting for its ack is settled by the ack, due within 5 s.
      if (pendingSwitch?.relay === "on" && this.switchesInFlight.has(pendingSwitch.id)) return;
      await this.setMotor("on", "readings", { action: "on", event: { kind: "runningWithoutCommand", current } });
      this.broadcast({ type: "runningWithoutCommand", current });
      this.alert({ kind: "runningWithoutCommand", current });
      return;
    }
    if (motor.status !== "on") return;
    const afterGrace = this.state.relayOnSince !== null && now - this.state.relayOnSince >= PROTECTION_STARTUP_GRACE_MS;
    if (running || !afterGrace) {
      if (this.state.noCurrent) this.saveState({ noCurrent: null });
      return;
    }
    const noCurrent = this.state.noCurrent ?? { since: now, raised: false };
    if (!noCurrent.raised && now - noCurrent.since >= NO_CURRENT_ALERT_MS) {
      this.saveState({ noCurrent: { ...noCurrent, raised: true } });
      await this.recordMotorLog("other", { kind: "noCurrent" });
      this.broadcast({ type: "noCurrent" });
    } else if (!this.state.noCurrent) {
      this.saveState({ noCurrent });
    }
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
    // A health report states the relay: enough to settle a status nobody could vouch for (the
    // farmer's Refresh does this). A status the box confirmed needs no second opinion.
    if (this.state.motor.status === "unknown") await this.adoptStatedRelay(message.relay, "health", "reported");
    await this.syncToD1("signal", (db) =>
      updateDeviceIdentity(db, this.deviceId, { signal: message.signal, firmware: message.version }),
    );
  }

  private async handleEvent(message: Extract<DeviceMessage, { type: "event" }>): Promise<void> {
    const now = Date.now();
    // The box states its relay in every event; a command still without an answer is moot.
    if (this.state.pendingSwitch?.state === "unanswered") this.saveState({ pendingSwitch: null });
    switch (message.event) {
      case "dryRun":
      case "overCurrent": {
        const current = message.current ?? null;
        this.saveState({ breach: null, trip: { kind: message.event, at: now, current } });
        const event: MotorLogEvent = message.event === "dryRun" ? { kind: "tripDryRun", current } : { kind: "tripOverCurrent", current };
        await this.setMotor(message.relay, "event", { action: message.relay, event }, { logAlways: true });
        this.broadcast({ type: message.event === "dryRun" ? "dryRunDetected" : "overCurrentDetected" });
        this.alert({ kind: message.event, current: message.current ?? null });
        return;
      }
      case "phaseFault":
        this.saveState({
          phaseFault: true,
          phaseFaultSince: this.state.phaseFaultSince ?? now,
          phaseFaultDetail: message.detail ?? null,
          phaseFaultPhase: message.phase ?? null,
        });
        await this.setMotor(
          message.relay,
          "event",
          { action: message.relay, event: { kind: "phaseFault", phase: message.phase ?? null, detail: message.detail ?? null } },
          { logAlways: true },
        );
        this.broadcast({ type: "phaseFaultDetected" });
        this.alert({ kind: "phase", state: "fault", detail: message.detail ?? null });
        return;
      case "phaseOk":
        this.saveState({ phaseFault: false, phaseFaultSince: null, phaseFaultDetail: null, phaseFaultPhase: null });
        await this.recordMotorLog("other", { kind: "phaseOk" });
        await this.setMotor(message.relay, "event", { action: message.relay, event: stated(message.relay, "reported") });
        this.broadcast({ type: "phaseOk" });
        this.alert({ kind: "phase", state: "ok", detail: null });
        return;
      case "powerLost":
        this.saveState({ supply: false, supplyLostAt: this.state.supplyLostAt ?? now });
        await this.setMotor(message.relay, "event", { action: message.relay, event: { kind: "powerLost" } }, { logAlways: true });
        this.broadcast({ type: "powerLost" });
        this.alert({ kind: "power", state: "lost" });
        return;
      case "powerRestored":
        this.saveState({ supply: true, supplyLostAt: null });
        await this.recordMotorLog("other", { kind: "powerRestored" });
        this.broadcast({ type: "powerRestored" });
        this.alert({ kind: "power", state: "back" });
        if (message.relay === "on") {
          // A box must never restart a motor by itself after a power cut.
          await this.setMotor("on", "event", { action: "on", event: stated("on", "afterPowerCut") });
          await this.forceOff("restartedAfterPowerCut");
        } else {
          await this.setMotor("off", "event", null);
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
      if (this.deviceSocket(ws) === null) await this.markOffline(ws);
    } else if (attachment?.role === "browser") {
      if (this.browserSockets(ws).length === 0) this.setWatched(false);
    }
  }

  // ---- RPC from the Worker ---------------------------------------------------------------

  /**
   * Switches the motor; succeeds only when the box confirms. OFF is never refused while the box
   * can be reached: not in the cooldown, not while another command is on its way, not during a
   * phase fault or without supply (docs/decisions/009-stopping-is-never-blocked.md). The
   * cooldown only delays an ON after a change, to protect the motor from quick restarts.
   * `origin` says who asked, for the motor log ("by schedule (10:00 AM, daily)").
   */
  async switchMotor(command: SwitchRequest): Promise<MotorCommandResult> {
    const device = this.deviceSocket();
    if (!device) return OFFLINE;
    const now = Date.now();
    if (command.action === "on") {
      if (this.state.phaseFault) return PHASE_FAULT;
      if (!this.state.supply) return NO_SUPPLY;
      if (now < this.state.cooldownUntil) {
        return { ok: false, code: "cooldown", retryAfterMs: this.state.cooldownUntil - now };
      }
      if (this.switchesInFlight.size > 0) return BUSY;
    }
    const id = crypto.randomUUID();
    const run = command.scheduleRun;
    const pending: PendingSwitch = {
      id,
      relay: command.action,
      source: commandSourceOf(command.origin),
      origin: command.origin,
      sentAt: now,
      state: "sent",
      ...(run ? { scheduleRun: { scheduleId: run.scheduleId, runKey: run.runKey } } : {}),
    };
    // The cooldown starts when the command leaves for the box, whatever the outcome: a relay
    // that may have switched must not be switched on again straight away.
    this.saveState({ cooldownUntil: now + MOTOR_COOLDOWN_MS, pendingSwitch: pending });
    if (command.action === "on" && run?.offAfterMinutes) {
      // Owed from the moment the ON leaves: whether its answer comes in time, late or never, a
      // motor this schedule may have started stops after N minutes (stopping an idle one is harmless).
      const dueAt = now + run.offAfterMinutes * 60_000;
      this.store.setScheduleOff({ scheduleId: run.scheduleId, plannedAt: dueAt, dueAt, afterMinutes: run.offAfterMinutes, attempts: 0 });
      this.syncScheduleTimer();
    }
    this.switchesInFlight.set(id, pending);
    this.publishPumpState();
    const ack = await this.sendCommand(device, { type: "switch", id, relay: command.action });
    this.switchesInFlight.delete(id);
    if (ack === null) {
      const linkLost = this.deviceSocket() === null;
      await this.commandUnanswered(pending, linkLost ? "linkLost" : "noAnswer");
      return linkLost ? LINK_LOST : NO_CONFIRMATION;
    }
    await this.settleSwitch(pending, ack, "ack");
    if (!ack.ok) return { ok: false, code: "rejected", ...(ack.error ? { error: ack.error } : {}) };
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
    await this.recordMotorLog("other", { kind: "mobileNoChanged", mobileNo });
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

  /**
   * Answers and does nothing else: the health check's round trip (GET /api/health), made on a
   * hub of its own that no box ever connects to.
   */
  async ping(): Promise<"pong"> {
    return "pong";
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
      return { ok: false, code: "otaBusy", version: running.version };
    }
    const id = crypto.randomUUID();
    const ack = await this.sendCommand(device, { type: "ota", id, ...offer });
    if (ack === null) return NO_CONFIRMATION;
    if (!ack.ok) {
      await this.recordMotorLog("other", { kind: "otaRefused", version: offer.version, error: ack.error ?? null });
      return { ok: false, code: "otaRejected", ...(ack.error ? { error: ack.error } : {}) };
    }
    const now = Date.now();
    this.saveState({ ota: { id, version: offer.version, stage: "sent", startedAt: now } });
    this.setTimer("ota-timeout", now + OTA_TIMEOUT_MS);
    await this.recordMotorLog("other", { kind: "otaStarted", version: offer.version });
    this.broadcastOta(offer.version, "sent");
    return { ok: true };
  }

  /** Ownership changed in D1 (assignment, deletion): pick up the new owner and config. */
  async refreshOwner(): Promise<void> {
    await this.loadOwnerAndConfig();
    // No farmer keeps watching a pump that is no longer theirs; admins may watch any.
    const ownerId = this.state.owner?.userId ?? null;
    for (const ws of this.ctx.getWebSockets(USER_VIEWER_TAG)) {
      const attachment = ws.deserializeAttachment() as BrowserAttachment | null;
      if (attachment?.viewerId !== ownerId) this.closeBrowser(ws, "deviceUnlinked");
    }
    // A new owner (or none) must never inherit the previous owner's schedules.
    this.store.deleteSchedulesNotOwnedBy(this.state.owner?.userId ?? null);
    this.syncScheduleTimer();
    const device = this.deviceSocket();
    if (device) await this.sendCommand(device, { type: "config", id: crypto.randomUUID(), config: this.state.config });
  }

  /**
   * Sessions ended or an account lost access (worker/auth/session-sockets.ts): the browser
   * sockets they opened close now, with the reason as a close code. Returns how many closed.
   */
  async closeViewerSockets(
    target: { sessionIds: string[] } | { userId: number; viewerRole?: "user" | "admin" },
    reason: BrowserCloseReason,
  ): Promise<number> {
    const sockets =
      "sessionIds" in target
        ? target.sessionIds.flatMap((sessionId) => this.ctx.getWebSockets(sessionTag(sessionId)))
        : this.ctx.getWebSockets(userTag(target.userId)).filter((ws) => {
            const attachment = ws.deserializeAttachment() as BrowserAttachment | null;
            return target.viewerRole === undefined || attachment?.viewerRole === target.viewerRole;
          });
    for (const ws of sockets) this.closeBrowser(ws, reason);
    return sockets.length;
  }

  private closeBrowser(ws: WebSocket, reason: BrowserCloseReason): void {
    this.closeQuietly(ws, BROWSER_CLOSE[reason], reason);
    if (this.browserSockets(ws).length === 0 && this.state.watchedSince !== null) this.setWatched(false);
  }

  /** Closes the sockets whose session has run out, and waits for the next one to. */
  private closeExpiredSessions(now: number): void {
    let next: number | null = null;
    for (const ws of this.ctx.getWebSockets(BROWSER_TAG)) {
      const attachment = ws.deserializeAttachment() as BrowserAttachment | null;
      if (!attachment || ws.readyState !== WebSocket.OPEN) continue;
      if (attachment.sessionExpiresAt <= now) this.closeBrowser(ws, "sessionExpired");
      else next = Math.min(next ?? Infinity, attachment.sessionExpiresAt);
    }
    if (next !== null) this.store.setTimer(SESSION_EXPIRY_TIMER, next);
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
      return { ok: false, code: "limit", max: MAX_SCHEDULES_PER_DEVICE };
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
    return { ok: false, code: "conflict", minuteOfDay };
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
    const { minuteOfDay } = schedule;
    /** `error`: the box's own words when it refused; the page shows them. */
    const finish = async (outcome: ScheduleOutcome, code: string | null, error: string | null, log?: MotorLogEvent) => {
      this.store.recordScheduleOutcome(schedule.id, runKey, outcome, code, error);
      if (log) await this.recordMotorLog("other", log);
      this.alert({ kind: "schedule", outcome, action, minuteOfDay: schedule.minuteOfDay, reason: code });
    };
    if (now - scheduledAt > SCHEDULE_LATE_LIMIT_MS) {
      await finish("missed", "late", null, { kind: "scheduleMissed", action, minuteOfDay, reason: "late" });
      return;
    }
    const origin: CommandOrigin = {
      by: "schedule",
      minuteOfDay,
      repeat: schedule.repeat,
      forMinutes: action === "on" && schedule.durationMinutes ? schedule.durationMinutes : null,
    };
    const result = await this.switchForSchedule(action, origin, {
      scheduleId: schedule.id,
      runKey,
      offAfterMinutes: action === "on" ? schedule.durationMinutes : null,
    });
    if (result.ok) {
      await finish("done", null, null);
      return;
    }
    if (result.code === "offline") {
      await finish("missed", "offline", null, { kind: "scheduleMissed", action, minuteOfDay, reason: "offline" });
      return;
    }
    if (result.code === "timeout" || result.code === "linkLost") {
      // Logged already, saying the motor may be running; a late answer still completes the run.
      await finish("failed", result.code, null);
      return;
    }
    const failure = commandFailure(result);
    await finish("failed", failure.code, failure.error, { kind: "scheduleNotRun", action, minuteOfDay, failure });
  }

  /** "ON for N minutes" is over: switch off, unless the motor already stopped. */
  private async runScheduleOff(off: ScheduleOffRow): Promise<void> {
    // Only a confirmed OFF lets it go: `unknown` may be running.
    if (this.state.motor.status === "off") {
      this.store.deleteScheduleOff(off.scheduleId);
      return;
    }
    const now = Date.now();
    if (now - off.plannedAt > SCHEDULE_OFF_GIVE_UP_MS) {
      this.store.deleteScheduleOff(off.scheduleId);
      await this.recordMotorLog("other", { kind: "scheduleOffGivenUp", afterMinutes: off.afterMinutes });
      return;
    }
    // Claimed by moving the next attempt on: a second delivery finds nothing due, and a crash
    // mid-attempt is retried a minute later. Stopping a motor twice does no harm.
    this.store.setScheduleOff({ ...off, dueAt: now + SCHEDULE_OFF_RETRY_MS, attempts: off.attempts + 1 });
    const result = await this.switchForSchedule("off", { by: "scheduleOff", afterMinutes: off.afterMinutes });
    if (result.ok) {
      this.store.deleteScheduleOff(off.scheduleId);
      return;
    }
    if (off.attempts === 0) {
      await this.recordMotorLog("other", { kind: "scheduleOffFailed", afterMinutes: off.afterMinutes, failure: commandFailure(result) });
    }
  }

  /**
   * A schedule's switch, through the same path as the app's (offline, phase fault, cooldown
   * and logging all apply). A cooldown or a command in flight is waited out once: a farmer who
   * switched by hand a few seconds before the schedule still gets the schedule.
   */
  private async switchForSchedule(
    action: RelayState,
    origin: CommandOrigin,
    scheduleRun?: SwitchRequest["scheduleRun"],
  ): Promise<MotorCommandResult> {
    const request: SwitchRequest = { action, origin, ...(scheduleRun ? { scheduleRun } : {}) };
    const result = await this.switchMotor(request);
    if (result.ok || (result.code !== "cooldown" && result.code !== "busy")) return result;
    await new Promise((resolve) => setTimeout(resolve, (result.retryAfterMs ?? DEVICE_ACK_TIMEOUT_MS) + 250));
    return this.switchMotor(request);
  }

  // ---- what the hub believes about the motor --------------------------------------------

  /**
   * The one place the hub's belief about the motor changes. `log` is written when the status
   * changed, or whenever `logAlways` (a confirmed command is logged even if it changed nothing).
   */
  private async setMotor(
    status: MotorStatus,
    source: StatusSource,
    log: MotorLogLine | null,
    options: { logAlways?: boolean } = {},
  ): Promise<void> {
    const now = Date.now();
    const previous = this.state.motor;
    const changed = previous.status !== status;
    if (changed || previous.source !== source) {
      const changes: Partial<HubState> = { motor: { status, since: changed ? now : previous.since, source } };
      if (changed) {
        changes.relayOnSince = status === "on" ? now : null;
        changes.breach = null;
        changes.noCurrent = null;
        // A start answers the last trip; its banner has nothing left to explain.
        if (status === "on") changes.trip = null;
        // An open relay carries no current; the box's next reading says so or contradicts it.
        if (status === "off") Object.assign(changes, { power: ZERO_POWER, powerAt: now });
        if (status !== "unknown" && this.state.health) changes.health = { ...this.state.health, relay: status };
      }
      this.saveState(changes);
    }
    if (changed) {
      this.broadcast({ type: "motorStatusUpdate", status });
      if (status === "off") {
        this.broadcast({ type: "powerDataUpdate", powerData: ZERO_POWER });
        // Whoever stopped it, a schedule's "ON for N minutes" has nothing left to switch off
        // (and must not stop a run someone starts later). Not so for `unknown`: it may run.
        this.store.clearScheduleOffs();
        this.syncScheduleTimer();
      }
    }
    // The first thing a new hub hears is no news when it is OFF.
    const firstWord = previous.source === "none" && status === "off";
    if (log && !firstWord && (changed || options.logAlways)) await this.recordMotorLog(log.action, log.event);
    this.publishPumpState();
  }

  /** The box answered a switch command (in time, or late): it did what it says it did. */
  private async settleSwitch(command: PendingSwitch, ack: AckMessage, source: "ack" | "lateAck"): Promise<void> {
    if (this.state.pendingSwitch?.id === command.id) this.saveState({ pendingSwitch: null });
    if (!ack.ok) {
      if (command.scheduleRun && ack.relay === "off") this.store.deleteScheduleOff(command.scheduleRun.scheduleId);
      await this.setMotor(ack.relay, source, { action: ack.relay, event: stated(ack.relay, "reported") });
      return;
    }
    const late = source === "lateAck";
    // A late answer owes what a timely one does, the cooldown included.
    if (late) this.saveState({ cooldownUntil: Math.max(this.state.cooldownUntil, Date.now() + MOTOR_COOLDOWN_MS) });
    await this.setMotor(
      ack.relay,
      source,
      { action: ack.relay, event: { kind: "switched", relay: ack.relay, origin: command.origin, confirmed: late ? "late" : "inTime" } },
      { logAlways: true },
    );
    if (late && command.scheduleRun && ack.relay === command.relay) {
      this.store.recordScheduleOutcome(command.scheduleRun.scheduleId, command.scheduleRun.runKey, "done", "confirmedLate", null);
      this.alertScheduleDone(command.scheduleRun.scheduleId, command.relay);
    }
  }

  /** A switch got no answer in 5 s, or its box dropped first: the motor may or may not have switched. */
  private async commandUnanswered(command: PendingSwitch, how: "noAnswer" | "linkLost"): Promise<void> {
    const pending = this.state.pendingSwitch;
    if (pending?.id !== command.id) return; // a newer command, or the box settled this one meanwhile
    this.saveState({ pendingSwitch: { ...pending, state: "unanswered" } });
    // Something the box said since the command left may have settled it already (a reading
    // that proves the motor runs).
    const motor = this.state.motor;
    if (motor.status !== "unknown" && motor.since >= command.sentAt && BOX_SOURCES.has(motor.source)) {
      this.publishPumpState();
      return;
    }
    await this.setMotor(
      "unknown",
      how,
      { action: "other", event: { kind: "unconfirmed", relay: command.relay, origin: command.origin, why: how } },
      { logAlways: true },
    );
  }

  /**
   * The box stated its relay without being asked (hello, relay frame, health): believed. A
   * command whose answer was lost is settled by it: carried out if the relay is as asked.
   */
  private async adoptStatedRelay(relay: RelayState, source: StatusSource, how: StatedHow): Promise<void> {
    const pending = this.state.pendingSwitch;
    if (pending && !this.switchesInFlight.has(pending.id)) {
      this.saveState({ pendingSwitch: null });
      if (relay === pending.relay) {
        const confirmed = source === "hello" ? "onReconnect" : "late";
        await this.setMotor(
          relay,
          source,
          { action: relay, event: { kind: "switched", relay, origin: pending.origin, confirmed } },
          { logAlways: true },
        );
        if (pending.scheduleRun) {
          this.store.recordScheduleOutcome(pending.scheduleRun.scheduleId, pending.scheduleRun.runKey, "done", "confirmedLate", null);
          this.alertScheduleDone(pending.scheduleRun.scheduleId, pending.relay);
        }
        return;
      }
    }
    await this.setMotor(relay, source, { action: relay, event: stated(relay, how) });
  }

  /** An ack the hub waits for no more: a switch's is adopted as a late confirmation. */
  private async handleAck(ack: AckMessage): Promise<void> {
    const waiter = this.pendingAcks.get(ack.id);
    if (waiter) {
      waiter(ack); // the command's caller settles it
      return;
    }
    const pending = this.state.pendingSwitch;
    if (pending?.id === ack.id) {
      await this.settleSwitch(pending, ack, "lateAck");
      return;
    }
    // The ack of a command this hub no longer tracks (superseded by a newer one): the box still
    // tells the truth about its relay.
    await this.setMotor(ack.relay, "lateAck", { action: ack.relay, event: stated(ack.relay, "reported") });
  }

  /** Switches the motor off for safety (OFF ignores the cooldown). True when the box confirmed. */
  private async forceOff(reason: ServerReason): Promise<boolean> {
    const result = await this.switchMotor({ action: "off", origin: { by: "server", reason } });
    if (result.ok && result.status === "off") return true;
    // No answer is already logged, with the motor's status now unknown; a refusal is not.
    if (result.ok || result.code === "rejected") {
      await this.recordMotorLog("other", { kind: "serverOffFailed", reason });
    }
    return false;
  }

  /**
   * The safety net: the box should trip within seconds of a breach; if readings still breach
   * a protection limit HUB_SAFETY_SUSTAIN_MS later, the hub switches the motor off itself.
   */
  private async checkSafetyNet(now: number): Promise<void> {
    const { motor, relayOnSince, power, breach, config } = this.state;
    if (motor.status !== "on" || relayOnSince === null || now - relayOnSince < PROTECTION_STARTUP_GRACE_MS) {
      if (breach) this.saveState({ breach: null });
      return;
    }
    const kind = safetyNetBreachOf(power.current, config);
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
    const current = power.current;
    if (await this.forceOff(kind === "dryRun" ? "dryRunNotStopped" : "overCurrentNotStopped")) {
      this.saveState({ trip: { kind, at: Date.now(), current } });
      this.publishPumpState();
      this.broadcast({ type: kind === "dryRun" ? "dryRunDetected" : "overCurrentDetected" });
      this.alert({ kind, current });
    }
  }

  /** `gone`: the box's socket that just closed, whose last heartbeat still counts as a sign of life. */
  private async markOffline(gone?: WebSocket): Promise<void> {
    for (const resolve of this.pendingAcks.values()) resolve(null);
    for (const waiter of this.frameWaiters.splice(0)) waiter.resolve(null);
    if (!this.state.online) return;
    const now = Date.now();
    // The last reading stays, with its time: an offline box's motor is not known to draw 0 A.
    this.saveState({
      online: false,
      lastSeenAt: gone ? this.lastHeardFrom(gone) : this.state.lastSeenAt,
      breach: null,
      noCurrent: null,
      health: this.state.health ? { ...this.state.health, mqtt: "disconnected" } : null,
    });
    this.broadcast({ type: "deviceStatusUpdate", deviceStatus: "offline" });
    // Offline is no news when the motor was OFF; while it ran, nobody can now stop it from here.
    if (this.state.motor.status === "on") this.alert({ kind: "offlineWhileOn", lastSeenAt: this.state.lastSeenAt });
    this.deleteTimer("liveness");
    this.publishPumpState();
    await this.syncToD1("presence", (db) =>
      updateDevicePresence(db, this.deviceId, { online: false, lastSeenAt: this.state.lastSeenAt ?? now }),
    );
  }

  // ---- what the hub vouches for, as browsers and the API see it ---------------------------

  private pumpState(now = Date.now()): PumpState {
    const device = this.deviceSocket();
    const online = this.state.online && device !== null;
    const pending = this.state.pendingSwitch;
    return {
      status: this.state.motor.status,
      statusSince: this.state.motor.since,
      statusSource: this.state.motor.source,
      deviceStatus: online ? "online" : "offline",
      lastSeenAt: device ? this.lastHeardFrom(device) : this.state.lastSeenAt,
      pendingCommand: pending ? { action: pending.relay, source: pending.source, sentAt: pending.sentAt, state: pending.state } : null,
      cooldownUntil: this.state.cooldownUntil,
      faults: faultsOf(this.state),
      powerDataAt: this.state.powerAt,
      at: now,
    };
  }

  /** Sends browsers the pump's state when it means something new (its clocks alone are no news). */
  private publishPumpState(): void {
    const pump = this.pumpState();
    const { at: _at, lastSeenAt: _lastSeenAt, ...meaning } = pump;
    const key = JSON.stringify(meaning);
    if (key === this.publishedPump) return;
    this.publishedPump = key;
    this.broadcast({ type: "pumpState", pump });
  }

  /** The box's last frame or heartbeat on `device`. */
  private lastHeardFrom(device: WebSocket): number | null {
    const heartbeat = this.ctx.getWebSocketAutoResponseTimestamp(device)?.getTime() ?? null;
    const frame = this.state.lastSeenAt;
    if (heartbeat === null) return frame;
    return frame === null ? heartbeat : Math.max(frame, heartbeat);
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
      await this.failOta({ reason: "box", error: message.error ?? null, firmware: null });
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
      await this.recordMotorLog("other", { kind: "otaDone", version: job.version });
      this.broadcastOta(job.version, "done");
    } else if (job.stage === "installing") {
      await this.failOta({ reason: "otherVersion", error: null, firmware });
    }
  }

  private async failOta(failure: OtaFailure): Promise<void> {
    const job = this.state.ota;
    if (!job) return;
    this.saveState({ ota: null });
    this.deleteTimer("ota-timeout");
    const event: MotorLogEvent = { kind: "otaFailed", version: job.version, ...failure };
    await this.recordMotorLog("other", event);
    this.broadcastOta(job.version, "failed", null, failure);
  }

  private broadcastOta(
    version: string,
    stage: "sent" | "downloading" | "verifying" | "installing" | "done" | "failed",
    progress: number | null = null,
    failure: OtaFailure | null = null,
  ): void {
    this.broadcast({
      type: "otaStatus",
      version,
      stage,
      progress,
      error: failure?.error ?? null,
      reason: failure?.reason ?? null,
      firmware: failure?.firmware ?? null,
    });
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
      // The box owes an answer (its ack, and the reading or health it reports with it): those
      // frames are ours, not the box's, and never count against its rate.
      this.deviceFrameBudget.grant(FRAMES_OWED_PER_COMMAND);
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

  /**
   * Entries are written one after another: each waits on D1, and two events of the same
   * millisecond (a phase lost and back) would otherwise reach D1, and the list, swapped.
   */
  private recordMotorLog(action: MotorLogRow["action"], event: MotorLogEvent): Promise<void> {
    const now = Date.now();
    const written = this.motorLogQueue.then(() => this.writeMotorLog(action, event, now));
    this.motorLogQueue = written.catch(() => undefined);
    return written;
  }

  private async writeMotorLog(action: MotorLogRow["action"], event: MotorLogEvent, now: number): Promise<void> {
    const owner = this.state.owner;
    const row: OutboxRow = {
      deviceId: this.deviceId,
      userId: owner?.userId ?? null,
      mobileNo: owner?.mobileNo ?? null,
      action,
      event,
      createdAt: now,
    };
    // Read before this entry exists in D1, or a first load would list it twice.
    const previous = await this.loadLastLogs();
    // Outbox first: if D1 is unreachable the log waits here and the alarm retries it.
    const outboxId = this.store.addToOutbox(row);
    let entry: MotorLogEntry = motorLogEntry(-outboxId, action, event, now);
    try {
      entry = toMotorLogEntry(await this.flushLog(outboxId, row));
    } catch (error) {
      console.error(`DeviceHub ${this.deviceId}: D1 log write failed, will retry`, error);
      this.setTimer("flush-logs", now + LOG_FLUSH_RETRY_MS);
    }
    // Another log may have been written while this one waited for D1: build on the newest list.
    const base = this.state.lastLogs ?? previous;
    const lastLogs = [entry, ...base.filter((log) => log.id !== entry.id)].slice(0, LIVE_MOTOR_LOG_LIMIT);
    this.saveState({ lastLogs });
    this.broadcast({ type: "motorLogUpdate", log: entry });
  }

  private async flushLog(outboxId: number, row: OutboxRow): Promise<MotorLogRow> {
    const stored = await insertMotorLog(getDb(this.env.DB), { ...row, hubRef: `${this.deviceId}:${outboxId}` });
    this.store.removeFromOutbox(outboxId);
    return stored;
  }

  private async flushOutbox(): Promise<void> {
    for (const { id, row } of this.store.outbox<OutboxRow | LegacyOutboxRow>()) {
      try {
        await this.flushLog(id, outboxRowOf(row));
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
    const lastLogs = rows.map((row) => toMotorLogEntry(row));
    this.saveState({ lastLogs });
    return lastLogs;
  }

  private async snapshot(): Promise<HubSnapshot> {
    const pump = this.pumpState();
    const online = pump.deviceStatus === "online";
    return {
      motorStatus: pump.status,
      deviceStatus: pump.deviceStatus,
      powerData: this.state.power,
      lastLogs: await this.loadLastLogs(),
      phaseFault: this.state.phaseFault,
      health: this.state.health ? { ...this.state.health, mqtt: online ? "connected" : "disconnected" } : null,
      debug: this.state.config.debug,
      pump,
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
            await this.failOta({ reason: "timeout", error: null, firmware: null });
          }
          break;
        case "debug-off":
          if (this.state.config.debug) await this.updateConfig({ debug: false });
          break;
        case "prune-power":
          this.store.prunePowerHistory(now);
          if (this.state.motor.status === "on") this.store.setTimer("prune-power", now + POWER_PRUNE_INTERVAL_MS);
          break;
        case SCHEDULES_TIMER:
          break; // only a wake-up: due schedules run below, whatever woke the hub
        case SESSION_EXPIRY_TIMER:
          this.closeExpiredSessions(now);
          break;
        default:
          console.error(`DeviceHub ${this.deviceId}: unknown timer ${name}`);
      }
    }
    await this.runDueSchedules();
    this.syncAlarm();
    this.publishPumpState();
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
    // Counted from the last sign of life, not from now: a check that finds the box alive must
    // not push the deadline a whole period further (a silent watched box then took 35 s to
    // show offline instead of 15).
    const dueAt = Math.max(now + 100, this.lastSignOfLife(device) + this.livenessLimit() + 500);
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
      await this.markOffline(device);
      return;
    }
    this.scheduleLivenessCheck(now);
  }

  // ---- alerts with the app closed ---------------------------------------------------------

  /**
   * Tells the owner's phones (Web Push), each in its own language. Never awaited: a push service
   * that is slow or down must not hold up a command, a broadcast or an alarm
   * (worker/db/push-alerts.ts times out and logs every failure).
   */
  private alert(alert: Alert): void {
    const owner = this.state.owner;
    if (!owner) return;
    this.ctx.waitUntil(sendAlert(this.env, owner.userId, alert));
  }

  /** A scheduled run the box confirmed late: its alert replaces the "not carried out" one. */
  private alertScheduleDone(scheduleId: number, action: RelayState): void {
    const schedule = this.store.schedule(scheduleId);
    if (schedule) this.alert({ kind: "schedule", outcome: "done", action, minuteOfDay: schedule.minuteOfDay, reason: null });
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

  /**
   * Frames a flooding box sent before our close keep arriving, thousands of them, and the
   * runtime hands each one to us: locally that alone held every other hub (and D1, on the same
   * thread) for seconds. Restarting the hub drops its connections, and with them whatever is
   * still on its way, unread. Everything the hub knows is in storage (the cooldown too); the
   * pages watching it reconnect by themselves. A moment's delay lets the error frame and the
   * close reach the box first.
   */
  private dropFlood(): void {
    if (this.restarting) return;
    this.restarting = true;
    console.warn(`DeviceHub ${this.ctx.id.name}: restarting to drop a flooding box's frames`);
    const flushed = new Promise((resolve) => setTimeout(resolve, FLOOD_CLOSE_FLUSH_MS));
    void Promise.all([this.floodOffline, flushed]).then(() => this.ctx.abort("A flooding box's frames were dropped"));
  }

  private closeQuietly(ws: WebSocket, code: number, reason: string): void {
    try {
      ws.close(code, reason);
    } catch {
      // Already closed.
    }
  }
}

function openedAt(ws: WebSocket): number {
  return (ws.deserializeAttachment() as BrowserAttachment | null)?.openedAt ?? 0;
}

/** A frame's size in bytes. */
function frameBytes(frame: string | ArrayBuffer): number {
  if (typeof frame !== "string") return frame.byteLength;
  // UTF-8 takes one to three bytes per UTF-16 unit: encode only when the length cannot decide.
  if (frame.length > MAX_BROWSER_FRAME_BYTES || frame.length * 3 <= MAX_BROWSER_FRAME_BYTES) return frame.length;
  return new TextEncoder().encode(frame).byteLength;
}

/** The conditions a farmer must see, each until it clears. */
function faultsOf(state: HubState): Fault[] {
  const faults: Fault[] = [];
  if (state.trip) faults.push({ kind: state.trip.kind, since: state.trip.at, current: state.trip.current });
  if (state.phaseFault) {
    faults.push({
      kind: "phaseFault",
      since: state.phaseFaultSince ?? state.motor.since,
      detail: state.phaseFaultDetail,
      phase: state.phaseFaultPhase,
    });
  }
  if (!state.supply) faults.push({ kind: "noSupply", since: state.supplyLostAt ?? state.motor.since });
  if (state.motor.status === "on" && state.motor.source === "readings") {
    faults.push({ kind: "runningWithoutCommand", since: state.motor.since });
  }
  if (state.motor.status === "on" && state.noCurrent?.raised) faults.push({ kind: "noCurrent", since: state.noCurrent.since });
  return faults;
}

/**
 * What older hubs stored: the relay as plain on/off, before the hub said what it could vouch
 * for; a pending command's origin as a sentence (`note`); recent logs without kinds.
 */
type StoredState = Omit<Partial<HubState>, "pendingSwitch" | "lastLogs"> & {
  relay?: RelayState;
  pendingSwitch?: (Omit<PendingSwitch, "origin"> & { origin?: CommandOrigin; note?: string }) | null;
  lastLogs?: (Omit<MotorLogEntry, "kind" | "params"> & Partial<Pick<MotorLogEntry, "kind" | "params">>)[] | null;
};

function loadState(stored: StoredState | undefined): HubState {
  if (!stored) return INITIAL_STATE;
  const { relay, pendingSwitch, lastLogs, ...rest } = stored;
  const state: HubState = { ...INITIAL_STATE, ...rest };
  if (!rest.motor && relay) state.motor = { status: relay, since: Date.now(), source: "hello" };
  if (pendingSwitch) {
    const { note, origin, ...pending } = pendingSwitch;
    const known = origin ?? legacyOrigin(pending.source, note);
    // A command whose origin cannot be read back is forgotten; whatever it did, the box's next
    // word about its relay is believed (a status of `unknown` stays so until then).
    state.pendingSwitch = known ? { ...pending, origin: known } : null;
  }
  // A copy of D1's newest entries: reloaded from D1, whose rows migration 0007 gave kinds.
  state.lastLogs = lastLogs?.every((log) => log.kind !== undefined && log.params !== undefined) ? (lastLogs as MotorLogEntry[]) : null;
  return state;
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

const SCHEDULE_NOT_FOUND: ScheduleFailure = { ok: false, code: "notFound" };

/** How the box stated its relay without a command of ours. */
type StatedHow = Extract<MotorLogEvent, { kind: "stated" }>["how"];

function stated(relay: RelayState, how: StatedHow): MotorLogEvent {
  return { kind: "stated", relay, how };
}

/** The pump state's coarse source of a command. */
function commandSourceOf(origin: CommandOrigin): CommandSource {
  return origin.by === "scheduleOff" ? "schedule" : origin.by;
}

/** A refusal as a schedule's log entry and outcome keep it. */
function commandFailure(failure: HubFailure): { code: HubFailureCode; error: string | null } {
  const code = failure.code === "otaBusy" ? "busy" : failure.code === "otaRejected" ? "rejected" : failure.code;
  return { code, error: failure.error ?? null };
}

/** A motor log waiting in the outbox for D1. */
type OutboxRow = Omit<MotorLogInsert, "hubRef">;
/** What hubs stored in the outbox before entries had kinds: the sentence. */
type LegacyOutboxRow = Omit<OutboxRow, "event"> & { message: string };

function outboxRowOf(row: OutboxRow | LegacyOutboxRow): OutboxRow {
  if ("event" in row) return row;
  const { message, ...rest } = row;
  return { ...rest, event: legacyMotorLogEvent(message) };
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
            error: row.lastError,
          },
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
