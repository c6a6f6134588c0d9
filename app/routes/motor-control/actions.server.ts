// The dashboard's one intent on the server: switching the motor. The switch is a plain form
// first: a tap before the page's script has arrived (or without script at all) posts here, and
// the page comes back with the hub's answer. The same server code as POST /api/devices/motor.
// (The motor's settings are posted to /pump-settings.)
import { data } from "react-router";
import { relayStateSchema } from "../../../common/device-enums.ts";
import { translate } from "../../../common/i18n/dictionaries.ts";
import { askBoxAgain } from "../../../worker/services/ask-box-again.ts";
import { dismissTrip } from "../../../worker/services/dismiss-trip.ts";
import { switchPump } from "../../../worker/services/motor-commands.ts";
import { languageOf } from "../../../worker/services/page-request.ts";
import type { AuthenticatedUser } from "../../../worker/services/page-session.ts";
import { pumpInForm } from "../../pump-choice.server.ts";
import type { CommandOutcome, SwitchAnswer } from "./command-outcome.ts";

/** A command the page refused before it reached the hub. */
export const refusedCommand = (code: "invalid" | "crossSite", status: number) =>
  data<SwitchAnswer>({ command: { ok: false, code } }, { status });

export async function switchMotor(env: Env, user: AuthenticatedUser, form: FormData) {
  const command = relayStateSchema.safeParse(form.get("command"));
  if (!command.success) return refusedCommand("invalid", 400);
  // The pump the page showed when the farmer tapped, not whatever another tab chose since.
  const access = await pumpInForm(env, user, form, "switch");
  if (!access.ok) return data<SwitchAnswer>({ command: access }, { status: 403 });
  // Whatever the answer, it is the hub's: ok only once the box has confirmed the relay.
  const result: CommandOutcome = await switchPump(env, user, access.pump, command.data);
  return data<SwitchAnswer>({ command: result });
}

/** What became of "ask the device again", worded here in the reader's language. */
export type AskAgainAnswer = {
  askAgain: { code: "answered" | "tooSoon" | "offline" | "noAnswer" | "notAllowed"; text: string };
};

const ASK_AGAIN_KEYS = {
  answered: "askAgain.answered",
  tooSoon: "askAgain.tooSoon",
  offline: "motor.deviceOffline",
  noAnswer: "askAgain.noAnswer",
  notAllowed: "pumps.viewerNote",
} as const;

function askAgainAnswer(request: Request, code: AskAgainAnswer["askAgain"]["code"], status = 200) {
  return data<AskAgainAnswer>(
    { askAgain: { code, text: translate(languageOf(request), ASK_AGAIN_KEYS[code]) } },
    { status },
  );
}

/** "Ask the device again", for whoever may switch this pump (the role is checked here, not by the page). */
export async function askAgain(env: Env, user: AuthenticatedUser, form: FormData, request: Request) {
  const access = await pumpInForm(env, user, form, "switch");
  if (!access.ok) return askAgainAnswer(request, "notAllowed", 403);
  const outcome = await askBoxAgain(env, access.pump);
  if (outcome.ok) return askAgainAnswer(request, outcome.asked ? "answered" : "tooSoon");
  return askAgainAnswer(request, outcome.code === "offline" ? "offline" : "noAnswer");
}

/** Taking down the banner of the trip that stopped the motor: whether there was one to take down. */
export type DismissTripAnswer = { dismissTrip: { ok: boolean } };

/** The trip's banner goes, for whoever may switch this pump (the role is checked here, not by the page). */
export async function dismissTripBanner(env: Env, user: AuthenticatedUser, form: FormData) {
  const access = await pumpInForm(env, user, form, "switch");
  if (!access.ok) return data<DismissTripAnswer>({ dismissTrip: { ok: false } }, { status: 403 });
  return data<DismissTripAnswer>({ dismissTrip: { ok: await dismissTrip(env, access.pump) } });
}
