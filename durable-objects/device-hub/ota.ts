// Firmware updates (docs/device-protocol.md §8): the hub offers the image, follows the box's
// progress, and reports the update done when the box says hello with the new version, failed
// when the box says so, comes back with another version after installing, or has not finished
// within OTA_TIMEOUT_MS (the ota-timeout timer).
import type { DeviceMessage } from "../../common/device-protocol.ts";
import type { FirmwareOffer, HubFailure } from "../../common/hub-contract.ts";
import type { MotorLogEvent } from "../../common/motor-log-event.ts";
import type { MotorCommands } from "./commands.ts";
import type { MotorLog } from "./motor-log.ts";
import { NO_CONFIRMATION, OFFLINE } from "./pump-model.ts";
import { Room } from "./room.ts";
import type { OtaFailure, OtaJob } from "./state.ts";
import { TIMERS } from "./timers.ts";

/** A firmware update that has not finished by then is reported as failed. */
export const OTA_TIMEOUT_MS = 10 * 60_000;

type OtaStage = OtaJob["stage"] | "done" | "failed";

/** What a hello with `firmware` means for the update under way: done, failed, or nothing yet. */
export function otaOnHello(job: OtaJob | null, firmware: string): "done" | "failed" | null {
  if (!job) return null;
  if (firmware === job.version) return "done";
  return job.stage === "installing" ? "failed" : null;
}

export type FirmwareUpdateRooms = { commands: MotorCommands; log: MotorLog };

export class FirmwareUpdates extends Room<FirmwareUpdateRooms> {
  /** Offers a firmware image; success here means the box accepted the job. */
  async start(offer: FirmwareOffer): Promise<{ ok: true } | HubFailure> {
    const { state, sockets, timers } = this.hub;
    const device = sockets.device();
    if (!device) return OFFLINE;
    const running = state.current.ota;
    if (running && Date.now() - running.startedAt < OTA_TIMEOUT_MS) {
      return { ok: false, code: "otaBusy", version: running.version };
    }
    const id = crypto.randomUUID();
    const ack = await this.rooms.commands.sendCommand(device, { type: "ota", id, ...offer });
    if (ack === null) return NO_CONFIRMATION;
    if (!ack.ok) {
      this.rooms.log.record("other", { kind: "otaRefused", version: offer.version, error: ack.error ?? null });
      return { ok: false, code: "otaRejected", ...(ack.error ? { error: ack.error } : {}) };
    }
    const now = Date.now();
    state.save({ ota: { id, version: offer.version, stage: "sent", startedAt: now } });
    timers.set(TIMERS.otaTimeout, now + OTA_TIMEOUT_MS);
    this.rooms.log.record("other", { kind: "otaStarted", version: offer.version });
    this.#broadcast(offer.version, "sent");
    return { ok: true };
  }

  /** An `ota` frame: the box's progress with the job it was given. */
  async onProgress(message: Extract<DeviceMessage, { type: "ota" }>): Promise<void> {
    const job = this.hub.state.current.ota;
    if (!job || job.id !== message.id) return;
    if (message.stage === "failed") {
      await this.#fail({ reason: "box", error: message.error ?? null, firmware: null });
      return;
    }
    this.hub.state.save({ ota: { ...job, stage: message.stage } });
    this.#broadcast(job.version, message.stage, message.progress ?? null);
  }

  /** A hello: the box restarted, maybe with the new firmware. */
  async onHello(firmware: string): Promise<void> {
    const job = this.hub.state.current.ota;
    switch (otaOnHello(job, firmware)) {
      case "done":
        this.hub.state.save({ ota: null });
        this.hub.timers.delete(TIMERS.otaTimeout);
        this.rooms.log.record("other", { kind: "otaDone", version: job!.version });
        this.#broadcast(job!.version, "done");
        return;
      case "failed":
        await this.#fail({ reason: "otherVersion", error: null, firmware });
        return;
      case null:
        return;
    }
  }

  /** The ota-timeout timer; a second delivery finds no job, or one that is not yet late. */
  async onTimeout(now: number): Promise<void> {
    const job = this.hub.state.current.ota;
    if (job && now - job.startedAt >= OTA_TIMEOUT_MS)
      await this.#fail({ reason: "timeout", error: null, firmware: null });
  }

  async #fail(failure: OtaFailure): Promise<void> {
    const job = this.hub.state.current.ota;
    if (!job) return;
    this.hub.state.save({ ota: null });
    this.hub.timers.delete(TIMERS.otaTimeout);
    const event: MotorLogEvent = { kind: "otaFailed", version: job.version, ...failure };
    this.rooms.log.record("other", event);
    this.#broadcast(job.version, "failed", null, failure);
  }

  #broadcast(
    version: string,
    stage: OtaStage,
    progress: number | null = null,
    failure: OtaFailure | null = null,
  ): void {
    this.hub.sockets.broadcast({
      type: "otaStatus",
      version,
      stage,
      progress,
      error: failure?.error ?? null,
      reason: failure?.reason ?? null,
      firmware: failure?.firmware ?? null,
    });
  }
}
