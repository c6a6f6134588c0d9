// The hub's counters for operators and benchmarks (wakes, frames, D1 round trips, the last
// command's cost), in the hub's storage beside its state.
import type { CommandCost, HubStats } from "../../common/hub-contract.ts";
import { CommandMeter } from "./command-meter.ts";
import type { KvStorage } from "./state.ts";

const STATS_KEY = "stats";
const LAST_COMMAND_KEY = "stats:lastCommand";

/** The counters as storage holds them (hubs that counted before D1 round trips or commands were counted have none yet). */
type StoredStats = Omit<HubStats, "d1Queries" | "lastCommand"> & { d1Queries?: number };
type Counters = Omit<HubStats, "lastCommand">;

/**
 * The hub's counters for operators and benchmarks, in storage so they outlive hibernation. Read
 * once per instance and written through: a box's every frame counts, and reading the record back
 * each time would cost a deserialisation per frame. The last command's cost is a key of its own,
 * so the counter a frame writes stays small.
 */
export class HubStatsStore {
  readonly #kv: KvStorage;
  readonly #meter: CommandMeter;
  #counters: Counters;
  #lastCommand: CommandCost | null;

  constructor(kv: KvStorage, meter = new CommandMeter()) {
    this.#kv = kv;
    this.#meter = meter;
    const stored = kv.get<StoredStats>(STATS_KEY) ?? { wakes: -1, deviceFrames: 0, recentWakes: [] };
    this.#counters = { ...stored, d1Queries: stored.d1Queries ?? 0 };
    this.#lastCommand = kv.get<CommandCost>(LAST_COMMAND_KEY) ?? null;
  }

  get current(): HubStats {
    return { ...this.#counters, lastCommand: this.#lastCommand };
  }

  /**
   * Every construction after the first is a wake from hibernation or eviction: counted so the
   * idle benchmark can show heartbeats never wake a hub.
   */
  countWake(now = Date.now()): void {
    const { wakes, recentWakes } = this.#counters;
    this.#save({ wakes: wakes + 1, recentWakes: [...recentWakes, now].slice(-20) });
  }

  countDeviceFrame(): void {
    this.#save({ deviceFrames: this.#counters.deviceFrames + 1 });
  }

  /** A D1 round trip the hub made. */
  countD1Query(): void {
    this.#save({ d1Queries: this.#counters.d1Queries + 1 });
  }

  /**
   * What the last person's switch cost, step by step (command-meter.ts). Stored once the step
   * that answered is over: a write in it would hold the answer (an RPC's return value too) at
   * the output gate, a commit more for the caller to wait for.
   */
  recordCommand(cost: CommandCost): void {
    this.#lastCommand = cost;
    setTimeout(() => {
      if (this.#lastCommand === cost) this.#kv.put(LAST_COMMAND_KEY, cost);
    }, 0);
  }

  #save(changes: Partial<Counters>): void {
    this.#counters = { ...this.#counters, ...changes };
    this.#kv.put(STATS_KEY, this.#counters);
    this.#meter.wrote(this.#counters);
  }
}
