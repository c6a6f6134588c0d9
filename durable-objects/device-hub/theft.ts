// Theft and tamper (docs/device-protocol.md §7, "Theft and tamper"; docs/decisions/033-installers.md):
// the box's enclosure opened, and a supply that went while the motor ran which, compared with
// the boxes of the same feeder tag, was a cut cable and not a power cut. Each is logged and
// raises a theft alert (call and SMS to the owner and operators) once per event: a tamper
// reported again before the box says its enclosure is closed, a second `powerLost`, an alarm
// delivered twice change nothing. The decision itself is supply-cut.ts's.
import { getDb } from "../../worker/db/client.ts";
import { feederNeighbours } from "../../worker/db/installers.ts";
import type { HubAlerts } from "./alerts.ts";
import type { MotorCommands } from "./commands.ts";
import type { MotorLog } from "./motor-log.ts";
import { Room } from "./room.ts";
import {
  NEIGHBOURS_ASKED,
  type NeighbourSupply,
  ownSupplySince,
  SUPPLY_CUT_SETTLE_MS,
  supplyCutVerdict,
} from "./supply-cut.ts";
import { TIMERS } from "./timers.ts";

/** Since when the box's enclosure is open, as the box said (KV: a restarted hub still knows). */
const TAMPER_KEY = "tamper-open-since";
/** A cut waiting to be compared with the feeder's boxes: when it happened. */
const SUPPLY_CUT_KEY = "supply-cut-check";

type SupplyCut = { cutAt: number };

export type TheftRooms = { log: MotorLog; alerts: HubAlerts; commands: MotorCommands };

/** After a box left a neighbour's question unanswered, it is not asked again for so long. */
const UNANSWERED_QUIET_MS = 60_000;

export class Theft extends Room<TheftRooms> {
  /** A comparison under way in this instance: an alarm delivered twice must not run it twice at once. */
  #comparing = false;
  /** The box being asked for a reading for the neighbours: they share its answer. */
  #asking: Promise<unknown> | null = null;
  /** When the box last left that question unanswered. */
  #unansweredAt = 0;

  /** The enclosure opened: logged and alerted, unless the box already said so and has not closed it since. */
  onTamper(now: number): void {
    const { kv } = this.hub.ctx.storage;
    if (kv.get<number>(TAMPER_KEY) !== undefined) return;
    kv.put(TAMPER_KEY, now);
    this.rooms.log.record("other", { kind: "tamper" });
    this.rooms.alerts.raise({ kind: "theft", cause: "tamper" });
  }

  /** The enclosure is closed again: the next opening is news. */
  onTamperOk(): void {
    const { kv } = this.hub.ctx.storage;
    if (kv.get<number>(TAMPER_KEY) === undefined) return;
    kv.delete(TAMPER_KEY);
    this.rooms.log.record("other", { kind: "tamperOk" });
  }

  /**
   * The supply went (`powerLost`). Only a box that ran its motor and reports on its battery can
   * be a cut cable: its neighbours are asked once their own reports have had time to arrive.
   */
  onSupplyLost(onBattery: boolean, motorWasRunning: boolean, now: number): void {
    const { ctx, timers } = this.hub;
    if (!onBattery || !motorWasRunning) return;
    if (ctx.storage.kv.get<SupplyCut>(SUPPLY_CUT_KEY) !== undefined) return;
    ctx.storage.kv.put(SUPPLY_CUT_KEY, { cutAt: now } satisfies SupplyCut);
    timers.set(TIMERS.supplyCut, now + SUPPLY_CUT_SETTLE_MS);
  }

  /** The supply is back before the comparison: a cable cut does not mend itself. */
  onSupplyBack(): void {
    this.hub.ctx.storage.kv.delete(SUPPLY_CUT_KEY);
    this.hub.timers.delete(TIMERS.supplyCut);
  }

  /**
   * The supply-cut timer: ask the feeder's boxes (D1 names them, their hubs answer) and decide.
   * A failure (D1, a hub) throws, and the alarm runs it again later with the cut still kept.
   */
  async compareWithFeeder(): Promise<void> {
    const { ctx, env, deviceId } = this.hub;
    const cut = ctx.storage.kv.get<SupplyCut>(SUPPLY_CUT_KEY);
    if (cut === undefined || this.#comparing) return;
    this.#comparing = true;
    try {
      const neighbours = await feederNeighbours(getDb(env.DB), deviceId, NEIGHBOURS_ASKED);
      const answers = await Promise.all(
        neighbours.map((id) =>
          env.DEVICE_HUB.get(env.DEVICE_HUB.idFromName(id))
            .supplySince(cut.cutAt)
            .catch((error: unknown): NeighbourSupply => {
              this.hub.logError(`neighbour ${id} could not say whether it has supply`, error);
              return "unknown";
            }),
        ),
      );
      // The supply came back meanwhile (onSupplyBack): nothing to say.
      if (ctx.storage.kv.get<SupplyCut>(SUPPLY_CUT_KEY)?.cutAt !== cut.cutAt) return;
      ctx.storage.kv.delete(SUPPLY_CUT_KEY);
      if (supplyCutVerdict(answers) !== "cableCut") return;
      this.rooms.log.record("other", { kind: "cableCut" });
      this.rooms.alerts.raise({ kind: "theft", cause: "cableCut" });
    } finally {
      this.#comparing = false;
    }
  }

  /**
   * A neighbour asks whether this box has supply since `cutAt`. Without a sign of life since,
   * the box is asked for a reading, whatever fresh-readings.ts's once a minute: a reading from
   * before the cut says nothing. Once per cut at most: the answer is a sign of life for every
   * later question about the same cut, the neighbours asking together share one request, and a
   * box that did not answer is not asked again for a minute.
   */
  async supplySince(cutAt: number): Promise<NeighbourSupply> {
    const first = this.#ownSupplySince(cutAt);
    if (first !== "unknown" || !this.hub.sockets.device() || !this.hub.state.current.supply) return first;
    if (Date.now() - this.#unansweredAt < UNANSWERED_QUIET_MS) return first;
    this.#asking ??= this.rooms.commands.requestFrame("power").then((frame) => {
      if (!frame.ok) this.#unansweredAt = Date.now();
      this.#asking = null;
    });
    await this.#asking;
    return this.#ownSupplySince(cutAt);
  }

  #ownSupplySince(cutAt: number): NeighbourSupply {
    const { state, sockets } = this.hub;
    const device = sockets.device();
    const heartbeatAt = device ? sockets.heartbeatAt(device) : null;
    const heard = [state.current.lastSeenAt, heartbeatAt].filter((at) => at !== null);
    return ownSupplySince(
      {
        supply: state.current.supply,
        supplyLostAt: state.current.supplyLostAt,
        connected: device !== null && state.current.online,
        heardAt: heard.length === 0 ? null : Math.max(...heard),
      },
      cutAt,
    );
  }
}
