// The steps of the hub's chaos simulation (device-hub.chaos.test.ts) as plain data, and the
// seeded generator that draws them: a seed always draws the same sequence, and a sequence always
// replays the same run, so a failing seed prints as a list of steps anyone can replay and cut
// down. Every step is meaningful in any state (an answer with no command waiting, a reconnect
// of a box that is connected, do nothing), so any part of a sequence is itself a valid run.

/** How the box answers the oldest switch command it has received and not yet answered. */
export type Answer =
  /** Switches and acks within the same moment. */
  | "ack"
  /** Switches now and sends its ack when a `deliver` step comes: in time or late, by the clock. */
  | "ackLater"
  /** Switches; its ack is lost. */
  | "loseAck"
  /** The command never reached the relay: nothing switches, nothing answers. */
  | "ignore"
  /** Refuses (ok: false) and leaves its relay as it is. */
  | "refuse";

/** When the box reports something it did by itself: at once, with a later `deliver`, or never (lost). */
export type Report = "now" | "later" | "never";

/** How the hub's alarm is delivered during a wait: when due, once the wait is over, twice, or not at all. */
export type AlarmDelivery = "onTime" | "late" | "twice" | "never";

export type Step =
  /** The owner taps ON or OFF: over HTTP (the API's route) or on the page's open socket. */
  | { do: "tap"; action: "on" | "off"; via: "http" | "socket" }
  /** The owner switches ON from a phone for `minutes` (the hub owes the switch-off), or OFF. */
  | { do: "phone"; action: "on" | "off"; minutes: number }
  | { do: "answer"; how: Answer }
  /** The box sends the oldest frame it held back. */
  | { do: "deliver" }
  /** The box sends its last frame again. */
  | { do: "repeat" }
  /** A hand at the starter switches the relay. */
  | { do: "hand"; relay: "on" | "off"; report: Report }
  /** The box reports its readings: as they are, or a sensor that reads nothing. */
  | { do: "reading"; sensor: "true" | "zero" }
  /** Someone asks for a fresh health report (the page's Refresh): the box states its relay in it. */
  | { do: "refresh" }
  | { do: "powerCut"; report: Report }
  | { do: "powerBack"; report: Report }
  | { do: "phase"; fault: boolean; report: Report }
  /** The box trips on a protection and opens its relay. */
  | { do: "trip"; kind: "dryRun" | "overCurrent" | "underVoltage"; report: Report }
  /** The link drops; what the box held back stays with it (`keep`) or is lost. */
  | { do: "drop"; keep: boolean }
  /** The box sends nothing more by itself (no readings) until it reconnects: a silent link. */
  | { do: "silence" }
  /** The owner's dashboard opens (its socket watches the pump) or closes. */
  | { do: "page"; open: boolean }
  /** The open page's session is signed out elsewhere; the page taps once more before it hears. */
  | { do: "signOut"; action: "on" | "off" }
  /** The box connects (again) and says hello with its relay. */
  | { do: "reconnect" }
  /** The box restarts: the link drops, its relay comes back open or stuck closed, and it says hello. */
  | { do: "restart"; relay: "on" | "off" }
  /** Time passes on the hub's clock; alarms come as `alarm` says. */
  | { do: "wait"; ms: number; alarm: AlarmDelivery }
  /** The platform hibernates the hub (between events only, as the runtime does). */
  | { do: "evict" }
  /** D1 fails (its motor log and members tables gone) or is back. */
  | { do: "d1"; up: boolean }
  /** D1 stops answering (it takes every query, and holds every answer) until the clock has moved `ms`. */
  | { do: "d1Hang"; ms: number }
  /**
   * The owner, or the member while they are one, sets a clock schedule `inMinutes` ahead: ON
   * (for `forMinutes`, or until stopped) or OFF, once or daily.
   */
  | {
      do: "schedule";
      by: Setter;
      action: "on" | "off";
      inMinutes: number;
      forMinutes: number | null;
      repeat: "once" | "daily";
    }
  /** A power window opening `inMinutes` ahead for `lasts` minutes: run `runMinutes` once supply is there. */
  | { do: "window"; by: Setter; inMinutes: number; lasts: number; runMinutes: number; resume: boolean }
  /** The oldest schedule still set is deleted by the owner. */
  | { do: "unschedule" }
  /**
   * The owner shares the pump with an operator (invited, accepted, their page opened), or
   * removes them; a removed member's page, not yet told, taps `action` once more on its socket.
   */
  | { do: "member"; join: boolean; action: "on" | "off" }
  /** The member taps ON or OFF: over HTTP, or on their page's socket while it is open. */
  | { do: "memberTap"; action: "on" | "off"; via: "http" | "socket" }
  /**
   * The hub's instance is lost whatever it had under way (a deploy, a crash): between a command
   * sent and its ack, during an alarm, while D1 hangs. The next event starts a new instance.
   */
  | { do: "crash" };

/** Who sets a schedule: the owner, or the operator they shared the pump with (the owner, while there is none). */
export type Setter = "owner" | "member";

/** The base seed `npm test` explores from (`CHAOS_SEED` changes it), its number of runs and their length. */
export const DEFAULT_CHAOS_SEED = 20_261_126;
export const SUITE_RUNS = 200;
export const STEPS_PER_RUN = 40;

/** sfc32, seeded through splitmix32: small, fast, and the same numbers on every machine. */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    let state = seed >>> 0;
    const next = () => {
      state = (state + 0x9e3779b9) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#a = next();
    this.#b = next();
    this.#c = next();
    this.#d = next();
  }

  /** A number in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t / 4_294_967_296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One of `options`, each as likely as its weight. */
  weighted<T>(options: readonly (readonly [number, () => T])[]): T {
    const total = options.reduce((sum, [weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [weight, make] of options) {
      roll -= weight;
      if (roll < 0) return make();
    }
    return options[options.length - 1]![1]();
  }
}

/** The seed of run `index` of an exploration that starts from `baseSeed`. */
export function runSeed(baseSeed: number, index: number): number {
  return (Math.imul(baseSeed ^ 0x5bd1e995, 0x01000193) + Math.imul(index + 1, 0x9e3779b1)) >>> 0;
}

const report = (random: Random): Report =>
  random.weighted([
    [6, () => "now" as const],
    [3, () => "later" as const],
    [1, () => "never" as const],
  ]);

/**
 * The steps one seed draws. Weighted towards what makes trouble: commands and the box's ways of
 * answering them, with the clock moving by a few seconds (inside and past the 5 s ack window) or
 * by minutes (past cooldowns, liveness limits and timed runs).
 */
export function drawSteps(seed: number, count: number): Step[] {
  const random = new Random(seed);
  const steps: Step[] = [];
  for (let i = 0; i < count; i++) {
    steps.push(
      random.weighted<Step>([
        [
          10,
          () => ({
            do: "tap",
            action: random.pick(["on", "off"] as const),
            via: random.pick(["http", "socket"] as const),
          }),
        ],
        [3, () => ({ do: "phone", action: random.chance(0.7) ? "on" : "off", minutes: random.int(1, 3) })],
        [
          12,
          () => ({
            do: "answer",
            how: random.weighted<Answer>([
              [5, () => "ack"],
              [4, () => "ackLater"],
              [2, () => "loseAck"],
              [1, () => "ignore"],
              [1, () => "refuse"],
            ]),
          }),
        ],
        [6, () => ({ do: "deliver" })],
        [1, () => ({ do: "repeat" })],
        [4, () => ({ do: "hand", relay: random.pick(["on", "off"] as const), report: report(random) })],
        [4, () => ({ do: "reading", sensor: random.chance(0.8) ? "true" : "zero" })],
        [2, () => ({ do: "refresh" })],
        [1, () => ({ do: "powerCut", report: report(random) })],
        [1, () => ({ do: "powerBack", report: report(random) })],
        [1, () => ({ do: "phase", fault: random.chance(0.5), report: report(random) })],
        [
          1,
          () => ({
            do: "trip",
            kind: random.pick(["dryRun", "overCurrent", "underVoltage"] as const),
            report: report(random),
          }),
        ],
        [2, () => ({ do: "drop", keep: random.chance(0.5) })],
        [3, () => ({ do: "reconnect" })],
        [1, () => ({ do: "silence" })],
        [2, () => ({ do: "page", open: random.chance(0.5) })],
        [1, () => ({ do: "signOut", action: random.pick(["on", "off"] as const) })],
        [1, () => ({ do: "restart", relay: random.chance(0.7) ? "off" : "on" })],
        [
          10,
          () => ({
            do: "wait",
            ms: random.weighted([
              [5, () => random.int(200, 4_000)],
              [4, () => random.int(4_000, 12_000)],
              [2, () => random.int(12_000, 120_000)],
              [1, () => random.int(120_000, 300_000)],
            ]),
            alarm: random.weighted<AlarmDelivery>([
              [6, () => "onTime"],
              [2, () => "late"],
              [1, () => "twice"],
              [1, () => "never"],
            ]),
          }),
        ],
        [2, () => ({ do: "evict" })],
        [1, () => ({ do: "d1", up: random.chance(0.6) })],
        [1, () => ({ do: "d1Hang", ms: random.int(1_000, 15 * 60_000) })],
        [
          3,
          () => {
            const action = random.chance(0.7) ? ("on" as const) : ("off" as const);
            return {
              do: "schedule",
              by: random.pick(["owner", "member"] as const),
              action,
              inMinutes: random.int(1, 4),
              forMinutes: action === "on" && random.chance(0.6) ? random.int(1, 3) : null,
              repeat: random.pick(["once", "daily"] as const),
            };
          },
        ],
        [
          2,
          () => ({
            do: "window",
            by: random.pick(["owner", "member"] as const),
            inMinutes: random.int(1, 3),
            lasts: random.int(3, 8),
            runMinutes: random.int(1, 3),
            resume: random.chance(0.5),
          }),
        ],
        [1, () => ({ do: "unschedule" })],
        [2, () => ({ do: "member", join: random.chance(0.6), action: random.pick(["on", "off"] as const) })],
        [
          2,
          () => ({
            do: "memberTap",
            action: random.pick(["on", "off"] as const),
            via: random.pick(["http", "socket"] as const),
          }),
        ],
        [1, () => ({ do: "crash" })],
      ]),
    );
  }
  return steps;
}

/** A step as one short line, for failure reports. */
export function describeStep(step: Step): string {
  const { do: kind, ...rest } = step;
  const details = Object.entries(rest).map(([key, value]) => `${key}=${String(value)}`);
  return details.length === 0 ? kind : `${kind} ${details.join(" ")}`;
}
