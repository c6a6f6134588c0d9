import { Link, redirect } from "react-router";
import { LanguageSwitch } from "../components/language-switch.tsx";
import { useT } from "../i18n/i18n.ts";
import type { RouteHandle } from "../root.tsx";
import { optionalUser } from "../session.server.ts";
import type { Route } from "./+types/landing";

/** Plain HTML, no client script: it has to open fast on a 2G phone. */
export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = () => [
  { title: "Sinchai · सिंचाई" },
  { name: "description", content: "Switch your irrigation pump on and off from your phone." },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await optionalUser(request, context)) throw redirect("/motor-control");
  const params = new URL(request.url).searchParams;
  return {
    notice: params.has("loggedOut")
      ? ("landing.loggedOut" as const)
      : params.get("session") === "expired"
        ? ("landing.sessionExpired" as const)
        : null,
  };
}

export default function Landing({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return (
    <main className="page landing">
      {/* Nearly invisible on purpose (SPEC §2): the way in for admins. */}
      <a href="/admin/login" className="admin-dot" aria-label={t("landing.adminLink")} />
      <header className="auth-header">
        <span className="brand">{t("app.name")}</span>
        <LanguageSwitch />
      </header>
      {loaderData.notice && (
        <p className="message success" role="status">
          {t(loaderData.notice)}
        </p>
      )}
      <section className="hero">
        <h1>{t("app.name")}</h1>
        <p>{t("app.tagline")}</p>
        <div className="actions">
          <Link to="/login" className="button primary">
            {t("landing.login")}
          </Link>
          <Link to="/register" className="button">
            {t("landing.register")}
          </Link>
        </div>
      </section>
    </main>
  );
}
