// Which of a farmer's pumps the user pages show (docs/decisions/018-shared-pumps.md): the one
// the address names (`?pump=<deviceId>`, where an alert's tap leads), else the one the pump
// switcher last posted, kept in a cookie; each checked against the farmer's access on every
// request; else their first box (or the first shared with them). The pages keep their SPEC
// paths: the address names a pump only when something opens that pump.
import { createContext, type RouterContextProvider } from "react-router";
import type { PumpAction } from "../common/pump-roles.ts";
import { type AuthenticatedUser, pageCookie, pageCookieValue } from "../worker/services/page-session.ts";
import { type ListedPump, type PumpAccess, pumpForAction, pumpsAndInvitations } from "../worker/services/pump-list.ts";
import { field } from "./form.server.ts";
import { envOf } from "./session.server.ts";

export const PUMP_COOKIE = "sinchai_pump";
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export type PumpChoice = {
  /** Every pump the farmer may see: their own first (first box first), then shared ones. */
  pumps: ListedPump[];
  /** The one the pages show; null when the farmer has none. */
  chosen: PumpAccess | null;
  /** Owners' invitations waiting for the farmer's answer (the user shell shows them). */
  invitations: Awaited<ReturnType<typeof pumpsAndInvitations>>["invitations"];
};

/** Set by the user shell's middleware with the user, so each page resolves the choice once. */
export const pumpContext = createContext<PumpChoice>();

export async function choosePump(
  request: Request,
  context: Readonly<RouterContextProvider>,
  user: AuthenticatedUser,
): Promise<PumpChoice> {
  const { pumps, invitations } = await pumpsAndInvitations(envOf(context), user);
  const mayShow = (deviceId: string | null | undefined) => pumps.find(({ device }) => device.id === deviceId);
  const chosen =
    mayShow(new URL(request.url).searchParams.get("pump")) ??
    mayShow(pageCookieValue(request, PUMP_COOKIE)) ??
    pumps[0] ??
    null;
  return { pumps, chosen, invitations };
}

/**
 * The cookie that keeps the pump the address chose (an alert's tap), so the next page shows it
 * too; null when the address chose none the farmer may see, or the one already kept.
 */
export function pumpChoiceCookie(request: Request, choice: PumpChoice): string | null {
  const named = new URL(request.url).searchParams.get("pump");
  const chosen = choice.chosen?.device.id;
  if (!named || chosen !== named || pageCookieValue(request, PUMP_COOKIE) === named) return null;
  return pumpCookie(request, named);
}

/** The cookie that keeps a choice (any farmer's page may read it; scripts need not). */
export function pumpCookie(request: Request, deviceId: string): string {
  return pageCookie(request, PUMP_COOKIE, deviceId, { sameSite: "Lax", maxAgeSeconds: ONE_YEAR_SECONDS });
}

/**
 * The pump a form names in its `pump` field (the one its page showed when the farmer tapped,
 * not whatever another tab chose since), if the farmer may do `action` with it.
 */
export async function pumpInForm(
  env: Env,
  user: AuthenticatedUser,
  form: FormData,
  action: PumpAction,
): Promise<{ ok: true; pump: PumpAccess } | { ok: false; code: "noDevice" | "notAllowed" }> {
  return pumpForAction(env, user, field(form, "pump"), action);
}
