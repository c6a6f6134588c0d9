// What every room of the hub works with: the hub's identity and bindings, its state, its sockets
// and its timers. Built once per instance, under blockConcurrencyWhile (device-hub.ts), after
// the SQLite schema is brought to its current version (schema-versions.ts), so nothing reaches
// a room before the state is loaded and its tables are as it expects. Each table is read by the
// one room that owns it (docs/architecture.md, "The hub's rooms").
import { type Db, getDb } from "../../worker/db/client.ts";
import { countingD1, type QueryCount } from "../../worker/db/query-count.ts";
import { CommandMeter } from "./command-meter.ts";
import { HubStatsStore } from "./hub-stats-store.ts";
import { migrateHubSchema } from "./schema-versions.ts";
import { HubSockets } from "./sockets.ts";
import { HubStateStore } from "./state.ts";
import { HubTimers } from "./timers.ts";

export type HubContext = {
  readonly ctx: DurableObjectState;
  /** The hub's bindings; its D1 counts every round trip in the hub's stats (state.ts). */
  readonly env: Env;
  /** The device id this hub was created for (`idFromName(deviceId)`). */
  readonly deviceId: string;
  readonly state: HubStateStore;
  /** Its counters (wakes, frames, D1 round trips, the last command's cost), in storage. */
  readonly stats: HubStatsStore;
  /** What the person's switch under way costs, step by step (command-meter.ts). */
  readonly meter: CommandMeter;
  readonly sockets: HubSockets;
  readonly timers: HubTimers;
  /** Logs a failure with the hub's identity, so a log line says which box's hub it was. */
  logError(what: string, error?: unknown): void;
  /**
   * D1's copy of presence and identity serves the admin lists; the hub's own storage is the
   * truth. A failed copy is logged and corrected by the next change, never fatal to the hub.
   */
  copyToD1(what: string, write: (db: Db) => Promise<unknown>): Promise<void>;
};

export function openHubContext(ctx: DurableObjectState, bindings: Env): HubContext {
  migrateHubSchema(ctx.storage);
  const meter = new CommandMeter();
  const stats = new HubStatsStore(ctx.storage.kv, meter);
  const d1: QueryCount = {
    get queries() {
      return stats.current.d1Queries;
    },
    set queries(_next) {
      stats.countD1Query();
    },
    // Its count is kept, not its time: nobody waits on the hub's D1 writes (its log goes after the answer).
    get milliseconds() {
      return 0;
    },
    set milliseconds(_next) {},
  };
  const env = { ...bindings, DB: countingD1(bindings.DB, d1) };
  const hub: HubContext = {
    ctx,
    env,
    get deviceId() {
      const name = ctx.id.name;
      if (!name) throw new Error("DeviceHub must be addressed with idFromName(deviceId)");
      return name;
    },
    state: new HubStateStore(ctx.storage.kv, meter),
    stats,
    meter,
    sockets: new HubSockets(ctx, meter),
    timers: new HubTimers(ctx.storage),
    logError(what, ...error) {
      console.error(`DeviceHub ${ctx.id.name}: ${what}`, ...error);
    },
    async copyToD1(what, write) {
      try {
        await write(getDb(env.DB));
      } catch (error) {
        hub.logError(`D1 ${what} update failed`, error);
      }
    },
  };
  return hub;
}
