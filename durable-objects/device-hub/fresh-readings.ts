// Fresh power and health on request (a farmer's Refresh, SPEC §7's power call; docs/device-protocol.md
// §5, "Requests for readings"). Each request that reaches the box costs its SIM about 650 bytes
// and puts a frame on its socket ahead of whatever comes next, so:
// - a reading the hub got at most FRESH_READING_MS ago is the answer, and the box is not asked;
// - requests that come while one is on its way share its answer (one round trip per kind);
// - at most one request reaches the box per READING_REQUEST_INTERVAL_MS, power and health
//   together; within that the answer is the hub's latest reading, with its age.
// A switch never waits behind these: at most one request frame is ever ahead of it.
import { FRESH_READING_MS, READING_REQUEST_INTERVAL_MS } from "../../common/constants.ts";
import type { ReadingResult } from "../../common/hub-contract.ts";
import type { HealthData, PowerData } from "../../common/realtime-protocol.ts";
import type { MotorCommands } from "./commands.ts";
import { OFFLINE } from "./pump-model.ts";
import { Room } from "./room.ts";
import { emptyHealth } from "./state.ts";

type Kind = "power" | "health";
/** The box was asked for a reading too recently to be asked again. */
type TooSoon = { ok: false; code: "tooSoon"; retryAfterMs: number };
type ReadingOf<K extends Kind> = K extends "power" ? PowerData : HealthData;

export class FreshReadings extends Room<{ commands: MotorCommands }> {
  /** Round trips under way, by kind: memory only, as the waiting callers are. */
  readonly #inFlight = new Map<Kind, Promise<ReadingResult<PowerData | HealthData>>>();

  power(now = Date.now()): Promise<ReadingResult<PowerData>> {
    return this.#read("power", now);
  }

  health(now = Date.now()): Promise<ReadingResult<HealthData>> {
    return this.#read("health", now);
  }

  async #read<K extends Kind>(kind: K, now: number): Promise<ReadingResult<ReadingOf<K>>> {
    const { state, sockets } = this.hub;
    // An offline box's last readings are not news: the caller is told it is offline, as before.
    if (!sockets.device()) return OFFLINE;
    const at = this.#readAt(kind);
    if (at !== null && now - at <= FRESH_READING_MS) return this.#latest(kind, now);
    const underWay = this.#inFlight.get(kind);
    if (underWay) return underWay as Promise<ReadingResult<ReadingOf<K>>>;
    const asked = state.current.readingRequestedAt;
    if (asked !== null && now - asked < READING_REQUEST_INTERVAL_MS) return this.#latest(kind, now);
    return this.#ask(kind, now);
  }

  /**
   * A power reading the box takes now, never the hub's latest (commissioning's supply check, where
   * a confirmed OFF's reading without volts would mislead): on the same budget as the farmer's
   * requests, one request frame per READING_REQUEST_INTERVAL_MS, sharing a power request under
   * way; sooner than that, how long until the box may be asked.
   */
  async boxPower(now = Date.now()): Promise<ReadingResult<PowerData> | TooSoon> {
    if (!this.hub.sockets.device()) return OFFLINE;
    const underWay = this.#inFlight.get("power");
    if (underWay) return underWay as Promise<ReadingResult<PowerData>>;
    const asked = this.hub.state.current.readingRequestedAt;
    if (asked !== null && now - asked < READING_REQUEST_INTERVAL_MS) {
      return { ok: false, code: "tooSoon", retryAfterMs: READING_REQUEST_INTERVAL_MS - (now - asked) };
    }
    return this.#ask("power", now);
  }

  #ask<K extends Kind>(kind: K, now: number): Promise<ReadingResult<ReadingOf<K>>> {
    // Counted when it leaves, whatever the answer: an unanswered request cost the SIM too.
    this.hub.state.save({ readingRequestedAt: now });
    const trip = this.#roundTrip(kind).finally(() => this.#inFlight.delete(kind));
    this.#inFlight.set(kind, trip);
    return trip;
  }

  async #roundTrip<K extends Kind>(kind: K): Promise<ReadingResult<ReadingOf<K>>> {
    const frame = await this.rooms.commands.requestFrame(kind);
    if (!frame.ok) return frame;
    // The frame's handler stored the reading before it released the waiters.
    return { ...this.#latest(kind, Date.now()), source: "box" } as ReadingResult<ReadingOf<K>>;
  }

  /** When the hub's latest reading of `kind` was taken (a health report, or a power reading or a confirmed OFF). */
  #readAt(kind: Kind): number | null {
    const { current } = this.hub.state;
    if (kind === "power") return current.powerAt;
    return current.health?.reportedAt ? Date.parse(current.health.reportedAt) : null;
  }

  #latest<K extends Kind>(kind: K, now: number): ReadingResult<ReadingOf<K>> {
    const { current } = this.hub.state;
    const at = this.#readAt(kind);
    const reading = kind === "power" ? current.power : (current.health ?? emptyHealth());
    return {
      ok: true,
      reading: reading as ReadingOf<K>,
      source: "hub",
      ageSeconds: at === null ? null : Math.max(0, Math.round((now - at) / 1000)),
    };
  }
}
