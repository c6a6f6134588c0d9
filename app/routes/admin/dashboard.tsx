// Admin dashboard (SPEC §2): Total Users, Devices Online, Total Logs, Active Devices Today.
import { useState } from "react";
import { dashboardStatsResponseSchema } from "../../../common/api-responses/admin.ts";
import { type DashboardStats, dashboardStats } from "../../../worker/db/admin-stats.ts";
import { getDb } from "../../../worker/db/client.ts";
import { loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { useAdminApi } from "../../components/admin/use-admin-api.ts";
import { useBusyRequest } from "../../components/admin/use-busy-request.ts";
import { formatNumber } from "../../format.ts";
import { useAdminT } from "../../i18n/admin.ts";
import type { AdminMessageKey } from "../../i18n/admin-en.ts";
import { useLanguage } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard · Sinchai Admin" }];

export async function loader({ context }: Route.LoaderArgs) {
  const env = envOf(context);
  return loadOrMessage(() => dashboardStats(getDb(env.DB), Date.now()), "admin.dashboard.loadFailed");
}

const CARDS: { key: keyof DashboardStats; label: AdminMessageKey }[] = [
  { key: "totalUsers", label: "admin.dashboard.totalUsers" },
  { key: "devicesOnline", label: "admin.dashboard.devicesOnline" },
  { key: "totalLogs", label: "admin.dashboard.totalLogs" },
  { key: "activeDevices", label: "admin.dashboard.activeDevices" },
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
      {stats && (
        <div className="stat-grid">
          {CARDS.map((card) => (
            <section key={card.key} className="card stat-card" data-testid={`stat-${card.key}`}>
              <h2>{t(card.label)}</h2>
              <p className="stat-value">{formatNumber(stats[card.key], language)}</p>
            </section>
          ))}
        </div>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.dashboard.error" />;
}
