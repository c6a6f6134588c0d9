// What the hub believes and remembers about its box, in its storage (`kv`, a key per field,
// "state:motor" and so on): it survives hibernation, eviction and restarts, and the rooms read and
// change it through the one HubStateStore of the hub. What older hubs stored is read back here
// too, the whole state under one key "state" included.
import { DEFAULT_MOTOR_CONFIG } from "../../common/constants.ts";
import type { DeviceConfig, DeviceKind, Phase, RelayState } from "../../common/device-protocol.ts";
import type { CommandOrigin, MotorLogEvent } from "../../common/motor-log-event.ts";
import type { VoltageBreach } from "../../common/protection.ts";
import type { MemberRole } from "../../common/pump-roles.ts";
import type { CommandSource, MotorStatus, RunStarter, StatusSource } from "../../common/pump-state.ts";
import type { HealthData, MotorLogEntry, PowerData } from "../../common/realtime-protocol.ts";
import { CommandMeter } from "./command-meter.ts";
import { legacyOrigin } from "./legacy-motor-log.ts";

/**
 * The box's owner; `since`: when the box became theirs (linked, or made for them), before which
 * its log and usage are another owner's and not shown to theirs. Absent in a hub that loaded its
 * owner before it was kept: shown as before until the next load.
 */
export type Owner = { userId: number; mobileNo: string; since?: number };
export type Breach = "dryRun" | "overCurrent" | VoltageBreach;

export type OtaJob = {
  id: string;
  version: string;
  stage: "sent" | "downloading" | "verifying" | "installing";
  startedAt: number;
};
/** Why a firmware update failed, as its motor log entry says. */
export type OtaFailure = Pick<Extract<MotorLogEvent, { kind: "otaFailed" }>, "reason" | "error" | "firmware">;

/** What the hub believes about the motor, since when, and what told it. */
export type MotorBelief = { status: MotorStatus; since: number; source: StatusSource };

/** The last switch command sent, kept until the box settles it, so a late answer is still attributed. */
export type PendingSwitch = {
  id: string;
  relay: RelayState;
  source: CommandSource;
  /** Who asked, in detail (the schedule, the server's reason): it goes into the motor log. */
  origin: CommandOrigin;
  sentAt: number;
  /**
   * What the hub believed about the motor as it left: only an ON sent to a motor believed OFF
   * can be credited with a run its answer did not confirm (pump-model.ts runStartOf). Absent in
   * what older hubs stored: never credited.
   */
  from?: MotorStatus;
  state: "sent" | "unanswered";
  /** A schedule's run: its outcome is recorded when the box confirms, even late. */
  scheduleRun?: { scheduleId: number; runKey: string };
};

export type HubState = {
  owner: Owner | null;
  /**
   * The registered members, their roles and the owner's names for them (docs/decisions/018),
   * as D1 last said. A hub that stored its members before it kept names has none (`undefined`)
   * until D1 is read again.
   */
  members: { userId: number; role: MemberRole; label?: string | null }[];
  /**
   * False from the moment the hub was told owner or members changed and could not read them
   * from D1, until a read succeeds: meanwhile its copy vouches for nobody (owner.ts).
   */
  accessConfirmed: boolean;
  config: DeviceConfig;
  motor: MotorBelief;
  /** When the motor last went ON; the start-up grace counts from here. */
  relayOnSince: number | null;
  /**
   * Who started the run the motor is on (the command whose ON the box confirmed, or that its
   * current credited); null once it is OFF, or when nobody's command started it. Kept while the
   * status is `unknown`: an OFF that went unanswered leaves the same run going.
   */
  startedBy: RunStarter | null;
  online: boolean;
  /** Last frame of any kind from the box (heartbeats are tracked by the runtime). */
  lastSeenAt: number | null;
  power: PowerData;
  /** When `power` was read (or implied: a confirmed OFF reads 0). */
  powerAt: number | null;
  supply: boolean;
  supplyLostAt: number | null;
  phaseFault: boolean;
  phaseFaultSince: number | null;
  /** The box's own words for the phase fault ("Phase Y missing"). */
  phaseFaultDetail: string | null;
  /** The phase the box named as the fault's cause, if it did. */
  phaseFaultPhase: Phase | null;
  /** Why the motor last stopped, if a protection stopped it; cleared by the next start. */
  trip: { kind: Breach; at: number; current: number | null; voltages?: number[] | null } | null;
  /** Readings next to zero while ON after the start-up grace, since when; `raised` once surfaced. */
  noCurrent: { since: number; raised: boolean } | null;
  cooldownUntil: number;
  /** When the current watch began; liveness while watched counts from here at the earliest. */
  watchedSince: number | null;
  /** Newest first, at most LIVE_MOTOR_LOG_LIMIT; null until loaded from D1 once. */
  lastLogs: MotorLogEntry[] | null;
  health: HealthData | null;
  kind: DeviceKind | null;
  /** A protection limit the readings have breached since `since` (the safety net). */
  breach: { kind: Breach; since: number } | null;
  pendingSwitch: PendingSwitch | null;
  ota: OtaJob | null;
  /** When a request for a reading last left for the box (fresh-readings.ts: at most one a minute). */
  readingRequestedAt: number | null;
};

export const INITIAL_STATE: HubState = {
  owner: null,
  members: [],
  accessConfirmed: true,
  config: { ...DEFAULT_MOTOR_CONFIG, debug: false, mobileNo: null },
  // Nothing has told this hub anything yet: it cannot say OFF.
  motor: { status: "unknown", since: 0, source: "none" },
  relayOnSince: null,
  startedBy: null,
  online: false,
  lastSeenAt: null,
  power: { current: 0, wattage: 0 },
  powerAt: null,
  supply: true,
  supplyLostAt: null,
  phaseFault: false,
  phaseFaultSince: null,
  phaseFaultDetail: null,
  phaseFaultPhase: null,
  trip: null,
  noCurrent: null,
  cooldownUntil: 0,
  watchedSince: null,
  lastLogs: null,
  health: null,
  kind: null,
  breach: null,
  pendingSwitch: null,
  ota: null,
  readingRequestedAt: null,
};

export const ZERO_POWER: PowerData = { current: 0, wattage: 0 };

export function emptyHealth(): HealthData {
  return {
    uptime: null,
    signal: null,
    relay: "off",
    chipId: null,
    imei: null,
    mqtt: "disconnected",
    sim: null,
    version: null,
    connection: null,
    reportedAt: null,
  };
}

/**
 * What older hubs stored: the relay as plain on/off, before the hub said what it could vouch
 * for; a pending command's origin as a sentence (`note`); recent logs without kinds.
 */
export type StoredState = Omit<Partial<HubState>, "pendingSwitch" | "lastLogs"> & {
  relay?: RelayState;
  pendingSwitch?: (Omit<PendingSwitch, "origin"> & { origin?: CommandOrigin; note?: string }) | null;
  lastLogs?: (Omit<MotorLogEntry, "kind" | "params"> & Partial<Pick<MotorLogEntry, "kind" | "params">>)[] | null;
};

export function loadState(stored: StoredState | undefined, now = Date.now()): HubState {
  if (!stored) return INITIAL_STATE;
  const { relay, pendingSwitch, lastLogs, ...rest } = stored;
  const state: HubState = { ...INITIAL_STATE, ...rest };
  if (!rest.motor && relay) state.motor = { status: relay, since: now, source: "hello" };
  if (pendingSwitch) {
    const { note, origin, ...pending } = pendingSwitch;
    const known = origin ?? legacyOrigin(pending.source, note);
    // A command whose origin cannot be read back is forgotten; whatever it did, the box's next
    // word about its relay is believed (a status of `unknown` stays so until then).
    state.pendingSwitch = known ? { ...pending, origin: known } : null;
  }
  // A copy of D1's newest entries: reloaded from D1, whose rows migration 0007 gave kinds.
  state.lastLogs = lastLogs?.every((log) => log.kind !== undefined && log.params !== undefined)
    ? (lastLogs as MotorLogEntry[])
    : null;
  return state;
}

export type KvStorage = DurableObjectStorage["kv"];

/** What hubs stored before each field had its own key: the whole state as one record. */
const LEGACY_STATE_KEY = "state";
/** Each field of the state is a key of its own, so a change writes only what changed. */
const STATE_FIELD_PREFIX = "state:";

/**
 * The state as storage holds it: a key per field, over the whole record older hubs kept (which
 * the first start of this code splits up). Also what tests read and rewrite behind a hub's back.
 */
export function readStoredState(kv: KvStorage): StoredState | undefined {
  const legacy = kv.get<StoredState>(LEGACY_STATE_KEY);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of kv.list({ prefix: STATE_FIELD_PREFIX }))
    fields[key.slice(STATE_FIELD_PREFIX.length)] = value;
  if (legacy === undefined && Object.keys(fields).length === 0) return undefined;
  return { ...legacy, ...(fields as StoredState) };
}

/** Stores `changes`, a key per field. */
export function writeStoredState(kv: KvStorage, changes: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(changes)) kv.put(`${STATE_FIELD_PREFIX}${field}`, value);
}

/** The hub's state, read once when the hub starts and written through on every change. */
export class HubStateStore {
  readonly #kv: KvStorage;
  readonly #meter: CommandMeter;
  #current: HubState;

  constructor(kv: KvStorage, meter = new CommandMeter()) {
    this.#kv = kv;
    this.#meter = meter;
    this.#current = loadState(readStoredState(kv));
    // A hub that kept its state as one record keeps it a key per field from now on.
    if (kv.get(LEGACY_STATE_KEY) !== undefined) {
      writeStoredState(kv, this.#current);
      kv.delete(LEGACY_STATE_KEY);
    }
  }

  get current(): HubState {
    return this.#current;
  }

  /**
   * Changes what differs from what is stored, and writes only that: a save that changes nothing
   * writes nothing, and a step that changes one field does not serialise the whole state.
   */
  save(changes: Partial<HubState>): void {
    const current = this.#current;
    const changed: Partial<Record<keyof HubState, unknown>> = {};
    let any = false;
    for (const key of Object.keys(changes) as (keyof HubState)[]) {
      if (Object.is(changes[key], current[key])) continue;
      changed[key] = changes[key];
      any = true;
    }
    if (!any) return;
    this.#current = { ...current, ...changes };
    writeStoredState(this.#kv, changed);
    for (const value of Object.values(changed)) this.#meter.wrote(value);
  }
}
