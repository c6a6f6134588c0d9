// The hub's chaos simulation (docs/testing.md, "The chaos simulation"): one real DeviceHub, in
// workerd as every hub test runs it, with a simulated box on a real socket and a person on the
// real HTTP API, the page's real socket and the phone's RPC. The simulation owns everything the
// hub cannot: its clock (vitest's fake Date and setTimeout, advanced inside the hub, so the 5 s
// ack window and every timer move only when a step says), its alarm (run when due, late, twice
// or not at all), its eviction, D1 (tables renamed away for an outage), and the box's every
// frame, each handed to the hub's own socket handler on the socket the hub accepted, one at a
// time, as the runtime would. After every step the simulation waits until the hub has done all
// it can (every operation answered, or blocked on an ack the box has not sent), then checks the
// invariants (chaos-invariants.ts). Nothing of the hub's logic is replaced.
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { UNWATCHED_POWER_INTERVAL_MS, WATCHED_POWER_INTERVAL_MS } from "../../common/constants.ts";
import { type DeadlineTimers, withDeadline } from "../../common/deadline.ts";
import { DEVICE_PROTOCOL_VERSION, type DeviceMessage, type RelayState } from "../../common/device-protocol.ts";
import type { MotorCommandResult } from "../../common/hub-contract.ts";
import { wordsIn } from "../../common/i18n/dictionaries.ts";
import { motorLogText } from "../../common/i18n/motor-log.ts";
import { MAX_PUMP_MEMBERS } from "../../common/pump-roles.ts";
import { faultsOf } from "../../durable-objects/device-hub/pump-model.ts";
import type { HubRooms } from "../../durable-objects/device-hub/rooms.ts";
import { isLive } from "../../durable-objects/device-hub/sockets.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { startSession } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { insertInvitation } from "../../worker/db/device-members.ts";
import { motorLogEventOfRow } from "../../worker/db/motor-logs.ts";
import { users } from "../../worker/db/schema.ts";
import { uniqueMobileNo } from "../worker/helpers/accounts.ts";
import { provisionDevice } from "../worker/helpers/boxes.ts";
import { storageGeneration } from "../worker/helpers/fresh-storage.ts";
import { deleteJson, postJson } from "../worker/helpers/http.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";
import { type BrowserPeer, connectBrowser, connectDevice, type DevicePeer } from "../worker/helpers/sockets.ts";
import {
  d1Hangs,
  dropD1Answers,
  endD1Hang,
  handOnD1Answers,
  hangD1,
  heldD1Answers,
  installD1Hang,
  unheld,
} from "./chaos-d1.ts";
import {
  type HubView,
  InvariantChecker,
  type LogEntry,
  type Outcome,
  type PersonRequest,
  type StepEvents,
} from "./chaos-invariants.ts";
import { describeStep, type Setter, type Step } from "./chaos-steps.ts";

/** The hub's clock when every run starts: 06:00 in India, a fixed day, so a seed replays exactly. */
export const SIMULATION_START = Date.UTC(2031, 0, 6, 0, 30);
/** The box's current while its motor runs, A: the default motor's (SPEC §3: 1 A). */
const RUNNING_CURRENT = 1.0;
/**
 * How often a connected box that is not silent reports its readings by itself while time passes:
 * while watched, every other reading of the 5 s the protocol asks (the hub's limit is 15 s), so a
 * long wait costs half the frames.
 */
const reportEvery = (watched: boolean) => (watched ? 2 * WATCHED_POWER_INTERVAL_MS : UNWATCHED_POWER_INTERVAL_MS);
/** Looks into the hub a step may take to settle before the simulation gives up on it. */
const SETTLE_LOOKS = 5_000;
/**
 * Real time one step may take (a step takes milliseconds; settling gives up sooner on a hub that
 * keeps changing): past it, the step hangs, and its run fails with its seed like any other
 * instead of holding the batch until vitest's own timeout ends every run after it.
 */
export const STEP_DEADLINE_MS = 15_000;
/** Real time the shrinking of one failure may take: each replay of a hang costs a deadline. */
export const SHRINK_BUDGET_MS = 60_000;
/** The runtime's own timers, taken before any run fakes the global ones. */
const REAL_TIMERS: DeadlineTimers = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout };

/**
 * Drops the fake timers a lost or hibernated instance left (an ack window, a flush). vitest's
 * `clearAllTimers` also puts its fake clock back where the run began (fake-timers' `reset`):
 * the clock is set again to where it was, or the run's time would jump back to its first moment.
 */
function clearTimersKeepingTime(): void {
  const now = Date.now();
  vi.clearAllTimers();
  vi.setSystemTime(now);
}

/** `work`, or a failure naming `what` once STEP_DEADLINE_MS of real time has passed without it. */
function withinDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  return withDeadline(
    work,
    STEP_DEADLINE_MS,
    () => {
      throw new Error(`${what} did not finish within ${STEP_DEADLINE_MS / 1000} s of real time: it hangs`);
    },
    REAL_TIMERS,
  );
}

const ENGLISH = wordsIn("en");

const roomsOf = (hub: unknown): HubRooms => (hub as { rooms: HubRooms }).rooms;

/** The box's socket the hub accepted and still lives (after a reconnect, the old one is closed). */
function liveDevice(state: DurableObjectState): WebSocket | null {
  return state.getWebSockets("device").find((ws) => isLive(ws)) ?? null;
}

/** The pages' sockets the hub holds open. */
function livePages(state: DurableObjectState): number {
  return state.getWebSockets("browser").filter((ws) => isLive(ws)).length;
}

/** The minute of India's day (UTC+5:30) at `at`. */
function istMinuteOfDay(at: number): number {
  return Math.floor((at + 330 * 60_000) / 60_000) % (24 * 60);
}

/** A frame the box holds back: an ack states the relay as it is when it finally leaves. */
type Held = { ack: { id: string; ok: boolean } } | { frame: DeviceMessage };

/**
 * Something the hub was given to do; a person's request knows the switch it sent. `lost`: it
 * was under way when the hub's instance was lost, and its failure is the crash's.
 */
type Op = { label: string; done: boolean; request?: PersonRequest; lost?: boolean };

/** The simulated box: the true state of its relay, supply and phases, and its link. */
type Box = {
  relay: RelayState;
  supply: boolean;
  phaseFault: boolean;
  peer: DevicePeer | null;
  /** Its hello reached the hub on the current link. */
  greeted: boolean;
  /** Sends nothing by itself until it reconnects (a silent link). */
  silent: boolean;
  /** Switch commands received and not yet answered, oldest first. */
  inbox: { id: string; relay: RelayState }[];
  held: Held[];
  lastFrame: string | null;
  /** Messages from the hub already read off the current peer. */
  read: number;
  lastReportAt: number;
};

export type RunResult = {
  seed: number | null;
  steps: Step[];
  /** Steps carried out before the first violation (all of them when none). */
  stepsRun: number;
  violations: string[];
  /** What the hub logged, in English, for the report. */
  log: string[];
};

/** A replay (npm run chaos -- --replay) prints each step as it starts: a run that hangs shows where. */
const TRACE = env.CHAOS_REPLAY !== "";

/**
 * Runs `steps` against a new hub and box, checking after each; stops at the first violation.
 * A hub that never settles is one too (something waits for ever), reported with its seed and
 * shrunk like any other. The fake clock is on for the whole run and off after it, whatever happens.
 */
export async function runSteps(steps: Step[], seed: number | null = null): Promise<RunResult> {
  installD1Hang();
  vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"], now: SIMULATION_START });
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const world = new World();
  try {
    await withinDeadline(world.start(), "the run's start");
    let stepsRun = 0;
    for (const step of steps) {
      if (TRACE) console.log(`step ${stepsRun + 1}: ${describeStep(step)}`);
      let violations: string[];
      try {
        violations = await withinDeadline(
          world.apply(step).then(() => world.check(step)),
          `step ${stepsRun + 1} (${describeStep(step)})`,
        );
      } catch (error) {
        violations = [`the run broke down: ${error instanceof Error ? error.message : String(error)}`];
      }
      stepsRun += 1;
      if (violations.length > 0) return { seed, steps, stepsRun, violations, log: world.logText() };
    }
    return { seed, steps, stepsRun, violations: [], log: world.logText() };
  } finally {
    // A hub that hung may not let its run end either; the next run has a hub of its own.
    await withinDeadline(world.stop(), "the run's end").catch(() => {});
    errors.mockRestore();
    vi.useRealTimers();
  }
}

/**
 * The shortest sequence this finds that still breaks a rule: the failing prefix, then each step
 * left out in turn while the run still fails (any rule: a shorter run may show another lie first).
 */
export async function shrink(failing: RunResult): Promise<RunResult> {
  let best: RunResult = { ...failing, steps: failing.steps.slice(0, failing.stepsRun) };
  const giveUpAt = performance.now() + SHRINK_BUDGET_MS;
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = best.steps.length - 1; i >= 0; i--) {
      // What is shortest by then is printed: a run that hangs costs a deadline per replay.
      if (performance.now() > giveUpAt) return best;
      const candidate = [...best.steps.slice(0, i), ...best.steps.slice(i + 1)];
      const result = await runSteps(candidate, failing.seed);
      if (result.violations.length > 0) {
        best = { ...result, steps: candidate.slice(0, result.stepsRun) };
        improved = true;
      }
    }
  }
  return best;
}

/** A failing run as the report prints it: the seed, the steps numbered, what broke and the log. */
export function describeFailure(result: RunResult): string {
  const lines = [
    `seed ${result.seed ?? "(replayed steps)"}: ${result.violations.length} violation(s) after step ${result.stepsRun}`,
    ...result.steps.map((step, index) => `  ${String(index + 1).padStart(3)}. ${describeStep(step)}`),
    ...result.violations.map((violation) => `  ✗ ${violation}`),
    "  motor log:",
    ...result.log.map((line) => `    ${line}`),
  ];
  return lines.join("\n");
}

/**
 * The owner of every run's box (each run has a box, and so a hub, of its own), with a session
 * made at the simulation's start: the clock starts there again for every run; and the operator
 * every run's owner may share the pump with (each run's box starts unshared). Made again once
 * the runtime's storage has been emptied for a file.
 */
let people: {
  generation: number;
  owner: { userId: number; token: string };
  member: { userId: number; token: string; mobileNo: string };
} | null = null;

async function newOwner(): Promise<{ userId: number; token: string; mobileNo: string }> {
  const mobileNo = uniqueMobileNo();
  const [user] = await getDb(env.DB)
    .insert(users)
    // Nobody signs in with a password here: the session is made directly.
    .values({
      mobileNo,
      passwordHash: "chaos-simulation",
      createdAt: Date.now(),
      numberVerifiedAt: Date.now(),
    })
    .returning();
  return { userId: user!.id, token: (await startSession(env, user!.id, "user")).token, mobileNo };
}

class World {
  readonly #checker = new InvariantChecker();
  #deviceId = "";
  #device: Awaited<ReturnType<typeof provisionDevice>> | null = null;
  #userId = 0;
  #token = "";
  /** The open page's own session. */
  #pageToken = "";
  #browser: BrowserPeer | null = null;
  #box: Box = {
    relay: "off",
    supply: true,
    phaseFault: false,
    peer: null,
    greeted: false,
    silent: false,
    inbox: [],
    held: [],
    lastFrame: null,
    read: 0,
    lastReportAt: SIMULATION_START,
  };
  #ops: Op[] = [];
  #requests: PersonRequest[] = [];
  #requestCount = 0;
  #d1Down = false;
  #log: LogEntry[] = [];
  #lastLogId = 0;
  /** Log entries seen in the hub's log by a look since the last check. */
  #seenRows = new Map<number, LogEntry>();
  /** What the last look of a settle saw, still true while nothing has been done since. */
  #lastLook: { view: HubView; lastId: number } | null = null;
  /** What this step did, for the checker. */
  #stepEvents: StepEvents = emptyEvents();
  #stepIndex = 0;
  /** Socket requests waiting for their `commandResult`, with the page that sent them. */
  #socketWaiters = new Map<string, { page: BrowserPeer; answer: (result: Outcome) => void }>();
  /** The operator: whether they are one of the pump's people now, and their page's socket. */
  #member = { joined: false, page: null as BrowserPeer | null };
  /** When D1 answers again (the clock's), while it hangs. */
  #d1HangsUntil: number | null = null;

  get #stub() {
    return hubStub(this.#deviceId);
  }

  async start(): Promise<void> {
    if (people?.generation !== storageGeneration()) {
      people = { generation: storageGeneration(), owner: await newOwner(), member: await newOwner() };
    }
    this.#userId = people.owner.userId;
    this.#token = people.owner.token;
    this.#device = await provisionDevice(people.owner.userId);
    this.#deviceId = this.#device.deviceId;
    await this.#connect();
    await this.#settle();
    this.#stepEvents = emptyEvents();
  }

  async stop(): Promise<void> {
    if (d1Hangs()) endD1Hang();
    // What the hang held goes to this run's hub, not the next run's.
    if (this.#deviceId) await runInDurableObject(this.#stub, () => handOnD1Answers()).catch(() => {});
    if (this.#d1Down) await this.#setD1(true);
    if (!this.#deviceId) {
      clearTimersKeepingTime();
      return;
    }
    // The run's hub goes with it, sockets, storage and all: ten thousand runs must not keep ten
    // thousand hubs, and nothing it still had under way may meet its tables gone.
    // Its sockets close first: what still waits for the box (a command, an alarm's switch-off)
    // ends as the link does, and the platform may then stop it.
    this.#browser?.close();
    this.#member.page?.close();
    this.#box.peer?.close();
    // What waits on the clock (a schedule waiting out the cooldown) ends as the clock moves on.
    for (let look = 0; look < 50 && this.#busy().length > 0; look++) {
      await runInDurableObject(this.#stub, () => void vi.advanceTimersByTime(10_000));
    }
    // Timers the last instance left (a flush, an ack window) die with the run.
    clearTimersKeepingTime();
    if (this.#busy().length > 0) {
      // Still under way: the platform would not evict it; the run's end resets it instead.
      await runInDurableObject(this.#stub, (_hub, state) => state.abort("chaos: the hub's instance is lost")).catch(
        () => {},
      );
      for (const op of this.#busy()) op.lost = true;
    }
    await evictDurableObject(this.#stub);
    await runInDurableObject(this.#stub, async (_hub, state) => {
      await state.storage.deleteAlarm();
      await state.storage.deleteAll();
    });
    await evictDurableObject(this.#stub);
  }

  logText(): string[] {
    return this.#log.map((entry) => `${entry.action.padEnd(5)} ${motorLogText(entry.event, ENGLISH)}`);
  }

  // ---- steps -------------------------------------------------------------------------------

  async apply(step: Step): Promise<void> {
    this.#stepIndex += 1;
    this.#lastLook = null;
    this.#stepEvents = emptyEvents();
    this.#checker.beforeStep(this.#box.greeted);
    const box = this.#box;
    switch (step.do) {
      case "tap":
        await this.#personRequest(step.action, step.via, null);
        return;
      case "phone":
        await this.#personRequest(step.action, "phone", step.action === "on" ? step.minutes : null);
        return;
      case "answer": {
        const command = box.inbox.shift();
        if (!command) return;
        if (step.how === "ignore") return;
        // A box never closes its relay on a missing phase or without mains: it answers ok: false.
        const cannot = command.relay === "on" && (box.phaseFault || !box.supply);
        if (step.how === "refuse" || cannot) {
          if (step.how !== "loseAck")
            this.#send({ ack: { id: command.id, ok: false } }, step.how === "ackLater" ? "later" : "now");
          break;
        }
        this.#setRelay(command.relay);
        if (step.how === "ack") this.#send({ ack: { id: command.id, ok: true } }, "now");
        if (step.how === "ackLater") box.held.push({ ack: { id: command.id, ok: true } });
        // A box reports its readings after every switch.
        if (step.how === "ack" && box.greeted) this.#send({ frame: this.#reading("true") }, "now");
        break;
      }
      case "deliver": {
        const next = box.held.shift();
        if (next) this.#send(next, "now");
        break;
      }
      case "repeat":
        if (box.lastFrame && box.greeted) this.#deliverText(box.lastFrame, null);
        break;
      case "hand":
        this.#setRelay(step.relay);
        this.#send({ frame: { type: "relay", relay: step.relay, cause: "manual" } }, step.report);
        break;
      case "reading":
        if (box.greeted) this.#send({ frame: this.#reading(step.sensor) }, "now");
        break;
      case "refresh":
        this.#track("refresh", this.#stub.requestHealth());
        break;
      case "powerCut":
        box.supply = false;
        this.#send({ frame: { type: "event", event: "powerLost", relay: box.relay } }, step.report);
        break;
      case "powerBack":
        box.supply = true;
        this.#send({ frame: { type: "event", event: "powerRestored", relay: box.relay } }, step.report);
        break;
      case "phase":
        box.phaseFault = step.fault;
        // A box holds its motor off while a phase is missing.
        if (step.fault) this.#setRelay("off");
        this.#send(
          {
            frame: step.fault
              ? { type: "event", event: "phaseFault", relay: "off", detail: "Phase Y missing", phase: "Y" }
              : { type: "event", event: "phaseOk", relay: box.relay },
          },
          step.report,
        );
        break;
      case "trip": {
        const wasRunning = this.#current() > 0;
        this.#setRelay("off");
        if (!wasRunning && step.kind !== "underVoltage") break; // nothing turned: nothing to trip on
        const frame: DeviceMessage =
          step.kind === "underVoltage"
            ? { type: "event", event: "underVoltage", relay: "off", voltages: [300, 302, 298] }
            : { type: "event", event: step.kind, relay: "off", current: step.kind === "dryRun" ? 0.2 : 2.5 };
        this.#send({ frame }, step.report);
        break;
      }
      case "drop":
        if (!step.keep) box.held = [];
        await this.#drop();
        break;
      case "reconnect":
        if (box.peer === null && !d1Hangs()) await this.#connect();
        break;
      case "silence":
        box.silent = true;
        break;
      case "page":
        // Opening a page, signing out and a box's connection all wait on D1 first: while it
        // hangs, they wait (the person, the box) and the step does nothing.
        if (step.open && d1Hangs()) break;
        if (step.open) await this.#openPage();
        else await this.#closePage();
        break;
      case "signOut":
        if (d1Hangs()) break;
        await this.#signOut(step.action);
        break;
      case "restart":
        // Its memory goes with it: commands not answered, frames not sent.
        box.inbox = [];
        box.held = [];
        await this.#drop();
        this.#setRelay(step.relay);
        if (!d1Hangs()) await this.#connect();
        break;
      case "wait":
        await this.#wait(step.ms, step.alarm);
        return;
      case "evict":
        await this.#settle();
        // The runtime hibernates only a hub with no event under way: none of ours, no query a
        // hanging D1 holds, and no switch still waiting for its ack (the event that sent it
        // waits with it, though whoever asked may have stopped waiting: a page that closed).
        if (this.#busy().length > 0 || d1Hangs() || this.#lastLook!.view.inFlight.length > 0) return;
        await evictDurableObject(this.#stub, { webSockets: "hibernate" });
        clearTimersKeepingTime();
        break;
      case "d1":
        await this.#setD1(step.up);
        break;
      case "d1Hang":
        hangD1();
        this.#d1HangsUntil = Math.max(this.#d1HangsUntil ?? 0, Date.now() + step.ms);
        break;
      case "schedule":
      case "window":
        this.#setSchedule(step);
        break;
      case "unschedule":
        this.#unschedule();
        break;
      case "member":
        // A person whose page waits on a D1 that hangs does nothing more until it answers.
        if (d1Hangs()) break;
        if (step.join) await this.#memberJoins();
        else await this.#memberRemoved(step.action);
        break;
      case "memberTap":
        await this.#personRequest(step.action, step.via, null, { by: "member" });
        return;
      case "crash":
        await this.#crash();
        break;
      default: {
        const unreachable: never = step;
        throw new Error(`unknown step ${JSON.stringify(unreachable)}`);
      }
    }
    await this.#settle();
  }

  async check(step: Step): Promise<string[]> {
    // A step ends with a settle, whose last look saw the hub as it is: no look of its own.
    if (this.#lastLook === null) await this.#settle();
    this.#noticeClosedByHub();
    const { view, entries } = await this.#observe();
    const results = this.#requests.filter((request) => request.result !== null && !request.checked);
    for (const request of results) request.checked = true;
    return this.#checker.check({
      step,
      stepIndex: this.#stepIndex,
      now: Date.now(),
      box: {
        relay: this.#box.relay,
        supply: this.#box.supply,
        phaseFault: this.#box.phaseFault,
        linked: this.#box.greeted,
      },
      hub: view,
      entries,
      answered: results,
      events: this.#stepEvents,
    });
  }

  // ---- the person ----------------------------------------------------------------------------

  async #personRequest(
    action: RelayState,
    asked: PersonRequest["via"],
    minutes: number | null,
    options: { sessionEnded?: boolean; by?: "owner" | "member" } = {},
  ): Promise<void> {
    const by = options.by ?? "owner";
    const page = by === "owner" ? this.#browser : this.#member.page;
    // Without its socket the page posts its form: the HTTP route.
    const via = asked === "socket" && page === null ? "http" : asked;
    // The Worker reads the session from D1 before anything: while D1 hangs, the form waits
    // there and the step does nothing (a request held in the Worker's own context could not be
    // answered there once the hang ends; the hub's own queries are what the hang is about).
    if (via === "http" && d1Hangs()) return;
    this.#requestCount += 1;
    const request: PersonRequest = {
      n: this.#requestCount,
      action,
      via,
      minutes,
      startedAt: Date.now(),
      switchId: null,
      result: null,
      checked: false,
      sessionEnded: options.sessionEnded ?? false,
      by,
      // The member asks while they are none of the pump's people (not yet, or removed).
      outsider: by === "member" && !this.#member.joined,
    };
    this.#requests.push(request);
    this.#stepEvents.requested.push(request);
    const answered = (result: Outcome) => {
      request.result = result;
    };
    if (via === "http") {
      this.#track(
        `tap ${action}`,
        postJson(
          `/api/pumps/${this.#deviceId}/motor`,
          { action },
          by === "owner" ? this.#token : people!.member.token,
        ).then(async (response) => {
          const body = (await response.json()) as { status?: RelayState; code?: string };
          answered(
            response.status === 200
              ? { ok: true, status: body.status! }
              : { ok: false, code: body.code ?? `http${response.status}` },
          );
        }),
        request,
      );
    } else if (via === "socket") {
      const requestId = `chaos-${request.n}`;
      this.#track(
        `socket ${action}`,
        new Promise<void>((resolve) => {
          this.#socketWaiters.set(requestId, {
            page: page!,
            answer: (result) => {
              answered(result);
              resolve();
            },
          });
        }),
        request,
      );
      page!.sendRaw(JSON.stringify({ type: "switchMotor", requestId, action }));
    } else {
      const person = { userId: this.#userId, role: "owner" as const, label: null };
      this.#track(
        `phone ${action}`,
        this.#stub.commandMotor(person, action, "sms", minutes).then((result) => answered(outcomeOf(result))),
        request,
      );
    }
    await this.#settle();
  }

  /** The owner's dashboard opens its socket: the hub counts the box as watched from then. */
  async #openPage(): Promise<void> {
    if (this.#browser) return;
    try {
      // A session of its own, so signing it out ends this page and nothing else.
      this.#pageToken = (await startSession(env, this.#userId, "user")).token;
      this.#browser = await this.#watch(this.#pageToken, (page) => {
        if (this.#browser === page) this.#browser = null;
      });
    } catch {
      // refused (D1 is down): the page stays without its socket
    }
  }

  /** A page's socket on the pump, with `token`'s session; `closed` when the hub closes it. */
  async #watch(token: string, closed: (page: BrowserPeer) => void): Promise<BrowserPeer> {
    const page = await connectBrowser({ deviceId: this.#deviceId }, { token });
    let opened: () => void = () => {};
    this.#track("page", new Promise<void>((resolve) => (opened = resolve)));
    page.ws.addEventListener("message", (event) => {
      if (typeof event.data !== "string") return;
      const message = JSON.parse(event.data) as { type: string; requestId?: string; result?: MotorCommandResult };
      if (message.type === "initialData") opened();
      if (message.type !== "commandResult" || !message.requestId || !message.result) return;
      this.#socketWaiters.get(message.requestId)?.answer(outcomeOf(message.result));
      this.#socketWaiters.delete(message.requestId);
    });
    page.ws.addEventListener("close", () => {
      opened();
      closed(page);
      // A page whose socket drops before the answer says so; the next state tells what happened.
      for (const [requestId, waiter] of this.#socketWaiters) {
        if (waiter.page !== page) continue;
        waiter.answer({ ok: false, code: "answerLost" });
        this.#socketWaiters.delete(requestId);
      }
    });
    return page;
  }

  /** The owner shares the pump with the operator through the API (invited, accepted), and their page opens. */
  async #memberJoins(): Promise<void> {
    if (this.#member.joined) return;
    // The invitation as the owner's form writes it, without its SMS (sent from the Worker's
    // waitUntil on a clock the simulation fakes, it would outlive the request that sent it).
    try {
      const invited = await insertInvitation(
        getDb(env.DB),
        {
          deviceId: this.#deviceId,
          mobileNo: people!.member.mobileNo,
          role: "operator",
          label: "Ram",
          invitedByUserId: this.#userId,
          now: Date.now(),
        },
        MAX_PUMP_MEMBERS,
      );
      if (invited.outcome !== "added") return;
    } catch {
      return; // D1 is down: nobody was invited
    }
    const accepted = await postJson(
      `/api/pumps/${this.#deviceId}/invitation`,
      { answer: "accept" },
      people!.member.token,
    );
    if (accepted.status !== 200) return;
    this.#member.joined = true;
    try {
      this.#member.page = await this.#watch(people!.member.token, (page) => {
        if (this.#member.page === page) this.#member.page = null;
      });
    } catch {
      // refused: their page stays without its socket
    }
    await this.#settle();
  }

  /**
   * The owner removes the operator through the API; from its answer on, nothing of theirs may
   * act. Their page, not yet told, taps once more on its socket.
   */
  async #memberRemoved(action: RelayState): Promise<void> {
    if (!this.#member.joined) return;
    const response = await deleteJson(
      `/api/pumps/${this.#deviceId}/members/${people!.member.mobileNo}`,
      undefined,
      this.#token,
    );
    if (response.status !== 200) return; // D1 is down: they are still a member
    this.#member.joined = false;
    this.#checker.memberRemoved();
    const page = this.#member.page;
    if (page && page.ws.readyState === WebSocket.OPEN) {
      await this.#personRequest(action, "socket", null, { sessionEnded: true, by: "member" });
    }
    this.#track(
      "removed member's page closing",
      this.#until((_hub, state) => livePages(state) <= (this.#browser ? 1 : 0)),
    );
  }

  /** The owner (or the member while they are one) sets a schedule through the hub's RPC, as the Worker does. */
  #setSchedule(step: Step & { do: "schedule" | "window" }): void {
    const setter: Setter = step.by === "member" && this.#member.joined ? "member" : "owner";
    const person =
      setter === "owner"
        ? { userId: this.#userId, role: "owner" as const, label: null }
        : { userId: people!.member.userId, role: "operator" as const, label: "Ram" };
    // Its minute, a few minutes ahead (India's minutes begin when UTC's do).
    const at = Math.floor((Date.now() + step.inMinutes * 60_000) / 60_000) * 60_000;
    const minuteOfDay = istMinuteOfDay(at);
    const input =
      step.do === "schedule"
        ? {
            kind: "clock" as const,
            minuteOfDay,
            action: step.action,
            repeat: step.repeat,
            daysMask: null,
            durationMinutes: step.forMinutes,
            windowEnd: null,
            randomDelay: false,
            resume: false,
          }
        : {
            kind: "window" as const,
            minuteOfDay,
            action: "on" as const,
            repeat: "once" as const,
            daysMask: null,
            durationMinutes: step.runMinutes,
            windowEnd: (minuteOfDay + step.lasts) % (24 * 60),
            // The hub would draw its delay from crypto: a seed could not replay it.
            randomDelay: false,
            resume: step.resume,
          };
    this.#track(
      `set ${step.do}`,
      this.#stub.createSchedule(person, input).then((result) => {
        if (!result.ok) return;
        this.#checker.scheduleSet({
          id: result.schedule.id,
          kind: input.kind,
          action: input.action,
          at,
          closesAt: step.do === "window" ? at + step.lasts * 60_000 : null,
          forMinutes: step.do === "schedule" ? step.forMinutes : null,
          byMember: setter === "member",
        });
      }),
    );
  }

  /** The owner deletes the oldest schedule still set. */
  #unschedule(): void {
    const id = this.#checker.oldestSchedule();
    if (id === null) return;
    this.#track(
      "delete schedule",
      this.#stub.deleteSchedule({ userId: this.#userId, role: "owner", label: null }, id).then((result) => {
        if (result.ok) this.#checker.scheduleDeleted(id);
      }),
    );
  }

  /**
   * The hub's instance is lost, whatever it had under way (the platform resets it); the next
   * event starts a new one from its storage. What waited on the lost one fails or is never
   * answered: a page waits in vain for its answer.
   */
  async #crash(): Promise<void> {
    for (const op of this.#busy()) op.lost = true;
    await runInDurableObject(this.#stub, (_hub, state) => state.abort("chaos: the hub's instance is lost")).catch(
      () => {},
    );
    // Its timers (an ack window, a flush) went with it, and what it asked a hanging D1.
    clearTimersKeepingTime();
    dropD1Answers();
    for (const waiter of this.#socketWaiters.values()) waiter.answer({ ok: false, code: "answerLost" });
    this.#socketWaiters.clear();
    for (let look = 0; look < 50 && this.#busy().some((op) => op.lost); look++) {
      await runInDurableObject(this.#stub, () => {}).catch(() => {});
    }
    // What never heard back is given up, as a person gives up waiting.
    for (const op of this.#busy()) if (op.lost) op.done = true;
    // The new instance may hold no socket of the box's: the box's link went with the old one,
    // and the box hears its socket close (it comes back at its next reconnect).
    const box = this.#box;
    if (box.peer === null) return;
    const held = await runInDurableObject(this.#stub, (hub: DeviceHub) => roomsOf(hub).hub.sockets.device() !== null);
    if (held) return;
    this.#linkGone()?.close();
  }

  /**
   * The page's session is signed out (from another tab): the hub closes its socket, and the
   * page, not yet told, taps once more on it. That tap must switch nothing.
   */
  async #signOut(action: RelayState): Promise<void> {
    const browser = this.#browser;
    if (!browser) return;
    const response = await postJson("/api/auth/logout", {}, this.#pageToken);
    if (response.status !== 200) throw new Error(`logout answered ${response.status}`);
    if (browser.ws.readyState === WebSocket.OPEN) {
      await this.#personRequest(action, "socket", null, { sessionEnded: true });
    }
    this.#track(
      "signed-out page closing",
      this.#until((_hub, state) => livePages(state) <= (this.#member.page ? 1 : 0)),
    );
  }

  /** The dashboard closes: its socket goes, and the hub, watched no more, tells the box. */
  async #closePage(): Promise<void> {
    const browser = this.#browser;
    if (!browser) return;
    this.#browser = null;
    browser.close();
    this.#track(
      "page closing",
      this.#until((_hub, state) => livePages(state) <= (this.#member.page ? 1 : 0)),
    );
  }

  /** Looks into the hub until `done` holds (the runtime delivers a close when it does). */
  async #until(done: (hub: DeviceHub, state: DurableObjectState) => boolean): Promise<void> {
    for (let look = 0; look < SETTLE_LOOKS; look++) {
      if (await runInDurableObject(this.#stub, done)) return;
    }
    throw new Error("the hub never got there");
  }

  // ---- the box ------------------------------------------------------------------------------

  #current(): number {
    const box = this.#box;
    return box.relay === "on" && box.supply && !box.phaseFault ? RUNNING_CURRENT : 0;
  }

  #reading(sensor: "true" | "zero"): DeviceMessage {
    const current = sensor === "true" ? this.#current() : 0;
    return { type: "power", current, wattage: Math.round(current * 575), supply: this.#box.supply };
  }

  #setRelay(relay: RelayState): void {
    if (this.#box.relay !== relay) this.#stepEvents.relayChanged = true;
    this.#box.relay = relay;
  }

  /**
   * Sends now (held back while the box has no link), later (held back), or never. A frame held
   * back keeps its words and its place: one sent now goes after it, as a socket keeps order. An
   * ack held back is the box answering late: it states the relay when it leaves, in any order.
   */
  #send(item: Held, when: "now" | "later" | "never"): void {
    if (when === "never") return;
    if (when === "later" || !this.#box.greeted) {
      this.#box.held.push(item);
      return;
    }
    const box = this.#box;
    for (let i = 0; i < box.held.length; ) {
      const held = box.held[i]!;
      if ("frame" in held) {
        box.held.splice(i, 1);
        this.#emit(held);
      } else {
        i += 1;
      }
    }
    this.#emit(item);
  }

  #emit(item: Held): void {
    if ("ack" in item) {
      const message: DeviceMessage = { type: "ack", id: item.ack.id, ok: item.ack.ok, relay: this.#box.relay };
      if (!item.ack.ok) Object.assign(message, { error: "Relay stuck" });
      this.#deliverText(JSON.stringify(message), item.ack.id);
    } else {
      this.#deliverText(JSON.stringify(item.frame), null);
    }
  }

  /** Hands a frame to the hub's own handler, on the box's live socket, as the runtime does. */
  #deliverText(text: string, ackFor: string | null): void {
    this.#box.lastFrame = text;
    const message = JSON.parse(text) as DeviceMessage;
    const events = this.#stepEvents;
    this.#track(
      `frame ${message.type}`,
      runInDurableObject(this.#stub, async (hub: DeviceHub, state) => {
        const ws = liveDevice(state);
        if (!ws) return;
        if (ackFor !== null && message.type === "ack") {
          events.acks.push({
            id: ackFor,
            ok: message.ok,
            relay: message.relay,
            timely: roomsOf(hub).commands.isInFlight(ackFor),
          });
        }
        const stated = statedRelay(message);
        if (stated !== null) events.stated.push({ relay: stated, source: message.type });
        if (message.type === "power") events.readings.push(message.current);
        if (message.type === "event" || message.type === "hello" || message.type === "power")
          events.reported.push(message);
        await hub.webSocketMessage(ws, text);
      }),
    );
  }

  /**
   * The hub closed the box's socket (a box silent past its liveness limit gets 4008): the link is
   * gone until the box reconnects, and what the hub owed a reachable box it owes no more.
   */
  #noticeClosedByHub(): void {
    if (this.#box.peer?.closed) this.#linkGone();
  }

  /** The box's link is gone in this step (it greets the hub again when it reconnects); its old socket. */
  #linkGone(): DevicePeer | null {
    const box = this.#box;
    const peer = box.peer;
    if (!peer) return null;
    box.peer = null;
    box.greeted = false;
    this.#stepEvents.linkBroke = true;
    return peer;
  }

  async #connect(): Promise<void> {
    const box = this.#box;
    box.peer = await connectDevice(this.#device!, { hello: false });
    box.read = 0;
    box.silent = false;
    box.greeted = true;
    box.lastReportAt = Date.now();
    this.#deliverText(
      JSON.stringify({
        type: "hello",
        protocol: DEVICE_PROTOCOL_VERSION,
        firmware: "chaos-1.0.0",
        kind: "3phase",
        relay: box.relay,
        imei: "866000000000001",
        supply: box.supply,
        phaseFault: box.phaseFault,
      } satisfies DeviceMessage),
      null,
    );
    await this.#settle();
    // What it held back while away goes after its hello, in order (what a reconnect allows).
    const held = box.held.splice(0);
    for (const item of held) this.#send(item, "now");
  }

  /** The link drops: the box's end closes, and the hub hears of it through the runtime. */
  async #drop(): Promise<void> {
    const peer = this.#linkGone();
    if (!peer) return;
    peer.close();
    await this.#until((_hub, state) => liveDevice(state) === null);
    await this.#settle();
  }

  /** Reads what the hub sent the box: switches wait for an answer step; requests are answered at once. */
  #readBoxMessages(): boolean {
    const box = this.#box;
    const peer = box.peer;
    if (!peer) return false;
    let progressed = false;
    while (box.read < peer.received.length) {
      const message = peer.received[box.read]!;
      box.read += 1;
      progressed = true;
      if (message.type === "switch") {
        box.inbox.push({ id: message.id, relay: message.relay });
        this.#stepEvents.switches.push({ id: message.id, relay: message.relay, sentAt: Date.now() });
        const asking = this.#requests.find(
          (request) =>
            request.switchId === null &&
            request.result === null &&
            request.action === message.relay &&
            request.startedAt === Date.now() &&
            this.#stepEvents.requested.includes(request),
        );
        if (asking) asking.switchId = message.id;
      } else if (message.type === "request") {
        this.#send({ ack: { id: message.id, ok: true } }, "now");
        this.#send(
          {
            frame:
              message.what === "power"
                ? this.#reading("true")
                : {
                    type: "health",
                    uptime: 42,
                    signal: -71,
                    relay: box.relay,
                    connection: "connected",
                    version: "chaos-1.0.0",
                  },
          },
          "now",
        );
      } else if (message.type === "config" || message.type === "restart" || message.type === "ota") {
        this.#send({ ack: { id: message.id, ok: true } }, "now");
      } else if (message.type === "error") {
        throw new Error(`the hub refused a frame of the simulated box: ${message.message}`);
      }
    }
    return progressed;
  }

  // ---- the platform -------------------------------------------------------------------------

  #track(label: string, promise: Promise<unknown>, request?: PersonRequest): void {
    this.#lastLook = null;
    const op: Op = { label, done: false, ...(request ? { request } : {}) };
    this.#ops.push(op);
    promise.then(
      () => {
        op.done = true;
      },
      (error: unknown) => {
        op.done = true;
        if (op.lost) return;
        this.#stepEvents.failures.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  #busy(): Op[] {
    return this.#ops.filter((op) => !op.done);
  }

  /**
   * Waits until the hub has done all it can: every operation answered, or waiting on an ack the
   * box has not sent (one switch in flight per waiting operation), and the box has read all.
   * Then the motor log's flush, so D1 and the hub's flush-logs timer are where they settle.
   * Each look is a round trip into the hub, which also lets the runtime deliver what is on its way.
   */
  async #settle(): Promise<void> {
    let still = 0;
    let lastSignature = "";
    for (let look = 0; look < SETTLE_LOOKS; look++) {
      const known = this.#followedSwitches();
      const after = this.#lastLogId;
      const seen = await runInDurableObject(this.#stub, async (hub: DeviceHub, state) => {
        // The answers a D1 hang held, once it is over, and what the hub set off for right after
        // the current event (its log's flush) go now.
        handOnD1Answers();
        vi.advanceTimersByTime(0);
        const rooms = roomsOf(hub);
        // The step's log entries, and the newest id as of the rows just read, in the same
        // synchronous step: an entry the hub adds later (a timer's, set off by the clock)
        // belongs to the next look.
        const sql = state.storage.sql;
        const waiting = sql
          .exec<{ id: number; action: LogEntry["action"]; kind: string; params: string; message: string | null }>(
            "SELECT id, action, kind, params, message FROM motor_log WHERE id > ? ORDER BY id",
            after,
          )
          .toArray();
        const last = { seq: waiting.at(-1)?.id ?? after };
        const inFlight = known.filter((id) => rooms.commands.isInFlight(id));
        return { inFlight, waiting, view: viewOf(rooms, inFlight), lastId: last.seq, timers: vi.getTimerCount() };
      });
      for (const row of seen.waiting)
        this.#seenRows.set(row.id, {
          id: row.id,
          action: row.action,
          event: motorLogEventOfRow({ ...row, message: row.message ?? "" }),
        });
      if (this.#readBoxMessages()) {
        still = 0;
        continue;
      }
      const inFlight = new Set(seen.inFlight);
      if (!this.#allBlocked(inFlight, 0)) {
        // An operation may also wait on D1 while it hangs (one per answer held), or on the
        // clock (a schedule waiting out the cooldown: one per timer beyond the ack windows).
        // Whether it does cannot be asked, so the hub must be seen unchanged for a few looks.
        const held = (d1Hangs() ? heldD1Answers() : 0) + Math.max(0, seen.timers - seen.inFlight.length);
        const signature = `${this.#busy().length}/${held}/${seen.lastId}/${seen.inFlight.length}`;
        still = signature === lastSignature ? still + 1 : 0;
        lastSignature = signature;
        if (held === 0 || !this.#allBlocked(inFlight, held) || still < 3) continue;
      }
      this.#ops = this.#busy();
      this.#lastLook = { view: seen.view, lastId: seen.lastId };
      return;
    }
    throw new Error(
      `the hub did not settle: ${this.#busy()
        .map((op) => op.label)
        .join(", ")} still under way`,
    );
  }

  /**
   * Whether every operation still under way waits for the box: a person's request for the ack
   * of the switch it sent, anything else (a frame, an alarm) for the ack of a switch of the
   * hub's own (a safety stop, a timed run's switch-off), one each.
   */
  #allBlocked(inFlight: Set<string>, onD1: number): boolean {
    const busy = this.#busy();
    const requests = busy.filter((op) => op.request);
    const waitingRequests = requests.filter(
      (op) => !(op.request!.switchId !== null && inFlight.has(op.request!.switchId)),
    ).length;
    if (waitingRequests > onD1) return false;
    const owned = new Set(this.#requests.flatMap((request) => (request.switchId ? [request.switchId] : [])));
    const hubsOwn = [...inFlight].filter((id) => !owned.has(id)).length;
    return busy.length - requests.length <= hubsOwn + onD1 - waitingRequests;
  }

  /** Every switch command the box received that may still be waiting for its ack. */
  #followedSwitches(): string[] {
    const ids = [
      ...this.#box.inbox.map((command) => command.id),
      ...this.#stepEvents.switches.map((command) => command.id),
      ...this.#checker.switchIds(),
    ];
    return [...new Set(ids)];
  }

  async #alarmAt(): Promise<number | null> {
    return runInDurableObject(this.#stub, (_hub, state) => state.storage.getAlarm());
  }

  async #runAlarm(): Promise<void> {
    this.#stepEvents.alarms.push(Date.now());
    this.#track("alarm", runDurableObjectAlarm(this.#stub));
    await this.#settle();
  }

  async #advance(ms: number): Promise<void> {
    if (ms > 0) await runInDurableObject(this.#stub, () => void vi.advanceTimersByTime(ms));
    await this.#settle();
  }

  async #wait(ms: number, delivery: Step & { do: "wait" } extends { alarm: infer A } ? A : never): Promise<void> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      let until = end;
      const alarmAt =
        (delivery === "onTime" || delivery === "twice") && !this.#alarmRunning() ? await this.#alarmAt() : null;
      if (alarmAt !== null && alarmAt <= Date.now()) {
        await this.#deliverAlarm(delivery);
        continue;
      }
      if (alarmAt !== null) until = Math.min(until, alarmAt);
      const box = this.#box;
      const reports = box.greeted && !box.silent;
      const every = reportEvery(this.#browser !== null || this.#member.page !== null);
      if (reports) until = Math.min(until, box.lastReportAt + every);
      if (this.#d1HangsUntil !== null) until = Math.min(until, this.#d1HangsUntil);
      await this.#advance(Math.max(0, until - Date.now()));
      if (this.#d1HangsUntil !== null && Date.now() >= this.#d1HangsUntil) {
        this.#d1HangsUntil = null;
        this.#lastLook = null;
        endD1Hang();
        await this.#settle();
      }
      if (reports && Date.now() >= box.lastReportAt + every && box.greeted) {
        box.lastReportAt = Date.now();
        this.#send({ frame: this.#reading("true") }, "now");
        await this.#settle();
      }
    }
    if (delivery === "late" && !this.#alarmRunning()) {
      const alarmAt = await this.#alarmAt();
      if (alarmAt !== null && alarmAt <= Date.now()) await this.#runAlarm();
    }
  }

  /**
   * Whether a run of the alarm is still under way (waiting on a D1 that hangs): the runtime
   * never runs a hub's alarm again before its last run is over.
   */
  #alarmRunning(): boolean {
    return this.#busy().some((op) => op.label === "alarm" || op.label === "alarm again");
  }

  async #deliverAlarm(delivery: string): Promise<void> {
    await this.#runAlarm();
    if (delivery === "twice" && !this.#alarmRunning()) {
      // The platform delivers at least once: the same alarm again, as a second run of alarm().
      this.#stepEvents.alarms.push(Date.now());
      this.#track(
        "alarm again",
        runInDurableObject(this.#stub, (hub: DeviceHub) => hub.alarm()),
      );
      await this.#settle();
    }
  }

  async #setD1(up: boolean): Promise<void> {
    if (up === !this.#d1Down) return;
    const [from, to] = up ? ["_chaos_away", ""] : ["", "_chaos_away"];
    await unheld(() =>
      env.DB.batch([
        env.DB.prepare(`ALTER TABLE motor_logs${from} RENAME TO motor_logs${to}`),
        env.DB.prepare(`ALTER TABLE device_members${from} RENAME TO device_members${to}`),
      ]),
    );
    this.#d1Down = !up;
  }

  // ---- what is observed ---------------------------------------------------------------------

  /** The hub's state and the log entries written since the last look, as the looks read them. */
  async #observe(): Promise<{ view: HubView; entries: LogEntry[] }> {
    const after = this.#lastLogId;
    const { view, lastId } = this.#lastLook!;
    const entries = [...this.#seenRows.values()]
      .filter(({ id }) => id > after && id <= lastId)
      .sort((a, b) => a.id - b.id);
    this.#lastLogId = lastId;
    this.#seenRows.clear();
    this.#log.push(...entries);
    return { view, entries };
  }
}

/** The hub's state as the checker reads it; `inFlight`: which of the switches followed wait for their ack. */
function viewOf(rooms: HubRooms, inFlight: string[]): HubView {
  const current = rooms.hub.state.current;
  return {
    status: current.motor.status,
    source: current.motor.source,
    since: current.motor.since,
    online: current.online && rooms.hub.sockets.device() !== null,
    pending: current.pendingSwitch ? { relay: current.pendingSwitch.relay, state: current.pendingSwitch.state } : null,
    faults: faultsOf(current).map((fault) => fault.kind),
    cooldownUntil: current.cooldownUntil,
    stopsAt: rooms.offs.nextDue(),
    inFlight,
  };
}

function outcomeOf(result: MotorCommandResult): Outcome {
  return result.ok ? { ok: true, status: result.status } : { ok: false, code: result.code };
}

/** The relay a frame states, if it states one. */
function statedRelay(message: DeviceMessage): RelayState | null {
  switch (message.type) {
    case "ack":
    case "hello":
    case "relay":
    case "health":
    case "event":
      return message.relay;
    default:
      return null;
  }
}

function emptyEvents(): StepEvents {
  return {
    requested: [],
    switches: [],
    acks: [],
    stated: [],
    readings: [],
    reported: [],
    alarms: [],
    relayChanged: false,
    failures: [],
    linkBroke: false,
  };
}
