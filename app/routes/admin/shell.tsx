// The admin shell (SPEC §2): header, a sidebar on wide screens and a bottom bar on small ones,
// logout. Its middleware refuses every admin page, on the server, without an admin session.
import { Form, NavLink, Outlet } from "react-router";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import { adminContext, requireAdmin } from "../../admin-session.server.ts";
import { LanguageSwitch } from "../../components/language-switch.tsx";
import { ToastProvider } from "../../components/toast.tsx";
import { useAdminT } from "../../i18n/admin.ts";
import adminStylesheet from "../../styles/admin.css?url";
import type { Route } from "./+types/shell";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: adminStylesheet, precedence: "default" }];

export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    context.set(adminContext, await requireAdmin(request, context));
    return next();
  },
];

export function loader({ context }: Route.LoaderArgs) {
  return { mobileNo: context.get(adminContext).mobileNo };
}

const NAV: { to: string; label: AdminMessageKey }[] = [
  { to: "/admin/dashboard", label: "admin.nav.dashboard" },
  { to: "/admin/users", label: "admin.nav.users" },
  { to: "/admin/logs", label: "admin.nav.logs" },
  { to: "/admin/recharges", label: "admin.nav.recharges" },
  { to: "/admin/audit", label: "admin.nav.audit" },
  { to: "/admin/telephony", label: "admin.nav.telephony" },
  { to: "/admin/installers", label: "admin.nav.installers" },
];

export default function AdminShell({ loaderData }: Route.ComponentProps) {
  const t = useAdminT();
  const links = NAV.map((item) => (
    <NavLink key={item.to} to={item.to}>
      {t(item.label)}
    </NavLink>
  ));
  return (
    <ToastProvider area="admin">
      <div className="admin-shell">
        <header className="shell-header admin-header">
          <NavLink to="/admin/dashboard" className="brand">
            {t("admin.title")}
          </NavLink>
          <LanguageSwitch />
          <Form method="post" action="/admin/logout">
            <button type="submit" className="button small">
              {t("admin.shell.logout")}
            </button>
          </Form>
        </header>
        <nav className="admin-sidebar" aria-label={t("admin.nav.label")}>
          {links}
          <p className="muted admin-signed-in">{t("admin.shell.signedInAs", { mobileNo: loaderData.mobileNo })}</p>
        </nav>
        <div className="admin-main">
          <Outlet />
        </div>
        <nav className="tab-bar admin-bottom-bar" aria-label={t("admin.nav.label")}>
          {links}
        </nav>
      </div>
    </ToastProvider>
  );
}
