// One DeviceHub per controller box, addressed by the box's stable device id.
// It holds the device's WebSocket and the browsers watching it (hibernation API), is the
// source of truth for relay, presence, cooldown and the last motor logs, and writes every
// motor log to D1 through an outbox so a failed D1 write is retried, never lost or doubled.
import { DurableObject } from "cloudflare:workers";
import {
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
  type DeviceMessage,
  type RelayState,
  type ServerToDeviceMessage,
} from "../common/device-protocol.ts";
import type {
  DeviceStatus,
  MotorLogEntry,
  PowerData,
  RealtimeMessage,
} from "../common/realtime-protocol.ts";
import { getDb } from "../worker/db/client.ts";
import { updateDeviceIdentity, updateDevicePresence } from "../worker/db/devices.ts";
import { insertMotorLog, listRecentMotorLogs, toMotorLogEntry } from "../worker/db/motor-logs.ts";
import type { MotorLogRow } from "../worker/db/schema.ts";
import { HUB_HEADERS } from "./hub-headers.ts";

/** Who owns the box; logs written for device-side events carry this account. */
type Owner = { userId: number; mobileNo: string };

type HubState = {
  owner: Owner | null;
  relay: RelayState;
  online: boolean;
  /** Last frame of any kind from the device (heartbeats are tracked by the runtime). */
  lastSeenAt: number | null;
  power: PowerData;
  cooldownUntil: number;
  /** When the current watch began; liveness while watched counts from here at the earliest. */
  watchedSince: number | null;
  /** Newest first, at most LIVE_MOTOR_LOG_LIMIT; null until loaded from D1 once. */
  lastLogs: MotorLogEntry[] | null;
};

const INITIAL_STATE: HubState = {
  owner: null,
  relay: "off",
  online: false,
  lastSeenAt: null,
  power: { current: 0, wattage: 0 },
  cooldownUntil: 0,
  watchedSince: null,
  lastLogs: null,
};

type DeviceAttachment = { role: "device"; connectedAt: number; helloAt: number | null };
type BrowserAttachment = { role: "browser"; viewerId: number; viewerRole: "user" | "admin" };
type SocketAttachment = DeviceAttachment | BrowserAttachment;

/** Tags let getWebSockets() find sockets by role after hibernation. */
const DEVICE_TAG = "device";
const BROWSER_TAG = "browser";

export type MotorCommand = { action: RelayState; requestedBy: Owner };

export type MotorCommandResult =
  | { ok: true; status: RelayState }
  | {
      ok: false;
      code: "offline" | "cooldown" | "busy" | "timeout" | "rejected";
      message: string;
      retryAfterMs?: number;
    };

export type HubSnapshot = {
  motorStatus: RelayState;
  deviceStatus: DeviceStatus;
  powerData: PowerData;
  lastLogs: MotorLogEntry[];
};

type AckMessage = Extract<DeviceMessage, { type: "ack" }>;
type PendingCommand = { resolve: (ack: AckMessage | null) => void };

const LOG_FLUSH_RETRY_MS = 30_000;

export class DeviceHub extends DurableObject<Env> {
  private state: HubState = INITIAL_STATE;
  /** In memory only: a command in flight keeps the object awake, so nothing is lost here. */
  private pendingCommands = new Map<string, PendingCommand>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Answered by the runtime itself: a heartbeat never wakes a hibernating hub.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(HEARTBEAT_REQUEST, HEARTBEAT_RESPONSE));
    void ctx.blockConcurrencyWhile(async () => {
      ctx.storage.sql.exec(`
        CREATE TABLE IF NOT EXISTS timers (name TEXT PRIMARY KEY, due_at INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS log_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, row TEXT NOT NULL);
      `);
      this.state = { ...INITIAL_STATE, ...ctx.storage.kv.get<HubState>("state") };
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
    if (role === "device") return this.acceptDevice(request);
    if (role === "browser") return this.acceptBrowser(request);
    return new Response("Unknown socket role", { status: 400 });
  }

  private acceptDevice(request: Request): Response {
    const ownerId = Number(request.headers.get(HUB_HEADERS.ownerUserId));
    const ownerMobileNo = request.headers.get(HUB_HEADERS.ownerMobileNo);
    const owner = Number.isSafeInteger(ownerId) && ownerId > 0 && ownerMobileNo
      ? { userId: ownerId, mobileNo: ownerMobileNo }
      : null;
    // A box that reconnects (new SIM session, restart) replaces its old socket: one device,
    // one connection.
    for (const old of this.ctx.getWebSockets(DEVICE_TAG)) {
      this.closeQuietly(old, 4001, "Replaced by a newer connection");
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [DEVICE_TAG]);
    server.serializeAttachment({ role: "device", connectedAt: Date.now(), helloAt: null } satisfies DeviceAttachment);
    this.saveState({ owner });
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
      case "hello": {
        ws.serializeAttachment({ ...attachment, helloAt: now } satisfies DeviceAttachment);
        const wasOnline = this.state.online;
        this.saveState({ online: true });
        const watched = this.browserSockets().length > 0;
        this.send(ws, {
          type: "welcome",
          protocol: DEVICE_PROTOCOL_VERSION,
          heartbeatSeconds: DEVICE_HEARTBEAT_INTERVAL_MS / 1000,
          watched,
        } satisfies ServerToDeviceMessage);
        if (watched) this.sendWatch(ws, true);
        if (!wasOnline) this.broadcast({ type: "deviceStatusUpdate", deviceStatus: "online" });
        // The box is the truth about its relay: a box that restarted (power cut) comes back OFF.
        await this.applyRelay(message.relay, "reported by the box when it reconnected");
        this.scheduleLivenessCheck(now);
        await this.syncToD1("presence and identity", (db) =>
          Promise.all([
            updateDevicePresence(db, this.deviceId, { online: true, lastSeenAt: now }),
            updateDeviceIdentity(db, this.deviceId, {
              firmware: message.firmware,
              kind: message.kind,
              imei: message.imei,
              sim: message.sim,
              chipId: message.chipId,
              signal: message.signal,
            }),
          ]),
        );
        return;
      }
      case "ack": {
        const pending = this.pendingCommands.get(message.id);
        if (pending) {
          pending.resolve(message);
          return;
        }
        // A confirmation that arrived after its command timed out (or after an eviction):
        // the device is the truth about its relay, so adopt what it reports.
        await this.applyRelay(message.relay, "late confirmation");
        return;
      }
      case "power": {
        const power = { current: message.current, wattage: message.wattage };
        this.saveState({ power });
        this.broadcast({ type: "powerDataUpdate", powerData: power });
        return;
      }
      case "relay": {
        await this.applyRelay(message.relay, message.cause === "manual" ? "switched at the box" : "box restarted");
        return;
      }
      default: {
        const unreachable: never = message;
        throw new Error(`unhandled device message ${JSON.stringify(unreachable)}`);
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

  // ---- commands (RPC from the Worker) ----------------------------------------------------

  async switchMotor(command: MotorCommand): Promise<MotorCommandResult> {
    const device = this.deviceSocket();
    if (!device) {
      return {
        ok: false,
        code: "offline",
        message: "Device is offline. Check its power and network, then try again.",
      };
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
    if (this.pendingCommands.size > 0) {
      return { ok: false, code: "busy", message: "Another command is in progress. Please wait." };
    }
    const id = crypto.randomUUID();
    // The cooldown starts when the command leaves for the box, whatever the outcome: a relay
    // that may have switched must not be switched again straight away.
    this.saveState({ cooldownUntil: now + MOTOR_COOLDOWN_MS });
    const ack = await new Promise<AckMessage | null>((resolve) => {
      const timer = setTimeout(() => settle(null), DEVICE_ACK_TIMEOUT_MS);
      const settle = (value: AckMessage | null) => {
        clearTimeout(timer);
        this.pendingCommands.delete(id);
        resolve(value);
      };
      this.pendingCommands.set(id, { resolve: settle });
      this.send(device, { type: "switch", id, relay: command.action } satisfies ServerToDeviceMessage);
    });
    if (ack === null) {
      return {
        ok: false,
        code: "timeout",
        message: "The device did not confirm the command. Check the motor status and try again.",
      };
    }
    if (!ack.ok) {
      await this.applyRelay(ack.relay, "device refused a command");
      return { ok: false, code: "rejected", message: ack.error ?? "The device refused the command." };
    }
    await this.applyRelay(ack.relay, null, command.requestedBy);
    return { ok: true, status: ack.relay };
  }

  async getSnapshot(): Promise<HubSnapshot> {
    return this.snapshot();
  }

  // ---- state changes ---------------------------------------------------------------------

  /**
   * Adopts the relay state the device reported and, when it changed, logs and broadcasts it.
   * `note` says why the change did not come from a confirmed command (null when it did).
   */
  private async applyRelay(relay: RelayState, note: string | null, requestedBy?: Owner): Promise<void> {
    const changed = relay !== this.state.relay;
    if (changed) {
      this.saveState({
        relay,
        power: relay === "off" ? { current: 0, wattage: 0 } : this.state.power,
      });
      this.broadcast({ type: "motorStatusUpdate", status: relay });
    }
    if (changed || requestedBy) {
      const base = relay === "on" ? "Motor turned ON" : "Motor turned OFF";
      const message = note ? `${base} (${note})` : `${base} from the app`;
      await this.recordMotorLog(relay, message, requestedBy ?? this.state.owner);
    }
  }

  private async markOffline(): Promise<void> {
    for (const pending of this.pendingCommands.values()) pending.resolve(null);
    if (!this.state.online) return;
    const now = Date.now();
    this.saveState({ online: false, power: { current: 0, wattage: 0 } });
    this.broadcast({ type: "deviceStatusUpdate", deviceStatus: "offline" });
    this.broadcast({ type: "powerDataUpdate", powerData: this.state.power });
    this.deleteTimer("liveness");
    await this.syncToD1("presence", (db) =>
      updateDevicePresence(db, this.deviceId, { online: false, lastSeenAt: this.state.lastSeenAt ?? now }),
    );
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

  // ---- motor logs ------------------------------------------------------------------------

  private async recordMotorLog(action: MotorLogRow["action"], message: string, owner: Owner | null) {
    const now = Date.now();
    const row: Omit<MotorLogRow, "id" | "hubRef"> = {
      deviceId: this.deviceId,
      userId: owner?.userId ?? null,
      mobileNo: owner?.mobileNo ?? null,
      action,
      message,
      createdAt: now,
    };
    // Outbox first: if D1 is unreachable the log waits here and is retried by the alarm.
    const outboxId = this.ctx.storage.sql
      .exec<{ id: number }>("INSERT INTO log_outbox (row) VALUES (?) RETURNING id", JSON.stringify(row))
      .one().id;
    let entry: MotorLogEntry = {
      id: -outboxId,
      action,
      logMessage: message,
      timestamp: new Date(now).toISOString(),
    };
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
    const stored = await insertMotorLog(getDb(this.env.DB), {
      ...row,
      hubRef: `${this.deviceId}:${outboxId}`,
    });
    this.ctx.storage.sql.exec("DELETE FROM log_outbox WHERE id = ?", outboxId);
    return stored;
  }

  private async flushOutbox(): Promise<void> {
    const rows = this.ctx.storage.sql
      .exec<{ id: number; row: string }>("SELECT id, row FROM log_outbox ORDER BY id")
      .toArray();
    for (const { id, row } of rows) {
      try {
        await this.flushLog(id, JSON.parse(row));
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
      powerData: online ? this.state.power : { current: 0, wattage: 0 },
      lastLogs: await this.loadLastLogs(),
    };
  }

  // ---- timers: one alarm multiplexed over named, idempotent timers -----------------------

  private setTimer(name: string, dueAt: number): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO timers (name, due_at) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET due_at = excluded.due_at",
      name,
      dueAt,
    );
    this.syncAlarm();
  }

  private deleteTimer(name: string): void {
    this.ctx.storage.sql.exec("DELETE FROM timers WHERE name = ?", name);
    this.syncAlarm();
  }

  private syncAlarm(): void {
    const next = this.ctx.storage.sql
      .exec<{ due: number | null }>("SELECT MIN(due_at) AS due FROM timers")
      .one().due;
    if (next === null) void this.ctx.storage.deleteAlarm();
    else void this.ctx.storage.setAlarm(next);
  }

  /** Alarms are at-least-once: every timer handler must be safe to run twice. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    const due = this.ctx.storage.sql
      .exec<{ name: string }>("SELECT name FROM timers WHERE due_at <= ? ORDER BY due_at", now)
      .toArray();
    for (const { name } of due) {
      this.ctx.storage.sql.exec("DELETE FROM timers WHERE name = ? AND due_at <= ?", name, now);
      switch (name) {
        case "liveness":
          await this.checkLiveness(now);
          break;
        case "flush-logs":
          await this.flushOutbox();
          break;
        default:
          console.error(`DeviceHub ${this.deviceId}: unknown timer ${name}`);
      }
    }
    this.syncAlarm();
  }

  private livenessLimit(): number {
    return this.state.watchedSince !== null ? WATCHED_OFFLINE_AFTER_MS : DEVICE_OFFLINE_AFTER_MS;
  }

  /** When the device last proved it was alive: a frame, a heartbeat, or the watch start. */
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

  /** The device's open socket that has said hello, ignoring `except` (a socket being closed). */
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

  private broadcast(message: RealtimeMessage): void {
    const frame = JSON.stringify(message);
    for (const ws of this.browserSockets()) this.send(ws, frame);
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
