// The one way a phone reaches a pump (docs/decisions/028-switching-by-phone.md): an SMS command,
// a missed call and the voice menu all come here, and from here go through the same service and
// hub method as the app's tap (worker/services/motor-commands.ts → DeviceHub.commandMotor), with
// the same role check in the Worker and in the hub, the hub's own rules for an ON (cooldown,
// phase fault, supply, voltage) and none for an OFF. What comes back is what the box confirmed,
// as a code each channel words: ON (since when; for how long), OFF, not confirmed, not done (why),
// or the pump's state. A start someone else made is told to the owner (owner-notice.ts).
import type { PhoneChannel } from "../../common/hub-contract.ts";
import type { PhoneAction } from "../../common/phone-commands.ts";
import type { MotorStatus } from "../../common/pump-state.ts";
import { countAttempt, type ThrottleEnv, tryAttempt } from "../auth/throttle.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { switchPump } from "../services/motor-commands.ts";
import { tellOwnerOfStart } from "./owner-notice.ts";
import type { PhoneCaller, PhonePump } from "./phone-callers.ts";
import type { PhoneReplyEnv } from "./phone-replies.ts";
import { type NotDoneReason, notDoneReason } from "./phone-words.ts";

export type PhoneSwitchEnv = Pick<Env, "DEVICE_HUB"> & ThrottleEnv & PhoneReplyEnv;

export type PumpStatus = {
  status: MotorStatus | "offline";
  /** Since when the motor is as it is (ms), or null when the box is offline or never said. */
  since: number | null;
  /** The motor's current in amps in the last reading, or null (offline, none yet). */
  amps: number | null;
  supply: "yes" | "no" | "unknown";
};

export type PhoneOutcome =
  | { kind: "on"; at: number; minutes: number | null }
  | { kind: "off"; at: number }
  /** No answer from the box in time, or it dropped: the motor may or may not have switched. */
  | { kind: "unconfirmed" }
  /** `waitMs`: for `wait`, how long the hub said is left of its pause after a command. */
  | { kind: "notDone"; reason: NotDoneReason; waitMs?: number }
  | ({ kind: "status" } & PumpStatus)
  /** Said nothing about: over the pump's throttle, or the hub no longer lets the person switch it. */
  | { kind: "silent" };

/** What the hub vouches for about the pump now (docs/pump-state.md). */
export async function pumpStatusOf(env: Pick<Env, "DEVICE_HUB">, deviceId: string): Promise<PumpStatus> {
  const snapshot = await deviceHub(env, deviceId).getSnapshot();
  const { pump } = snapshot;
  if (pump.deviceStatus === "offline") return { status: "offline", since: null, amps: null, supply: "unknown" };
  const noSupply = pump.faults.some((fault) => fault.kind === "noSupply");
  return {
    status: pump.status,
    since: pump.statusSince > 0 ? pump.statusSince : null,
    amps: pump.powerDataAt === null ? null : snapshot.powerData.current,
    supply: noSupply ? "no" : "yes",
  };
}

/**
 * Carries out `action` on `pump` for `who`, by `via`. Commands to one pump are throttled
 * (`phoneCommandPump`), all its people together; an OFF is counted but never held back.
 */
export async function actByPhone(
  env: PhoneSwitchEnv,
  who: PhoneCaller,
  pump: PhonePump,
  action: PhoneAction,
  via: PhoneChannel,
): Promise<PhoneOutcome> {
  if (action.kind === "off") await countAttempt(env, "phoneCommandPump", pump.deviceId);
  else if (!(await tryAttempt(env, "phoneCommandPump", pump.deviceId))) return { kind: "silent" };
  if (action.kind === "status") return { kind: "status", ...(await pumpStatusOf(env, pump.deviceId)) };
  const relay = action.kind;
  const minutes = action.kind === "on" ? action.minutes : null;
  const result = await switchPump(env, who.caller, pump.access, relay, via, minutes);
  const at = Date.now();
  if (result.ok) {
    if (result.status !== relay) return { kind: "notDone", reason: "refused" };
    if (relay === "off") return { kind: "off", at };
    await tellOwnerOfStart(env, who, pump, at);
    return { kind: "on", at, minutes };
  }
  if (result.code === "timeout" || result.code === "linkLost") return { kind: "unconfirmed" };
  if (result.code === "notAllowed") return { kind: "silent" };
  const reason = notDoneReason(result);
  return reason === "wait" && result.retryAfterMs !== undefined
    ? { kind: "notDone", reason, waitMs: result.retryAfterMs }
    : { kind: "notDone", reason };
}
