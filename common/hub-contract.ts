// What the Worker and the pages know of the Durable Objects: the answers of their RPC methods,
// the headers of the socket upgrades the Worker forwards to a DeviceHub, the codes its sockets
// close with, and the refusals it answers upgrades with. Types and constants only, with type
// imports only, so a page that takes one number from here takes nothing else into its bundle.
// app/ and worker/ import this, never durable-objects/ (tests/scripts/import-boundaries.test.ts).
import type { AlertDeliveryStatus, DeliveryKind, PhoneAlertValues } from "./alert-channels.ts";
import type { RelayState } from "./device-protocol.ts";
import type { CommandOrigin, HubFailureCode } from "./motor-log-event.ts";
import type { PumpRole } from "./pump-roles.ts";
import type { MotorStatus, PumpState } from "./pump-state.ts";
import type { DeviceStatus, HealthData, MotorLogEntry, PowerData } from "./realtime-protocol.ts";
import type { ScheduleView } from "./schedule-schemas.ts";
import type { TelephonyProviderName } from "./telephony-events.ts";

/**
 * Headers the Worker sets on the upgrade requests it forwards to a DeviceHub, after it has
 * authenticated the socket. A DeviceHub is reachable only through its binding, never from
 * the internet, and the Worker builds these requests from scratch, so clients cannot set them.
 */
export const HUB_HEADERS = {
  socketRole: "X-Hub-Socket-Role",
  viewerId: "X-Hub-Viewer-Id",
  viewerRole: "X-Hub-Viewer-Role",
  /** The session that opened a browser socket, and when it runs out: the socket ends with it. */
  sessionId: "X-Hub-Session-Id",
  sessionExpiresAt: "X-Hub-Session-Expires-At",
} as const;

/**
 * Why a hub refused a socket upgrade (status 429, JSON): the Worker turns it into the API's
 * worded refusal. `seconds`: how long until the box may try again.
 */
export type HubSocketRefusal = { code: "tooManyFrames"; seconds: number } | { code: "tooManyViewers"; seconds: number };

/** Close codes of the box's socket (docs/device-protocol.md §9). */
export const DEVICE_CLOSE = {
  /** A newer connection of the same box took over. */
  replaced: 4001,
  /** The box speaks a protocol version this server does not. */
  unsupportedProtocol: 4002,
  /** The box's key was rotated: it must come back with the new one. */
  keyRotated: 4003,
  /** Nothing heard from the box for longer than its liveness limit. */
  noHeartbeat: 4008,
  /** Over its frame rate (RFC 6455 "Policy Violation"). */
  tooManyFrames: 1008,
} as const;

/**
 * Close codes of the browser's realtime socket when its right to watch ended. The page stops
 * reconnecting and says why; any other close is a dropped line and is reconnected.
 */
export const BROWSER_CLOSE = {
  /** The session was ended: logout (this or another tab), password change, "log out everywhere". */
  signedOut: 4401,
  /** The session ran out. */
  sessionExpired: 4402,
  /** The account lost what the socket needed: deleted, or no longer an admin. */
  accessRemoved: 4403,
  /** The pump is no longer linked to this account (an admin relinked or unlinked it). */
  deviceUnlinked: 4404,
  /** The account opened this pump in more tabs than allowed: the oldest stops, the newest keeps watching. */
  tooManyTabs: 4409,
} as const;
export type BrowserCloseReason = keyof typeof BROWSER_CLOSE;

export function browserCloseReason(code: number): BrowserCloseReason | null {
  for (const [reason, value] of Object.entries(BROWSER_CLOSE)) {
    if (value === code) return reason as BrowserCloseReason;
  }
  return null;
}

/** A browser frame over the limit (RFC 6455 "Message Too Big"): a page sends only heartbeats and small requests. */
export const FRAME_TOO_BIG_CLOSE = 1009;
/**
 * The hub could not confirm from D1 who may use the pump (RFC 6455 "Try Again Later"): a
 * farmer's page reconnects, and is let in once the hub can vouch for it again.
 */
export const ACCESS_UNCONFIRMED_CLOSE = 1013;
/** A socket that could not take a frame (RFC 6455 "Internal Error"): its peer reconnects. */
export const SEND_FAILED_CLOSE = 1011;

/** The admin debug console shows this many recent lines (SPEC §9). */
export const DEBUG_LINE_LIMIT = 200;

export type HubFailure = {
  ok: false;
  /**
   * `timeout`: the box did not answer in 5 s; `linkLost`: it dropped before answering. After
   * either the motor may or may not have switched: the hub says `unknown` until the box settles it.
   */
  code: HubFailureCode | "otaBusy" | "otaRejected" | "notAllowed";
  /** `rejected`, `otaRejected`: the box's own words, if it gave any. */
  error?: string;
  /** `otaBusy`: the version already being installed. */
  version?: string;
  retryAfterMs?: number;
};

/**
 * Who asks the hub, as the Worker resolved them from D1 (worker/services/pump-access.ts). The
 * hub checks it again against its own copy of the owner and members (`notAllowed` if it does
 * not hold). `label`: the owner's name for a member, which the motor log shows.
 */
export type PumpPerson = { userId: number; role: PumpRole; label: string | null };

/**
 * How a person asked for a switch: in the app (a tap, a form, the API), with the stop key of an
 * alert's call, or from any phone: an SMS command, a missed call to a pump's number, the voice
 * menu of a call to ours (worker/phone-control/).
 */
export type PersonChannel = "app" | "call" | PhoneChannel;

/** The channels of switching by phone, which the motor log names ("राम ने SMS से"). */
export type PhoneChannel = "sms" | "missedCall" | "voiceMenu";

export type MotorCommandResult = { ok: true; status: RelayState } | HubFailure;

/**
 * What a hub answers when told that owner or members changed in D1. `accessUnconfirmed`: D1
 * could not be read; the hub lets no farmer act or watch until it can, and the caller must ask
 * again (the change is not done until a hub answers ok).
 */
export type AccessRefresh = { ok: true } | { ok: false; code: "accessUnconfirmed" };

/**
 * Where a fresh reading asked of the hub came from (docs/device-protocol.md §5): `box`, a
 * request to the box made for this call or shared with one under way; `hub`, the hub's latest
 * reading, fresh enough, or the box was asked less than a minute ago.
 */
export type ReadingSource = "box" | "hub";

/** A fresh reading: what it says, where it came from and how old it is (null: the hub has none from this box). */
export type ReadingResult<T> = { ok: true; reading: T; source: ReadingSource; ageSeconds: number | null } | HubFailure;

export type SwitchRequest = {
  action: RelayState;
  origin: CommandOrigin;
  /** A schedule's run: its outcome follows the box's answer; "ON for N minutes" owes a switch-off. */
  scheduleRun?: {
    scheduleId: number;
    runKey: string;
    offAfterMinutes: number | null;
    /** A power window's switch-off, when it is not a whole number of minutes after the ON. */
    offDueAt?: number;
  };
  /**
   * A person's "ON for N minutes" (an SMS `ON 30`, the voice menu): the hub owes the switch-off
   * from the moment the ON leaves, as for a schedule's run, on its own alarm.
   */
  timedRun?: { offAfterMinutes: number };
};

/**
 * `conflict`: another schedule at `minuteOfDay`; `limit`: the device already has `max`;
 * `notAllowed`: the person may not (the hub's own check of their role).
 */
export type ScheduleFailure = {
  ok: false;
  code: "notFound" | "conflict" | "limit" | "notAllowed";
  minuteOfDay?: number;
  max?: number;
};
export type ScheduleResult = { ok: true; schedule: ScheduleView } | ScheduleFailure;

export type HubSnapshot = {
  motorStatus: MotorStatus;
  deviceStatus: DeviceStatus;
  /** The last reading (its time is `pump.powerDataAt`); pages show none while the box is offline. */
  powerData: PowerData;
  lastLogs: MotorLogEntry[];
  phaseFault: boolean;
  health: HealthData | null;
  debug: boolean;
  pump: PumpState;
};

/**
 * The steps of a person's switch in the hub, in the order it takes them: the request read and
 * parsed, who asks and whether the switch may go, the cooldown and pending command stored, the
 * frames to pages, the switch frame, the wait for the box's ack, the ack settled in the state, the
 * log entry in the outbox, and the answer.
 */
export const COMMAND_STEPS = [
  "parse",
  "checks",
  "stateWrite",
  "broadcasts",
  "switchFrame",
  "box",
  "ackHandling",
  "outbox",
  "answer",
] as const;
export type CommandStep = (typeof COMMAND_STEPS)[number];
/** A step's time (ms; 0 for pure CPU, see device-hub/command-meter.ts), storage writes, bytes written, frames sent. */
export type StepCost = { ms: number; writes: number; bytes: number; frames: number };
export type CommandCost = { steps: Partial<Record<CommandStep, StepCost>>; total: StepCost };

export type HubStats = {
  /** Constructions after the first: wakes from hibernation or eviction. */
  wakes: number;
  deviceFrames: number;
  /** When the last 20 constructions happened (ms). */
  recentWakes: number[];
  /** D1 round trips the hub has made (counted from when counting began, 0 before). */
  d1Queries: number;
  /** What the last person's switch cost the hub, step by step; null before the first. */
  lastCommand: CommandCost | null;
};

export type FirmwareOffer = { version: string; url: string; sha256: string; size: number };

/** One sample of the power history (one a minute while the motor runs). */
export type PowerSample = { id: number; current: number; wattage: number; timestamp: string };

/** The AuthThrottle's policies: what is counted per number, client address, session or account. */
export type ThrottlePolicyName =
  | "loginNumber"
  /** Failed logins from a phone that logged in with the number before (the known-device cookie). */
  | "loginKnownDevice"
  | "loginClient"
  | "registerClient"
  /** Invitations an owner sends (worker/services/pump-members.ts). */
  | "inviteOwner"
  /** Calls of POST /api/hub-notices from one client address. */
  | "noticeClient"
  /** Test alerts from one session, and from one account (worker/api/push.ts). */
  | "pushTestSession"
  | "pushTestAccount"
  /**
   * One-time codes sent to a number, asked for and checked from a client address, and checked
   * for a number (worker/auth/one-time-codes.ts).
   */
  | "codeNumber"
  | "codeClient"
  | "codeCheckClient"
  | "codeCheckNumber"
  /**
   * Switching by phone (worker/phone-control/): commands from one number and to one pump, the
   * replies a pump's commands send in a day, and the help SMS a number gets.
   */
  | "phoneCommandNumber"
  | "phoneCommandPump"
  | "phoneReplyPump"
  | "phoneHelpNumber"
  /** SMS ONs to a pump with a PIN that carried none or a wrong one (worker/phone-control/sms-pin.ts). */
  | "smsPinPump";

/**
 * A commissioning test run's outcome (DeviceHub.commissionTestRun, docs/decisions/033-installers.md):
 * what the box measured, or why there was none. `notAllowed`: the hub's own look at D1 found no
 * installation in this installer's hands; `busy`: a test run is under way; `motorRunning`: the
 * hub does not know the motor to be OFF; `rejected`: the box did not start or stopped early,
 * in its own words (`error`), with what it read (`voltages`).
 */
export type TestRunOutcome =
  | { ok: true; voltages: number[]; surgeCurrent: number; runningCurrent: number; ranSeconds: number }
  | {
      ok: false;
      code: "offline" | "timeout" | "linkLost" | "notAllowed" | "busy" | "motorRunning" | "rejected";
      error?: string;
      voltages?: number[];
    };

/**
 * A commissioning dry-run check's outcome (DeviceHub.commissionDryRunCheck): whether the box's
 * dry-run protection stopped the motor, the current that decided it, the limit the box applied
 * (`tripBelow`) and the one the hub's settings give (`expectedTripBelow`); or why there was none,
 * as for a test run.
 */
export type DryRunCheckOutcome =
  | {
      ok: true;
      voltages: number[];
      tripped: boolean;
      current: number;
      tripBelow: number;
      expectedTripBelow: number;
      ranSeconds: number;
    }
  | Exclude<TestRunOutcome, { ok: true }>;

/** Commissioning's first step (DeviceHub.commissionSupply): the box's own reading of every phase. */
export type SupplyOutcome =
  | { ok: true; voltages: number[]; everyPhase: boolean }
  | { ok: false; code: "offline" | "timeout" | "notAllowed" }
  /** The box was asked for a reading less than a minute ago (the farmer's power call's budget). */
  | { ok: false; code: "tooSoon"; retryAfterSeconds: number };

// ---- alerts by SMS and call (durable-objects/device-hub/alert-deliveries-table.ts) ----

/** The language of an account's SMS and calls. */
export type PhoneLanguage = "hi" | "en";

/** An SMS or call an alert made, as the hub of its pump keeps it (alert-deliveries-table.ts). */
export type AlertDelivery = {
  id: number;
  eventId: string;
  userId: number;
  kind: DeliveryKind;
  channel: "sms" | "call";
  reason: "chosen" | "callFallback";
  language: PhoneLanguage;
  values: PhoneAlertValues;
  status: AlertDeliveryStatus;
  provider: TelephonyProviderName | null;
  /** The provider's message or call id, once it took it. */
  providerId: string | null;
  /** The SMS parts it was billed as (sms-segments.ts). */
  segments: number | null;
  /** How long an answered call lasted, from its final status. */
  durationSeconds: number | null;
  /** What the key did on this call (a MotorCommandResult's code, or stateTold), once pressed. */
  outcome: string | null;
  createdAt: number;
  updatedAt: number;
};

export type AlertDeliveryClaim = Pick<
  AlertDelivery,
  "eventId" | "userId" | "kind" | "channel" | "reason" | "language" | "values"
>;

/** What a change counted in the month's costs was about: whose, which month (by its creation), how much. */
export type CountedAlertChange = { userId: number; createdAt: number };

/**
 * What the Worker's senders (worker/alerts/phone-alerts.ts), run in the hub, ask of the hub's
 * deliveries: claim, record what the provider or the cap said (each counted change once), and
 * who an alert reached.
 */
export interface AlertDeliveryBook {
  claim(claim: AlertDeliveryClaim, now: number): { id: number } | null;
  capped(id: number, now: number): CountedAlertChange | null;
  sent(
    id: number,
    sent: { provider: TelephonyProviderName; providerId: string; status: AlertDeliveryStatus; segments: number | null },
    now: number,
  ): CountedAlertChange | null;
  refused(id: number, now: number): void;
  reachedBy(eventId: string): number[];
}

/** Which of a hub's deliveries a provider's webhook is about: our id for it, and the provider's. */
export type DeliveryWebhook = { id: number; provider: TelephonyProviderName; providerId: string };
