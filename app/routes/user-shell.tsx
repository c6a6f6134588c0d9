import { Form, NavLink, Outlet, useLocation } from "react-router";
import { formatDateTime } from "../../common/i18n/format.ts";
import { installerNotesOf } from "../../worker/services/installer-visits.ts";
import { renewedSessionCookie } from "../../worker/services/page-session.ts";
import { pumpSummaries } from "../../worker/services/pump-list.ts";
import { HandOverCard } from "../components/hand-over-card.tsx";
import { LanguageSwitch } from "../components/language-switch.tsx";
import { LogoutControl } from "../components/logout-control.tsx";
import { ToastProvider } from "../components/toast.tsx";
import { CONTACT } from "../contact.ts";
import { type MessageKey, useLanguage, useT } from "../i18n/i18n.ts";
import { choosePump, pumpChoiceCookie, pumpContext } from "../pump-choice.server.ts";
import { envOf, requireUser } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/user-shell";

export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    const user = await requireUser(request, context);
    context.set(userContext, user);
    const choice = await choosePump(request, context, user);
    context.set(pumpContext, choice);
    const response = await next();
    // An alert's tap opened this pump (`?pump=`): the next pages show it too.
    const keep = pumpChoiceCookie(request, choice);
    if (keep) response.headers.append("Set-Cookie", keep);
    // Opening the app is using it: the session lasts 90 days from now (once a day at most).
    const renewed = await renewedSessionCookie(envOf(context), request, user);
    if (renewed) response.headers.append("Set-Cookie", renewed);
    return response;
  },
];

export async function loader({ context }: Route.LoaderArgs) {
  const { pumps, chosen, invitations } = context.get(pumpContext);
  // One pump needs no switcher; several show each one's state, as its hub vouches for it.
  const user = context.get(userContext);
  const [switcher, installerNotes] = await Promise.all([
    pumps.length < 2 ? [] : pumpSummaries(envOf(context), pumps),
    installerNotesOf(envOf(context), user.id, chosen?.role === "owner" ? chosen.device.id : null),
  ]);
  return {
    // When this page was made: a copy the service worker shows offline says so (see below).
    renderedAt: Date.now(),
    mobileNo: user.mobileNo,
    switcher,
    isInstaller: installerNotes.isInstaller,
    // The owner's first visits after an installer linked the pump: who did it, the settings it has.
    handOver: installerNotes.handOver &&
      chosen && {
        ...installerNotes.handOver,
        current: chosen.device.defaultCurrent,
        dryRun: chosen.device.dryRunThreshold,
        overCurrent: chosen.device.overCurrentThreshold,
        pumpName: chosen.device.name,
      },
    chosenId: chosen?.device.id ?? null,
    invitations: invitations.map(({ deviceId, role, ownerMobileNo }) => ({ deviceId, role, ownerMobileNo })),
  };
}

/** The spec's three tabs and the schedule, which a farmer sets from the field as often as the plan. */
const TABS: { to: string; label: MessageKey }[] = [
  { to: "/motor-control", label: "nav.dashboard" },
  { to: "/motor-schedule", label: "nav.schedule" },
  { to: "/recharge", label: "nav.plan" },
  { to: "/logs", label: "nav.logs" },
];
/** Wider screens have room for the alerts too. */
const ALERTS_TAB = { to: "/alerts", label: "nav.alerts" } as const;

export default function UserShell({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  return (
    <ToastProvider>
      <div className="shell">
        <a href="#main" className="skip-link">
          {t("shell.skip")}
        </a>
        <header className="shell-header">
          <span className="brand">{t("app.name")}</span>
          <nav className="top-nav" aria-label={t("nav.label")}>
            {[...TABS, ALERTS_TAB].map((tab) => (
              <NavLink key={tab.to} to={tab.to}>
                {t(tab.label)}
              </NavLink>
            ))}
          </nav>
          <LanguageSwitch />
          <LogoutControl />
        </header>
        {/* Hidden by CSS unless the service worker served this page from its copy, without a
            network (public/sw.js marks it): then it is the first thing said, before any script. */}
        <p className="message warning kept-copy-notice" role="status" data-testid="kept-copy-notice">
          {t("offline.keptCopy", { time: formatDateTime(loaderData.renderedAt, language) })}
        </p>
        {loaderData.handOver && <HandOverCard handOver={loaderData.handOver} />}
        {loaderData.invitations.length > 0 && <PumpInvitations invitations={loaderData.invitations} />}
        {loaderData.switcher.length > 0 && <PumpSwitcher pumps={loaderData.switcher} chosenId={loaderData.chosenId} />}
        <div className="shell-body" id="main">
          <Outlet />
        </div>
        <footer className="shell-footer">
          <p>
            <NavLink to="/change-password">{t("shell.changePassword")}</NavLink>
          </p>
          {loaderData.isInstaller && (
            <p>
              <NavLink to="/installer" data-testid="installer-link">
                {t("installer.title")}
              </NavLink>
            </p>
          )}
          <p>{t("shell.footer")}</p>
          <p>
            {t("shell.support")} <a href={`tel:${CONTACT.tel}`}>{CONTACT.phone}</a>
          </p>
        </footer>
        <nav className="tab-bar" aria-label={t("nav.tabs")}>
          {TABS.map((tab) => (
            <NavLink key={tab.to} to={tab.to}>
              {t(tab.label)}
            </NavLink>
          ))}
        </nav>
      </div>
    </ToastProvider>
  );
}

/**
 * The farmer's pumps, one tap to switch (docs/decisions/018-shared-pumps.md): a plain form
 * whose buttons post the chosen box, so it works before the page's script has arrived. Each
 * shows its name (a box without one is called by the end of its id, as printed on it), what
 * its hub vouches for about the motor, and whether the box is online. Kept in this module:
 * every user page loads it, and a farmer with one pump never sees it.
 */
function PumpSwitcher({
  pumps,
  chosenId,
}: {
  pumps: Route.ComponentProps["loaderData"]["switcher"];
  chosenId: string | null;
}) {
  const t = useT();
  const { pathname } = useLocation();
  return (
    <Form method="post" action="/pump" className="pump-switcher" aria-label={t("pumps.label")}>
      <input type="hidden" name="next" value={pathname} />
      {pumps.map((pump) => {
        const online = pump.deviceStatus === "online";
        return (
          <button
            key={pump.deviceId}
            type="submit"
            name="deviceId"
            value={pump.deviceId}
            className="pump-chip"
            aria-pressed={pump.deviceId === chosenId}
            data-testid={`pump-${pump.deviceId}`}
          >
            <span className={`pump-dot ${online ? "online" : "offline"}`} aria-hidden="true" />
            <span className="pump-chip-name">{pump.name ?? t("pumps.unnamed", { id: pump.deviceId })}</span>
            <span className="pump-chip-state">
              {online ? t("pumps.state", { status: pump.status }) : t("pumps.offline")}
              {pump.role !== "owner" && ` · ${t("pumps.role", { role: pump.role })}`}
            </span>
          </button>
        );
      })}
    </Form>
  );
}

/**
 * Owners' invitations waiting for the farmer's answer, on every user page until answered
 * (docs/decisions/018-shared-pumps.md): whose pump and as what, never the names the owner typed,
 * each with Accept and Decline as one plain form posting to `/pump-invitation`.
 */
function PumpInvitations({ invitations }: { invitations: Route.ComponentProps["loaderData"]["invitations"] }) {
  const t = useT();
  const { pathname } = useLocation();
  return (
    <section className="pump-invitations" aria-label={t("invitations.label")} data-testid="invitations">
      {invitations.map((invitation) => (
        <Form
          key={invitation.deviceId}
          method="post"
          action="/pump-invitation"
          className="pump-invitation"
          data-testid="invitation"
          data-device={invitation.deviceId}
        >
          <input type="hidden" name="deviceId" value={invitation.deviceId} />
          <input type="hidden" name="next" value={pathname} />
          <p>{t("invitations.text", { mobileNo: invitation.ownerMobileNo, role: invitation.role })}</p>
          <div className="form-actions">
            <button type="submit" name="answer" value="accept" className="button small primary">
              {t("invitations.accept")}
            </button>
            <button type="submit" name="answer" value="decline" className="button small">
              {t("invitations.decline")}
            </button>
          </div>
        </Form>
      ))}
    </section>
  );
}
