// What the hub asks of the box and the answers it waits for, in memory only: a command's ack
// (null when none came within 5 s or the box went away), and the health or power frame a
// `request` asks for. A command in flight keeps the object awake until it settles. What an ack
// means for the motor is MotorCommands' (commands.ts), the one room that holds this channel.
import { DEVICE_ACK_TIMEOUT_MS } from "../../common/constants.ts";
import type { DeviceCommand, DeviceMessage } from "../../common/device-protocol.ts";
import type { HubFailure } from "../../common/hub-contract.ts";
import type { HubContext } from "./context.ts";
import { NO_CONFIRMATION, OFFLINE } from "./pump-model.ts";
import type { FrameAllowance } from "./socket-caps.ts";

export type AckMessage = Extract<DeviceMessage, { type: "ack" }>;
export type HealthMessage = Extract<DeviceMessage, { type: "health" }>;
export type PowerMessage = Extract<DeviceMessage, { type: "power" }>;
/** The frame a `request` for `T` is answered with. */
export type FrameOf<T extends "health" | "power"> = T extends "health" ? HealthMessage : PowerMessage;
type FrameWaiter =
  | { type: "health"; resolve: (message: HealthMessage | null) => void }
  | { type: "power"; resolve: (message: PowerMessage | null) => void };

/** Frames a command asks of the box: its ack, and the reading or health that comes with it. */
const FRAMES_OWED_PER_COMMAND = 2;

export class CommandChannel {
  readonly #hub: HubContext;
  readonly #allowance: FrameAllowance;
  /** `onAck` is what the ack does to the hub's state, done in the ack's own step (answer). */
  readonly #pendingAcks = new Map<
    string,
    {
      settle: (ack: AckMessage | null) => void;
      onAck?: (ack: AckMessage) => Promise<void>;
      timer: ReturnType<typeof setTimeout>;
    }
  >();
  #frameWaiters: FrameWaiter[] = [];

  constructor(hub: HubContext, allowance: FrameAllowance) {
    this.#hub = hub;
    this.#allowance = allowance;
  }

  /**
   * Sends a command and waits for its ack; null when none came in time or the box went away.
   * `onAck` runs in the ack's own step, before the wait ends.
   */
  send(
    device: WebSocket,
    command: DeviceCommand,
    onAck?: (ack: AckMessage) => Promise<void>,
  ): Promise<AckMessage | null> {
    return new Promise((resolve) => {
      const settle = (ack: AckMessage | null) => {
        clearTimeout(timer);
        this.#pendingAcks.delete(command.id);
        resolve(ack);
      };
      const timer = setTimeout(() => settle(null), DEVICE_ACK_TIMEOUT_MS);
      this.#pendingAcks.set(command.id, { settle, timer, ...(onAck ? { onAck } : {}) });
      // The box owes an answer (its ack, and the reading or health it reports with it): those
      // frames are ours, not the box's, and never count against its rate.
      this.#allowance.grant(FRAMES_OWED_PER_COMMAND);
      this.#hub.sockets.sendToDevice(device, command);
    });
  }

  /** Sends a `request` and waits for the frame it asks for (health or power), within 5 s. */
  async requestFrame<T extends "health" | "power">(what: T): Promise<{ ok: true; message: FrameOf<T> } | HubFailure> {
    const device = this.#hub.sockets.device();
    if (!device) return OFFLINE;
    const frame = new Promise<HealthMessage | PowerMessage | null>((resolve) => {
      const timer = setTimeout(() => settle(null), DEVICE_ACK_TIMEOUT_MS);
      const settle = (message: HealthMessage | PowerMessage | null) => {
        clearTimeout(timer);
        this.#frameWaiters = this.#frameWaiters.filter((waiter) => waiter.resolve !== settle);
        resolve(message);
      };
      this.#frameWaiters.push({ type: what, resolve: settle } as FrameWaiter);
    });
    const ack = await this.send(device, { type: "request", id: crypto.randomUUID(), what });
    if (ack === null) return NO_CONFIRMATION;
    const message = await frame;
    if (message === null) return NO_CONFIRMATION;
    return { ok: true, message: message as FrameOf<T> };
  }

  resolveFrameWaiters<T extends "health" | "power">(type: T, message: FrameOf<T>): void {
    for (const waiter of this.#frameWaiters.filter((candidate) => candidate.type === type)) {
      (waiter.resolve as (message: FrameOf<T>) => void)(message);
    }
  }

  /** The box is gone: nothing it was asked will be answered. */
  abandonAll(): void {
    for (const { settle } of this.#pendingAcks.values()) settle(null);
    for (const waiter of this.#frameWaiters.splice(0)) waiter.resolve(null);
  }

  /**
   * An ack to the command waiting for it, its `onAck` run before the wait ends; false when no
   * command waits for it any more (timed out, or a second ack with the same id).
   */
  async answer(ack: AckMessage): Promise<boolean> {
    const waiter = this.#pendingAcks.get(ack.id);
    if (!waiter) return false;
    // Taken at once, its timeout with it: the answer came in time, and a second ack with
    // the same id is a late one, not this command's.
    this.#pendingAcks.delete(ack.id);
    clearTimeout(waiter.timer);
    try {
      await waiter.onAck?.(ack);
    } finally {
      waiter.settle(ack); // the command's caller answers with it
    }
    return true;
  }
}
