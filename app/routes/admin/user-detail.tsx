// /admin/users/{userId} (SPEC §2): one account with its device, live over the realtime socket
// (power, status, logs, health, debug lines), its config history, role, and the Device
// Settings and Power Logs modals. Each block is a component of components/admin/user-detail/;
// this module loads, holds the live state and the dialogs, and puts the blocks in order.
import { useCallback, useState } from "react";
import { data, Link, useRevalidator } from "react-router";
import { userIdSchema } from "../../../common/admin-schemas.ts";
import type { ConfigHistoryEntry } from "../../../common/admin-user-views.ts";
import type { PumpMember } from "../../../common/api-responses/pumps.ts";
import type { PumpUsage } from "../../../common/api-responses/usage.ts";
import type { HubSnapshot } from "../../../common/hub-contract.ts";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import { usageSpanOf } from "../../../common/pump-usage.ts";
import type { HealthData } from "../../../common/realtime-protocol.ts";
import { accountDetailsOf, adminUserView } from "../../../worker/services/admin-accounts.ts";
import { adminContext, loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { appendDebugLine, type DebugLine } from "../../components/admin/debug-console.tsx";
import { DeviceSettingsDialog } from "../../components/admin/device-settings-dialog.tsx";
import { AdminConfirmDialog } from "../../components/admin/dialogs.tsx";
import { PowerLogsDialog } from "../../components/admin/power-logs-dialog.tsx";
import { AccountCard } from "../../components/admin/user-detail/account-card.tsx";
import { ConfigHistoryCard } from "../../components/admin/user-detail/config-history-card.tsx";
import { DeviceInfoCard } from "../../components/admin/user-detail/device-info-card.tsx";
import { HealthCard } from "../../components/admin/user-detail/health-card.tsx";
import { InstallationCard } from "../../components/admin/user-detail/installation-card.tsx";
import { PeopleCard } from "../../components/admin/user-detail/people-card.tsx";
import { PumpCard } from "../../components/admin/user-detail/pump-card.tsx";
import { RecentLogsCard } from "../../components/admin/user-detail/recent-logs-card.tsx";
import type { Ask } from "../../components/dialog.tsx";
import { UsageCard } from "../../components/usage-chart.tsx";
import { useAdminT } from "../../i18n/admin.ts";
import type { LiveEffect } from "../../realtime/live-device.ts";
import { noDeviceSnapshot } from "../../realtime/no-device-snapshot.ts";
import { useDeviceRealtime } from "../../realtime/use-device-realtime.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/user-detail";

export const meta: Route.MetaFunction = () => [{ title: "User · Sinchai Admin" }];

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const env = envOf(context);
  const adminId = context.get(adminContext).id;
  const id = userIdSchema.safeParse(params.userId);
  const notFound = () =>
    data({ page: null, error: "admin.user.notFound" as AdminMessageKey, adminId }, { status: 404 });
  if (!id.success) return notFound();
  const loaded = await loadOrMessage(async () => {
    const user = await adminUserView(env, id.data);
    if (!user) return null;
    const usageSpan = usageSpanOf(request.url);
    const details = await accountDetailsOf(env, user, usageSpan);
    const snapshot = details.snapshot ?? noDeviceSnapshot(Date.now());
    return { user, ...details, snapshot, usageSpan };
  }, "admin.user.loadFailed");
  if (loaded.error) return data({ page: null, error: loaded.error, adminId }, { status: 500 });
  if (!loaded.data) return notFound();
  return { page: loaded.data, error: null, adminId };
}

export default function UserDetail({ loaderData }: Route.ComponentProps) {
  const t = useAdminT();
  if (!loaderData.page) {
    return (
      <main className="page admin-page">
        <LoadFailure message={loaderData.error ?? "admin.user.loadFailed"} />
        <Link to="/admin/users" className="button">
          {t("admin.common.back")}
        </Link>
      </main>
    );
  }
  return <UserDetailPage {...loaderData.page} adminId={loaderData.adminId} />;
}

/** The page's state (live socket, dialogs, its one confirm question) and its blocks in order. */
function UserDetailPage({
  user,
  history,
  snapshot,
  adminCount,
  adminId,
  members,
  usage,
  usageSpan,
  installation,
}: {
  user: NonNullable<Route.ComponentProps["loaderData"]["page"]>["user"];
  history: ConfigHistoryEntry[];
  snapshot: HubSnapshot;
  adminCount: number;
  adminId: number;
  members: PumpMember[];
  usage: PumpUsage | null;
  usageSpan: number;
  installation: NonNullable<Route.ComponentProps["loaderData"]["page"]>["installation"];
}) {
  const t = useAdminT();
  const revalidator = useRevalidator();
  const [debugLines, setDebugLines] = useState<DebugLine[]>([]);
  // Of a message's effects only debug lines concern this page (toasts and sounds are the farmer's).
  const onEffect = useCallback((effect: LiveEffect) => {
    if (effect.type === "debugLine") setDebugLines((lines) => appendDebugLine(lines, effect));
  }, []);
  const [live, setLive] = useDeviceRealtime(user.device?.id ?? null, snapshot, onEffect);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [powerOpen, setPowerOpen] = useState(false);
  // The page's one confirm dialog: role changes and the Device Settings questions ask here.
  const [question, setQuestion] = useState<{ message: string; action: () => Promise<void> } | null>(null);
  const [questionBusy, setQuestionBusy] = useState(false);
  const ask: Ask = useCallback((message, action) => setQuestion({ message, action }), []);
  const onHealth = useCallback((health: HealthData) => setLive((current) => ({ ...current, health })), [setLive]);

  const pump = live.pump;
  const online = pump.deviceStatus === "online";

  async function answerYes() {
    if (!question) return;
    setQuestionBusy(true);
    try {
      await question.action();
    } finally {
      setQuestionBusy(false);
      setQuestion(null);
    }
  }

  return (
    <main className="page admin-page wide">
      <div className="admin-title-row">
        <h1 data-testid="user-title">{t("admin.user.title", { mobileNo: user.mobileNo })}</h1>
        {user.device && (
          <span className={`live-dot ${live.connected ? "on" : ""}`} data-testid="live-indicator">
            {live.connected ? t("admin.user.live") : t("admin.user.connecting")}
          </span>
        )}
      </div>
      {live.ended && (
        <div className="message warning" role="alert" data-testid="live-ended" data-reason={live.ended}>
          <p>{t(`pump.ended.${live.ended}`)}</p>
          <a href="/admin/login" className="button small">
            {t("pump.logInAgain")}
          </a>
        </div>
      )}
      <div className="button-row">
        <button type="button" className="button small primary" onClick={() => setSettingsOpen(true)}>
          {t("admin.user.deviceSettings")}
        </button>
        {/* Without a box, the settings are kept for the account's first box (set before it is fitted). */}
        <Link to={`/admin/users/${user.id}/update-config`} className="button small">
          {t("admin.user.updateConfig")}
        </Link>
        <button type="button" className="button small" onClick={() => setPowerOpen(true)} disabled={!user.device}>
          {t("admin.user.viewPowerLogs")}
        </button>
        <Link to={`/admin/logs?${new URLSearchParams({ mobileNo: user.mobileNo })}`} className="button small">
          {t("admin.logs.title")}
        </Link>
        <Link to="/admin/users" className="button small">
          {t("admin.common.back")}
        </Link>
      </div>

      <div className="detail-grid">
        <AccountCard user={user} pump={pump} adminCount={adminCount} adminId={adminId} ask={ask} />
        {!user.device ? (
          <section className="card">
            <p className="message info">{t("admin.user.noDevice")}</p>
          </section>
        ) : (
          <>
            <PumpCard pump={pump} powerData={live.powerData} />
            <HealthCard mobileNo={user.mobileNo} health={live.health} pump={pump} onHealth={onHealth} />
            <DeviceInfoCard device={user.device} deviceInfo={user.deviceInfo} />
            {installation && <InstallationCard installation={installation} />}
            <RecentLogsCard logs={live.lastLogs} />
            {usage && <UsageCard usage={usage} span={usageSpan} deviceId={user.device.id} />}
          </>
        )}
        <PeopleCard deviceId={user.device?.id ?? null} members={members} shared={user.shared} ask={ask} />
        <ConfigHistoryCard history={history} />
      </div>

      <DeviceSettingsDialog
        open={settingsOpen}
        onClose={() => setSettingsOpen(false)}
        user={user}
        online={online}
        deviceDebug={live.debug}
        debugLines={debugLines}
        onAccountChanged={() => revalidator.revalidate()}
        ask={ask}
      />
      {user.device && <PowerLogsDialog mobileNo={user.mobileNo} open={powerOpen} onClose={() => setPowerOpen(false)} />}
      <AdminConfirmDialog
        message={question?.message ?? null}
        onConfirm={answerYes}
        onCancel={() => setQuestion(null)}
        busy={questionBusy}
      />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.user.loadFailed" />;
}
