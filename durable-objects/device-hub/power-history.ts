// Power history for the admin's chart: one reading a minute while the motor runs, kept 7 days
// in the hub's SQLite (`power_samples`), pruned once a day while it runs.
import type { PowerSample } from "../../common/hub-contract.ts";
import type { PowerData } from "../../common/realtime-protocol.ts";
import type { HubContext } from "./context.ts";
import { PowerSamplesTable } from "./power-samples-table.ts";
import { Room } from "./room.ts";
import { TIMERS } from "./timers.ts";
import type { Usage } from "./usage.ts";

const POWER_PRUNE_INTERVAL_MS = 24 * 60 * 60_000;

export class PowerHistory extends Room<{ usage: Usage }> {
  readonly #samples: PowerSamplesTable;

  constructor(hub: HubContext, rooms: { usage: Usage }) {
    super(hub, rooms);
    this.#samples = new PowerSamplesTable(hub.ctx.storage.sql);
  }

  /** A reading: sampled while the motor runs (at most one a minute, power-samples-table.ts decides), and its energy counted. */
  onReading(power: PowerData, now: number): void {
    const { state, timers } = this.hub;
    this.rooms.usage.onReading(power.wattage, now);
    if (state.current.motor.status !== "on") return;
    this.#samples.sample(now, power.current, power.wattage);
    if (!timers.has(TIMERS.prunePower)) timers.set(TIMERS.prunePower, now + POWER_PRUNE_INTERVAL_MS);
  }

  /** The prune-power timer; running it twice prunes nothing more. */
  prune(now: number): void {
    this.#samples.prune(now);
    if (this.hub.state.current.motor.status === "on")
      this.hub.timers.set(TIMERS.prunePower, now + POWER_PRUNE_INTERVAL_MS);
  }

  history(limit: number): PowerSample[] {
    return this.#samples.latest(limit);
  }
}
