// Every frame from the box (docs/device-protocol.md §2-4): counted against its allowance before
// anything else, parsed with the protocol's zod schema, refused with an `error` frame when it
// cannot be accepted (changing nothing), then handed to the room it concerns.
import {
  DEVICE_PROTOCOL_VERSION,
  type DeviceMessage,
  deviceMessageSchema,
  parseFrame,
} from "../../common/device-protocol.ts";
import { DEVICE_CLOSE } from "../../common/hub-contract.ts";
import type { HealthData, PowerData } from "../../common/realtime-protocol.ts";
import { updateDeviceIdentity } from "../../worker/db/devices.ts";
import type { HealthMessage, PowerMessage } from "./command-channel.ts";
import type { MotorCommands } from "./commands.ts";
import type { Commissioning } from "./commissioning.ts";
import type { HubContext } from "./context.ts";
import type { DebugLines } from "./debug-lines.ts";
import type { DeviceLink } from "./device-link.ts";
import type { FirmwareUpdates } from "./ota.ts";
import type { PowerHistory } from "./power-history.ts";
import type { Protection } from "./protection.ts";
import type { PumpView } from "./pump-view.ts";
import { Room } from "./room.ts";
import type { FrameAllowance } from "./socket-caps.ts";
import type { DeviceAttachment } from "./sockets.ts";
import type { WindowRuns } from "./window-runs.ts";

/** The rooms a box's frames go to. */
export type DeviceFrameRooms = {
  link: DeviceLink;
  commands: MotorCommands;
  protection: Protection;
  power: PowerHistory;
  ota: FirmwareUpdates;
  debug: DebugLines;
  view: PumpView;
  windows: WindowRuns;
  commissioning: Commissioning;
};

/** A reading as sent to the pages, and how many sockets it went to. */
type Announced = { power: PowerData; watchers: number };

export class DeviceFrames extends Room<DeviceFrameRooms> {
  readonly #allowance: FrameAllowance;

  constructor(hub: HubContext, rooms: DeviceFrameRooms, allowance: FrameAllowance) {
    super(hub, rooms);
    this.#allowance = allowance;
  }

  async onFrame(ws: WebSocket, attachment: DeviceAttachment, frame: string | ArrayBuffer): Promise<void> {
    const { state, sockets } = this.hub;
    // A command waiting for the box: the wait ends here (its ack, or a frame before it).
    this.hub.meter.step("box");
    // Counted before any parsing or storage: a flood must not reach D1 or the other hubs' thread.
    if (!this.#allowance.take()) {
      await this.rooms.link.cutOff(ws);
      return;
    }
    const parsed = parseFrame(deviceMessageSchema, frame);
    if (!parsed.ok) {
      sockets.sendToDevice(ws, { type: "error", message: parsed.error });
      return;
    }
    // A reading goes to the pages before anything is written in this step: frames sent after a
    // write wait for its commit (the output gate), and a reading needs no storage to be true.
    // Nothing about the motor's safety rides on it; what the hub stores of it follows.
    const reading = parsed.message.type === "power" && attachment.helloAt ? this.#announce(parsed.message) : null;
    // Frames sent leave only when the event gives the thread back to the runtime, so the work
    // below would otherwise hold the reading's copy to the pages behind it. One empty turn lets
    // the frames out; inside blockConcurrencyWhile no other event is delivered meanwhile, so the
    // box's next frame is still judged after this one (a reading that contradicts the relay,
    // then the relay's own report, must be read in that order).
    if (reading?.watchers) await this.hub.ctx.blockConcurrencyWhile(() => scheduler.wait(0));
    this.hub.stats.countDeviceFrame();
    if (parsed.message.type !== "hello" && !attachment.helloAt) {
      sockets.sendToDevice(ws, { type: "error", message: "Say hello first." });
      return;
    }
    // Refused before anything is recorded: a box we cannot talk to gives no sign of life
    // (the fuzz suite found such a hello moving lastSeenAt).
    if (parsed.message.type === "hello" && parsed.message.protocol !== DEVICE_PROTOCOL_VERSION) {
      sockets.sendToDevice(ws, {
        type: "error",
        message: `Unsupported protocol version ${parsed.message.protocol}; this server speaks ${DEVICE_PROTOCOL_VERSION}.`,
      });
      sockets.close(ws, DEVICE_CLOSE.unsupportedProtocol, "Unsupported protocol version");
      return;
    }
    const now = Date.now();
    state.save({ lastSeenAt: now });
    await this.#handle(ws, attachment, parsed.message, now, reading);
    // Supply, a phase, the box or the motor may have changed: a power window may now start, pause or end.
    await this.rooms.windows.reconcile();
    this.rooms.view.publish();
  }

  async #handle(
    ws: WebSocket,
    attachment: DeviceAttachment,
    message: DeviceMessage,
    now: number,
    reading: Announced | null,
  ): Promise<void> {
    const { link, commands, protection, ota, debug } = this.rooms;
    switch (message.type) {
      case "hello":
        await link.hello(ws, attachment, message, now);
        return;
      case "ack":
        await commands.handleAck(message);
        return;
      case "power":
        await this.#power(message, now, (reading ?? this.#announce(message)).power);
        return;
      case "relay":
        await commands.adoptStatedRelay(
          message.relay,
          "relayFrame",
          message.cause === "manual" ? "manual" : message.cause === "schedule" ? "boxSchedule" : "restart",
        );
        return;
      case "health":
        await this.#health(message, now);
        return;
      case "event":
        await protection.handleEvent(message);
        return;
      case "log":
        debug.onLine(message.line, now);
        return;
      case "ota":
        await ota.onProgress(message);
        return;
      case "testRunResult":
      case "dryRunCheckResult":
        this.rooms.commissioning.onResult(message);
        return;
      default: {
        const unreachable: never = message;
        throw new Error(`unhandled device message ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** A reading as the pages get it, sent to them. */
  #announce(message: PowerMessage): Announced {
    const power = {
      current: message.current,
      wattage: message.wattage,
      ...(message.voltages ? { voltages: message.voltages } : {}),
    };
    return { power, watchers: this.hub.sockets.broadcast({ type: "powerDataUpdate", powerData: power }) };
  }

  /** A reading the pages already have (`power`): stored, and what it means for the motor. */
  async #power(message: PowerMessage, now: number, power: PowerData): Promise<void> {
    const { state } = this.hub;
    const supply = message.supply ?? state.current.supply;
    state.save({ power, powerAt: now, supply, supplyLostAt: supply ? null : (state.current.supplyLostAt ?? now) });
    this.rooms.commands.resolveFrameWaiters("power", message);
    await this.rooms.protection.reconcileReadings(power.current, now);
    this.rooms.power.onReading(power, now);
    await this.rooms.protection.checkSafetyNet(now);
  }

  async #health(message: HealthMessage, now: number): Promise<void> {
    const { state, sockets, deviceId } = this.hub;
    const health: HealthData = {
      uptime: message.uptime,
      signal: message.signal ?? null,
      relay: message.relay,
      chipId: message.chipId ?? null,
      imei: message.imei ?? null,
      mqtt: message.connection,
      sim: message.sim ?? null,
      version: message.version,
      connection: state.current.health?.connection ?? null,
      reportedAt: new Date(now).toISOString(),
    };
    state.save({ health });
    sockets.broadcast({ type: "healthData", mobileNo: state.current.owner?.mobileNo ?? null, payload: health });
    this.rooms.commands.resolveFrameWaiters("health", message);
    // A health report states the relay: enough to settle a status nobody could vouch for (the
    // farmer's Refresh does this), and to show a relay closed that the hub believed open (its
    // report of the change was lost; without supply no reading would ever show it, and the
    // motor starts when power returns). A command waiting for its ack is left to its ack, and an
    // ON the box confirmed needs no second opinion: a relay stated open while current flows
    // must not hide a running motor.
    const { motor, pendingSwitch } = state.current;
    const awaited = pendingSwitch !== null && this.rooms.commands.isInFlight(pendingSwitch.id);
    if (motor.status === "unknown" || (motor.status === "off" && message.relay === "on" && !awaited))
      await this.rooms.commands.adoptStatedRelay(message.relay, "health", "reported");
    await this.hub.copyToD1("signal", (db) =>
      updateDeviceIdentity(db, deviceId, { signal: message.signal, firmware: message.version }),
    );
  }
}
