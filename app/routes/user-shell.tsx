import { Form, NavLink, Outlet, useLocation } from "react-router";
import { LanguageSwitch } from "../components/language-switch.tsx";
import { ToastProvider } from "../components/toast.tsx";
import { CONTACT } from "../contact.ts";
import { type MessageKey, useT } from "../i18n/i18n.ts";
import { requireUser } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/user-shell";

export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    context.set(userContext, await requireUser(request, context));
    return next();
  },
];

export function loader({ context }: Route.LoaderArgs) {
  return { mobileNo: context.get(userContext).mobileNo };
}

/** The spec's three tabs and the schedule, which a farmer sets from the field as often as the plan. */
const TABS: { to: string; label: MessageKey }[] = [
  { to: "/motor-control", label: "nav.dashboard" },
  { to: "/motor-schedule", label: "nav.schedule" },
  { to: "/recharge", label: "nav.plan" },
  { to: "/logs", label: "nav.logs" },
];

export default function UserShell() {
  const t = useT();
  const { pathname } = useLocation();
  // SPEC §2: logging out from /logs goes to /login with a full page load; elsewhere to /.
  const fromLogs = pathname === "/logs";
  return (
    <ToastProvider>
      <div className="shell">
        <a href="#main" className="skip-link">
          {t("shell.skip")}
        </a>
        <header className="shell-header">
          <span className="brand">{t("app.name")}</span>
          <nav className="top-nav" aria-label={t("nav.label")}>
            <NavLink to="/motor-control">{t("nav.dashboard")}</NavLink>
            <NavLink to="/motor-schedule">{t("nav.schedule")}</NavLink>
            <NavLink to="/recharge">{t("nav.plan")}</NavLink>
            <NavLink to="/logs">{t("nav.logs")}</NavLink>
            <NavLink to="/alerts">{t("nav.alerts")}</NavLink>
          </nav>
          <LanguageSwitch />
          <Form method="post" action="/logout" reloadDocument={fromLogs}>
            {fromLogs && <input type="hidden" name="next" value="/login" />}
            <button type="submit" className="button small">
              {t("shell.logout")}
            </button>
          </Form>
        </header>
        <div className="shell-body" id="main">
          <Outlet />
        </div>
        <footer className="shell-footer">
          <p>
            <NavLink to="/change-password">{t("shell.changePassword")}</NavLink>
          </p>
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
