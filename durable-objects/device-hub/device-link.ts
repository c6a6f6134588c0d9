// The link to the box (docs/device-protocol.md §1-3, §9): its socket replaces an older one of
// the same box; its hello makes it online and gets the welcome; liveness is checked from its
// last sign of life (a frame, a heartbeat the runtime answered, the start of a watch) against
// the limit for a watched or an unwatched box; when it goes silent, drops or floods, the hub
// says offline (in D1 too) and alerts if the motor was running.
import { DEVICE_HEARTBEAT_INTERVAL_MS, WATCHED_POWER_INTERVAL_MS } from "../../common/constants.ts";
import {
  DEVICE_FRAME_BURST,
  DEVICE_FRAMES_PER_SECOND,
  DEVICE_PROTOCOL_VERSION,
  type DeviceMessage,
} from "../../common/device-protocol.ts";
import { DEVICE_CLOSE, type HubSocketRefusal } from "../../common/hub-contract.ts";
import { updateDeviceIdentity, updateDevicePresence } from "../../worker/db/devices.ts";
import { activateDevice } from "../../worker/db/plans.ts";
import type { HubAlerts } from "./alerts.ts";
import type { MotorCommands } from "./commands.ts";
import { lastSignOfLife, livenessCheckAt, livenessLimit } from "./liveness.ts";
import type { OfflineAlert } from "./offline-alert.ts";
import type { FirmwareUpdates } from "./ota.ts";
import { loadOwnerAndConfig } from "./owner.ts";
import type { PumpView } from "./pump-view.ts";
import { Room } from "./room.ts";
import { DEVICE_FLOOD_COOLDOWN_MS } from "./socket-caps.ts";
import { DEVICE_TAG, type DeviceAttachment } from "./sockets.ts";
import { emptyHealth } from "./state.ts";
import { TIMERS } from "./timers.ts";
import type { Usage } from "./usage.ts";

/** Until when a box cut off for flooding is refused (KV, so a restarted hub still knows). */
const DEVICE_COOLDOWN_KEY = "device-cooldown-until";
/** How long the error frame and close get to reach a flooding box before the hub restarts. */
const FLOOD_CLOSE_FLUSH_MS = 20;

export type DeviceLinkRooms = {
  commands: MotorCommands;
  ota: FirmwareUpdates;
  view: PumpView;
  offlineAlert: OfflineAlert;
  alerts: HubAlerts;
  usage: Usage;
};

export class DeviceLink extends Room<DeviceLinkRooms> {
  /** The box socket closed for its rate, while frames it sent before the close keep arriving. */
  #floodingDevice: WebSocket | null = null;
  #restarting = false;
  #floodOffline: Promise<void> = Promise.resolve();

  /** The box's upgrade, already authenticated by the Worker. */
  accept(): Response {
    const { ctx, sockets } = this.hub;
    // A box cut off for flooding waits before it may come back (docs/device-protocol.md §2).
    const cooldownUntil = ctx.storage.kv.get<number>(DEVICE_COOLDOWN_KEY) ?? 0;
    const wait = Math.ceil((cooldownUntil - Date.now()) / 1000);
    if (wait > 0) {
      // The code and seconds are what the box's firmware acts on; the Worker words them.
      return Response.json({ code: "tooManyFrames", seconds: wait } satisfies HubSocketRefusal, { status: 429 });
    }
    // A box that reconnects (new SIM session, restart) replaces its old socket.
    for (const old of sockets.allDevices()) sockets.close(old, DEVICE_CLOSE.replaced, "Replaced by a newer connection");
    const { 0: client, 1: server } = new WebSocketPair();
    ctx.acceptWebSocket(server, [DEVICE_TAG]);
    sockets.attach(server, { role: "device", connectedAt: Date.now(), helloAt: null });
    return new Response(null, { status: 101, webSocket: client });
  }

  isFlooding(ws: WebSocket): boolean {
    return ws === this.#floodingDevice;
  }

  /** The box went over its frame rate: one error frame, close 1008, offline, refused for a while. */
  async cutOff(ws: WebSocket): Promise<void> {
    const { ctx, sockets } = this.hub;
    sockets.sendToDevice(ws, {
      type: "error",
      message: `Too many frames: at most ${DEVICE_FRAME_BURST} at once and ${DEVICE_FRAMES_PER_SECOND} a second.`,
    });
    sockets.close(ws, DEVICE_CLOSE.tooManyFrames, "Too many frames");
    this.#floodingDevice = ws;
    ctx.storage.kv.put(DEVICE_COOLDOWN_KEY, Date.now() + DEVICE_FLOOD_COOLDOWN_MS);
    // Offline now, in D1 too: a restart (dropFlood) would not run the close handler.
    this.#floodOffline = this.markOffline(ws);
    await this.#floodOffline;
  }

  /**
   * Frames a flooding box sent before our close keep arriving, thousands of them, and the
   * runtime hands each one to us: locally that alone held every other hub (and D1, on the same
   * thread) for seconds. Restarting the hub drops its connections, and with them whatever is
   * still on its way, unread. Everything the hub knows is in storage (the cooldown too); the
   * pages watching it reconnect by themselves. A moment's delay lets the error frame and the
   * close reach the box first.
   */
  dropFlood(): void {
    if (this.#restarting) return;
    this.#restarting = true;
    const { ctx } = this.hub;
    console.warn(`DeviceHub ${ctx.id.name}: restarting to drop a flooding box's frames`);
    const flushed = new Promise((resolve) => setTimeout(resolve, FLOOD_CLOSE_FLUSH_MS));
    void Promise.all([this.#floodOffline, flushed]).then(() => ctx.abort("A flooding box's frames were dropped"));
  }

  async hello(
    ws: WebSocket,
    attachment: DeviceAttachment,
    message: Extract<DeviceMessage, { type: "hello" }>,
    now: number,
  ): Promise<void> {
    const { state, sockets, deviceId } = this.hub;
    sockets.attach(ws, { ...attachment, helloAt: now });
    await loadOwnerAndConfig(this.hub);
    const before = state.current;
    const supply = message.supply ?? true;
    const phaseFault = message.phaseFault ?? false;
    state.save({
      online: true,
      kind: message.kind,
      supply,
      supplyLostAt: supply ? null : (before.supplyLostAt ?? now),
      phaseFault,
      phaseFaultSince: phaseFault ? (before.phaseFaultSince ?? now) : null,
      phaseFaultDetail: phaseFault ? before.phaseFaultDetail : null,
      phaseFaultPhase: phaseFault ? before.phaseFaultPhase : null,
      breach: null,
      health: {
        ...(before.health ?? emptyHealth()),
        relay: message.relay,
        chipId: message.chipId ?? before.health?.chipId ?? null,
        imei: message.imei ?? before.health?.imei ?? null,
        sim: message.sim ?? before.health?.sim ?? null,
        signal: message.signal ?? before.health?.signal ?? null,
        version: message.firmware,
        connection: message.connection ?? before.health?.connection ?? null,
        mqtt: "connected",
      },
    });
    // Watched means a browser socket is open now. After a restart (every deploy) the stored
    // flag can outlive the browsers it described; trusting it would hold an unwatched box to
    // the 20 s watched liveness limit and disconnect it again and again.
    const watched = sockets.browsers().length > 0;
    if (watched !== (state.current.watchedSince !== null)) state.save({ watchedSince: watched ? now : null });
    sockets.sendToDevice(ws, {
      type: "welcome",
      protocol: DEVICE_PROTOCOL_VERSION,
      heartbeatSeconds: DEVICE_HEARTBEAT_INTERVAL_MS / 1000,
      watched,
      config: state.current.config,
    });
    if (watched) this.#sendWatch(ws, true);
    if (!before.online) sockets.broadcast({ type: "deviceStatusUpdate", deviceStatus: "online" });
    // Back within the grace, nobody is called; after the alert went, "back online" follows it.
    this.rooms.offlineAlert.onBack();
    if (state.current.phaseFault !== before.phaseFault) {
      sockets.broadcast({ type: state.current.phaseFault ? "phaseFaultDetected" : "phaseOk" });
      this.rooms.alerts.raise({
        kind: "phase",
        state: state.current.phaseFault ? "fault" : "ok",
        detail: state.current.phaseFaultDetail,
      });
    }
    await this.rooms.ota.onHello(message.firmware);
    // The box is the truth about its relay: a box that restarted (power cut) comes back OFF.
    await this.rooms.commands.adoptStatedRelay(message.relay, "hello", "reconnected");
    this.scheduleLivenessCheck(now);
    await this.hub.copyToD1("presence and identity", (db) =>
      Promise.all([
        updateDevicePresence(db, deviceId, { online: true, lastSeenAt: now }),
        updateDeviceIdentity(db, deviceId, {
          firmware: message.firmware,
          kind: message.kind,
          connection: message.connection,
          imei: message.imei,
          sim: message.sim,
          chipId: message.chipId,
          signal: message.signal,
        }),
        // The first hello starts the box's free year of connectivity.
        activateDevice(db, deviceId, now),
      ]),
    );
  }

  /** `gone`: the box's socket that just closed, whose last heartbeat still counts as a sign of life. */
  async markOffline(gone?: WebSocket): Promise<void> {
    const { state, sockets, timers, deviceId } = this.hub;
    this.rooms.commands.abandonAll();
    if (!state.current.online) return;
    const now = Date.now();
    // The last reading stays, with its time: an offline box's motor is not known to draw 0 A.
    state.save({
      online: false,
      lastSeenAt: gone ? sockets.lastHeardFrom(gone, state.current.lastSeenAt) : state.current.lastSeenAt,
      breach: null,
      noCurrent: null,
      health: state.current.health ? { ...state.current.health, mqtt: "disconnected" } : null,
    });
    sockets.broadcast({ type: "deviceStatusUpdate", deviceStatus: "offline" });
    // A run is counted up to the box's last word, not while nobody can see it.
    this.rooms.usage.follow(now);
    // Offline is no news when the motor was OFF; while it ran, nobody can now stop it from here,
    // which is news once the box has not come back within the grace (offline-alert.ts).
    if (state.current.motor.status === "on") this.rooms.offlineAlert.hold(state.current.lastSeenAt, now);
    timers.delete(TIMERS.liveness);
    this.rooms.view.publish();
    await this.hub.copyToD1("presence", (db) =>
      updateDevicePresence(db, deviceId, { online: false, lastSeenAt: state.current.lastSeenAt ?? now }),
    );
  }

  /** The box's socket closed or failed. getWebSockets() can still list it: only another open one counts. */
  async socketGone(ws: WebSocket): Promise<void> {
    if (this.hub.sockets.device(ws) === null) await this.markOffline(ws);
  }

  /** The box's key was rotated: drop its connection so it must come back with the new key. */
  async disconnect(reason: string): Promise<void> {
    for (const ws of this.hub.sockets.allDevices())
      this.hub.sockets.close(ws, DEVICE_CLOSE.keyRotated, reason.slice(0, 120));
    await this.markOffline();
  }

  /** The first browser opened or the last one closed: the box reports fast readings, or stops. */
  setWatched(watched: boolean): void {
    this.hub.state.save({ watchedSince: watched ? Date.now() : null });
    const device = this.hub.sockets.device();
    if (device) {
      this.#sendWatch(device, watched);
      this.scheduleLivenessCheck(Date.now());
    }
  }

  scheduleLivenessCheck(now: number): void {
    const device = this.hub.sockets.device();
    if (!device) return;
    this.hub.timers.set(TIMERS.liveness, livenessCheckAt(now, this.#lastSignOfLife(device), this.#livenessLimit()));
  }

  /** The liveness timer: a silent box is closed (4008) and offline; one alive is checked again later. */
  async checkLiveness(now: number): Promise<void> {
    const device = this.hub.sockets.device();
    if (!device) {
      await this.markOffline();
      return;
    }
    if (now - this.#lastSignOfLife(device) > this.#livenessLimit()) {
      this.hub.sockets.close(device, DEVICE_CLOSE.noHeartbeat, "No heartbeat");
      await this.markOffline(device);
      return;
    }
    this.scheduleLivenessCheck(now);
  }

  #livenessLimit(): number {
    return livenessLimit(this.hub.state.current.watchedSince !== null && this.hub.sockets.browsers().length > 0);
  }

  #lastSignOfLife(device: WebSocket): number {
    const attachment = this.hub.sockets.attachmentOf(device) as DeviceAttachment;
    const state = this.hub.state.current;
    return lastSignOfLife({
      connectedAt: attachment.connectedAt,
      lastFrameAt: state.lastSeenAt,
      heartbeatAt: this.hub.sockets.heartbeatAt(device),
      watchedSince: state.watchedSince,
    });
  }

  #sendWatch(device: WebSocket, watched: boolean): void {
    this.hub.sockets.sendToDevice(device, {
      type: "watch",
      watched,
      intervalSeconds: WATCHED_POWER_INTERVAL_MS / 1000,
    });
  }
}
