import { Form, NavLink, Outlet } from "react-router";
import { LanguageSwitch } from "../components/language-switch.tsx";
import { useT } from "../i18n/i18n.ts";
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

export default function UserShell() {
  const t = useT();
  return (
    <div className="shell">
      <header className="shell-header">
        <span className="brand">{t("app.name")}</span>
        <nav className="top-nav" aria-label={t("app.name")}>
          <NavLink to="/motor-control">{t("nav.dashboard")}</NavLink>
        </nav>
        <LanguageSwitch />
        <Form method="post" action="/logout">
          <button type="submit" className="button small">
            {t("shell.logout")}
          </button>
        </Form>
      </header>
      <div className="shell-body">
        <Outlet />
      </div>
      <footer className="shell-footer">{t("shell.footer")}</footer>
      <nav className="tab-bar" aria-label={t("app.name")}>
        <NavLink to="/motor-control">{t("nav.dashboard")}</NavLink>
      </nav>
    </div>
  );
}
