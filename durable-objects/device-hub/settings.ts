// The box's settings and who owns it, changed by the Worker after it saved them in D1: new
// protection settings and debug mode go to the box (or into its next welcome), a new mobile
// number restarts it, and a change of owner or members closes the sockets of whoever lost the
// pump (a new owner also never inherits the previous one's schedules).
import type { DeviceConfig } from "../../common/device-protocol.ts";
import type { AccessRefresh, HubFailure } from "../../common/hub-contract.ts";
import type { Browsers } from "./browsers.ts";
import type { MotorCommands } from "./commands.ts";
import type { MotorLog } from "./motor-log.ts";
import { loadOwnerAndConfig } from "./owner.ts";
import { NO_CONFIRMATION, OFFLINE } from "./pump-model.ts";
import { Room } from "./room.ts";
import type { Schedules } from "./schedules.ts";
import { TIMERS } from "./timers.ts";

/** Debug mode streams every log line over the SIM: it switches itself off after this long. */
export const DEBUG_MODE_MAX_MS = 30 * 60_000;

export type SettingsRooms = { commands: MotorCommands; log: MotorLog; browsers: Browsers; schedules: Schedules };

export class Settings extends Room<SettingsRooms> {
  /** Takes new protection settings (already saved in D1 by the Worker) to the box. */
  async updateConfig(changes: Partial<DeviceConfig>): Promise<{ delivered: boolean }> {
    const { state, sockets } = this.hub;
    const config = { ...state.current.config, ...changes };
    const debugChanged = config.debug !== state.current.config.debug;
    state.save({ config });
    if (debugChanged) sockets.broadcast({ type: "debugModeUpdate", debug: config.debug }, "admins");
    const device = sockets.device();
    if (!device) return { delivered: false }; // the next hello's welcome carries it
    const ack = await this.rooms.commands.sendCommand(device, { type: "config", id: crypto.randomUUID(), config });
    return { delivered: ack?.ok === true };
  }

  /**
   * Debug mode (admin): the box streams its log lines; it ends by itself after 30 minutes.
   * Switching it on needs the box online and confirming; switching it off always succeeds.
   */
  async setDebug(debug: boolean): Promise<{ ok: true; delivered: boolean } | HubFailure> {
    const { state, sockets, timers } = this.hub;
    if (debug && !sockets.device()) return OFFLINE;
    if (debug) timers.set(TIMERS.debugOff, Date.now() + DEBUG_MODE_MAX_MS);
    else timers.delete(TIMERS.debugOff);
    const { delivered } = await this.updateConfig({ debug });
    if (debug && !delivered) {
      state.save({ config: { ...state.current.config, debug: false } });
      sockets.broadcast({ type: "debugModeUpdate", debug: false }, "admins");
      timers.delete(TIMERS.debugOff);
      return NO_CONFIRMATION;
    }
    return { ok: true, delivered };
  }

  /** The debug-off timer; a second delivery finds debug mode off already. */
  async debugOff(): Promise<void> {
    if (this.hub.state.current.config.debug) await this.updateConfig({ debug: false });
  }

  /** The owner's number changed (already in D1): tell the box, which then restarts. */
  async changeMobileNo(mobileNo: string): Promise<{ ok: true; delivered: boolean } | HubFailure> {
    const { state, sockets } = this.hub;
    const owner = state.current.owner ? { ...state.current.owner, mobileNo } : null;
    state.save({ owner });
    const { delivered } = await this.updateConfig({ mobileNo });
    this.rooms.log.record("other", { kind: "mobileNoChanged", mobileNo });
    if (!delivered) return { ok: true, delivered: false };
    const device = sockets.device();
    if (device) await this.rooms.commands.sendCommand(device, { type: "restart", id: crypto.randomUUID() });
    return { ok: true, delivered: true };
  }

  /**
   * Ownership or membership changed in D1 (assignment, deletion, a member removed): pick up
   * the new owner, members and config; whoever lost the pump stops watching it at once.
   * Not ok when D1 could not be read: the caller must not report the change done, and asks
   * again. Until a read succeeds the hub fails closed: its old copy lets nobody act or watch.
   */
  async refreshAccess(): Promise<AccessRefresh> {
    const { state, sockets } = this.hub;
    const before = JSON.stringify(state.current.config);
    if (!(await loadOwnerAndConfig(this.hub))) {
      state.save({ accessConfirmed: false });
      this.rooms.browsers.closeWithoutAccess();
      return { ok: false, code: "accessUnconfirmed" };
    }
    const ownerId = state.current.owner?.userId ?? null;
    this.rooms.browsers.closeWithoutAccess();
    this.rooms.schedules.keepOnlyOwnedBy(ownerId);
    const device = sockets.device();
    // A change of members alone tells the box nothing new.
    if (device && JSON.stringify(state.current.config) !== before)
      await this.rooms.commands.sendCommand(device, {
        type: "config",
        id: crypto.randomUUID(),
        config: state.current.config,
      });
    return { ok: true };
  }
}
