// Admin dashboard (SPEC §2): Total Users, Devices Online, Total Logs, Active Devices Today, and
// beside them what an admin running the fleet acts on: boxes offline or in stock, faults, trips,
// recharges waiting and plans ending, each group with the page where it is acted on.
import { useState } from "react";
import { Link } from "react-router";
import { dashboardStatsResponseSchema } from "../../../common/api-responses/admin.ts";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import { formatNumber } from "../../../common/i18n/format.ts";
import { type DashboardStats, fleetStats } from "../../../worker/services/admin-activity.ts";
import { loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { useAdminApi } from "../../components/admin/use-admin-api.ts";
import { useBusyRequest } from "../../components/admin/use-busy-request.ts";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard · Sinchai Admin" }];

export async function loader({ context }: Route.LoaderArgs) {
  return loadOrMessage(() => fleetStats(envOf(context)), "admin.dashboard.loadFailed");
}

type Card = { key: keyof DashboardStats; label: AdminMessageKey; attention?: boolean };

/** SPEC's four cards first, then the fleet's, grouped by what the admin does about them. */
const GROUPS: { title: AdminMessageKey; link?: { to: string; label: AdminMessageKey }; cards: Card[] }[] = [
  {
    title: "admin.dashboard.group.use",
    cards: [
      { key: "totalUsers", label: "admin.dashboard.totalUsers" },
      { key: "devicesOnline", label: "admin.dashboard.devicesOnline" },
      { key: "totalLogs", label: "admin.dashboard.totalLogs" },
      { key: "activeDevices", label: "admin.dashboard.activeDevices" },
    ],
  },
  {
    title: "admin.dashboard.group.boxes",
    link: { to: "/admin/users", label: "admin.dashboard.findBox" },
    cards: [
      { key: "devicesOffline", label: "admin.dashboard.devicesOffline", attention: true },
      { key: "phaseFaultsNow", label: "admin.dashboard.phaseFaultsNow", attention: true },
      { key: "devicesTrippedToday", label: "admin.dashboard.devicesTrippedToday", attention: true },
      { key: "theftAlertsWeek", label: "admin.dashboard.theftAlertsWeek", attention: true },
      { key: "devicesUnlinked", label: "admin.dashboard.devicesUnlinked" },
    ],
  },
  {
    title: "admin.dashboard.group.plans",
    link: { to: "/admin/recharges", label: "admin.dashboard.openRecharges" },
    cards: [
      { key: "rechargesPending", label: "admin.dashboard.rechargesPending", attention: true },
      { key: "plansEndingSoon", label: "admin.dashboard.plansEndingSoon", attention: true },
      { key: "plansLapsed", label: "admin.dashboard.plansLapsed", attention: true },
    ],
  },
];

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const t = useAdminT();
  const language = useLanguage();
  const api = useAdminApi();
  const { busy, run } = useBusyRequest();
  const [stats, setStats] = useState(loaderData.data);

  const refresh = () =>
    run(
      () => api("/api/admin/dashboard-stats", dashboardStatsResponseSchema),
      { refused: "admin.dashboard.loadFailed", failed: "admin.dashboard.error" },
      (answer) => setStats(answer.body.stats),
    );

  return (
    <main className="page admin-page">
      <div className="admin-title-row">
        <h1>{t("admin.dashboard.title")}</h1>
        <button type="button" className="button small" onClick={refresh} disabled={busy}>
          {t("admin.common.refresh")}
        </button>
      </div>
      {loaderData.error && !stats && <LoadFailure message={loaderData.error} />}
      {stats &&
        GROUPS.map((group) => (
          <section key={group.title} className="stat-group" aria-label={t(group.title)}>
            <div className="admin-title-row">
              <h2>{t(group.title)}</h2>
              {group.link && (
                <Link to={group.link.to} className="button small">
                  {t(group.link.label)}
                </Link>
              )}
            </div>
            <div className="stat-grid">
              {group.cards.map((card) => (
                <section
                  key={card.key}
                  className={`card stat-card${card.attention && stats[card.key] > 0 ? " attention" : ""}`}
                  data-testid={`stat-${card.key}`}
                >
                  <h3>{t(card.label)}</h3>
                  <p className="stat-value">{formatNumber(stats[card.key], language)}</p>
                </section>
              ))}
            </div>
          </section>
        ))}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.dashboard.error" />;
}
