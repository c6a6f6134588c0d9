// What the hub vouches for, as browsers and the API see it: the pump state (published to
// browsers when it means something new) and the snapshot pages load first.
import type { HubSnapshot } from "../../common/hub-contract.ts";
import type { PumpState } from "../../common/pump-state.ts";
import type { MotorLog } from "./motor-log.ts";
import type { OwedSwitchOffs } from "./owed-switch-offs.ts";
import { pumpStateMeaning, pumpStateOf } from "./pump-model.ts";
import { Room } from "./room.ts";

export type PumpViewRooms = { log: MotorLog; offs: OwedSwitchOffs };

export class PumpView extends Room<PumpViewRooms> {
  /** The last pumpState sent to browsers, without its clocks; a cache, so a wake may send one again. */
  #published: string | null = null;

  pumpState(now = Date.now()): PumpState {
    const { state, sockets } = this.hub;
    const device = sockets.device();
    const link = device ? { lastHeardAt: sockets.lastHeardFrom(device, state.current.lastSeenAt) } : null;
    return pumpStateOf(state.current, link, now, this.rooms.offs.nextDue());
  }

  /** Sends browsers the pump's state when it means something new (its clocks alone are no news). */
  publish(): void {
    const pump = this.pumpState();
    const meaning = pumpStateMeaning(pump);
    if (meaning === this.#published) return;
    this.#published = meaning;
    this.hub.sockets.broadcast({ type: "pumpState", pump });
  }

  /**
   * What the pump looks like now. Its recent log from when the box became its owner's, unless
   * `everything` (an admin's view): what came before was another owner's.
   */
  async snapshot(options: { everything?: boolean } = {}): Promise<HubSnapshot> {
    const pump = this.pumpState();
    const online = pump.deviceStatus === "online";
    const { state } = this.hub;
    const since = options.everything ? undefined : state.current.owner?.since;
    const recent = await this.rooms.log.recent();
    return {
      motorStatus: pump.status,
      deviceStatus: pump.deviceStatus,
      powerData: state.current.power,
      lastLogs: since === undefined ? recent : recent.filter((log) => Date.parse(log.timestamp) >= since),
      // Read after D1 answered: what happened meanwhile is in.
      phaseFault: state.current.phaseFault,
      health: state.current.health ? { ...state.current.health, mqtt: online ? "connected" : "disconnected" } : null,
      debug: state.current.config.debug,
      pump,
    };
  }
}
