// What became of a tap on the switch, and the words for a failure: the form's action and the
// open socket answer alike.
import type { MotorCommandResult } from "../../../common/hub-contract.ts";
import type { PumpState } from "../../../common/pump-state.ts";
import type { MessageKey } from "../../i18n/i18n.ts";
import type { SocketAnswer } from "../../realtime/use-device-realtime.ts";

/**
 * The hub's answer (through the form's action or the open socket), or the page's own refusal.
 * `answerLost`: the socket dropped before the hub's answer reached the page; `invalidRequest`:
 * the hub could not read the request. Either way the pump state says what is known.
 */
export type CommandOutcome =
  | MotorCommandResult
  | { ok: false; code: "invalid" | "crossSite" | "noDevice" | "answerLost" | "invalidRequest" };

/** The form's action's answer. */
export type SwitchAnswer = { command: CommandOutcome };

/** What to tell the farmer about a command that did not succeed. */
export const FAILURE_KEYS: Record<Exclude<CommandOutcome, { ok: true }>["code"], MessageKey> = {
  noDevice: "motor.noDevice",
  offline: "motor.deviceOffline",
  cooldown: "motor.waitCooldown",
  busy: "motor.busy",
  timeout: "motor.timeout",
  linkLost: "motor.linkLost",
  rejected: "motor.rejected",
  otaBusy: "motor.busy",
  otaRejected: "motor.rejected",
  notAllowed: "pumps.viewerNote",
  phaseFault: "motor.phaseFaultHint",
  noSupply: "motor.noSupply",
  underVoltage: "motor.underVoltage",
  overVoltage: "motor.overVoltage",
  voltageUnbalance: "motor.voltageUnbalance",
  invalid: "motor.failed",
  crossSite: "motor.failed",
  invalidRequest: "motor.failed",
  answerLost: "motor.answerLost",
};

/** The hub's answer on the socket, as the form's action would have given it (a code this page does not know yet reads as a failure). */
export function outcomeOf(answer: SocketAnswer): CommandOutcome {
  if (answer.ok) return answer;
  const code = Object.hasOwn(FAILURE_KEYS, answer.code) ? (answer.code as keyof typeof FAILURE_KEYS) : "invalidRequest";
  return { ...answer, code } as CommandOutcome;
}

/** A command's message explains the state it was given in; when that state moves on, it goes. */
export function stateKey(pump: PumpState): string {
  return `${pump.status}|${pump.statusSource}|${pump.statusSince}|${pump.deviceStatus}`;
}
