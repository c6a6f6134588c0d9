// The answer to the status request a dashboard sends when it opens (SPEC §8: "Motor is
// currently ON/OFF."), weighed against what the page has learned since. On a slow line that
// answer can arrive after the farmer's own tap was confirmed over the socket; said then, it
// would contradict the switch right above it. Pure, tested in Node (tests/app/status-answer.test.ts).
import type { PumpState } from "../../common/pump-state.ts";

/** What the status answer says about the motor (the fields of GET /api/pumps/{deviceId}/status it is judged by). */
export type StatusAnswer = Pick<PumpState, "status" | "statusSince" | "deviceStatus" | "pendingCommand">;

/**
 * Whether the page may still say "the motor is currently …" from `answer`: only when the hub
 * could vouch for it, no command was on its way, and nothing the page learned since changes
 * it. The hub stamps every change of status with its time (`statusSince`, on the hub's clock,
 * the same on the socket and in the answer), so an answer whose status began before the one the
 * page shows is older news; `commandInFlight`: a tap of this page not yet answered (it may be
 * about to change the status).
 */
export function statusAnswerStillTrue(answer: StatusAnswer, known: PumpState, commandInFlight: boolean): boolean {
  if (answer.deviceStatus !== "online" || answer.status === "unknown") return false;
  if (answer.pendingCommand?.state === "sent" || known.pendingCommand?.state === "sent" || commandInFlight)
    return false;
  if (answer.statusSince < known.statusSince) return false;
  return answer.statusSince > known.statusSince || answer.status === known.status;
}
