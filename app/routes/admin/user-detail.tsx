// /admin/users/{userId} (SPEC §2): one account with its device, live over the realtime socket
// (power, status, logs, health, debug lines), its config history, role, and the Device
// Settings and Power Logs modals.
import { useCallback, useState } from "react";
import { data, Link, useNavigate, useRevalidator } from "react-router";
import { userIdSchema } from "../../../common/admin-schemas.ts";
import { userRoleResponseSchema } from "../../../common/api-responses/admin.ts";
import { healthReadingResponseSchema } from "../../../common/api-responses/devices.ts";
import type { HubSnapshot } from "../../../common/hub-contract.ts";
import { configHistoryForAdmin, countAdmins, findAdminUserView, type ConfigHistoryEntry } from "../../../worker/db/admin-users.ts";
import { getDb } from "../../../worker/db/client.ts";
import { deviceHub } from "../../../worker/hubs/device-hubs.ts";
import { adminContext, loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { appendDebugLine, type DebugLine } from "../../components/admin/debug-console.tsx";
import { DeviceSettingsDialog, type Ask } from "../../components/admin/device-settings-dialog.tsx";
import { PowerLogsDialog } from "../../components/admin/power-logs-dialog.tsx";
import { SignalBars } from "../../components/admin/signal-bars.tsx";
import { useAdminApi } from "../../components/admin/use-admin-api.ts";
import { ConfirmDialog } from "../../components/dialog.tsx";
import { FaultBanners, PumpStatusLine, statusWord, useHubClock } from "../../components/pump-state-view.tsx";
import { useToast } from "../../components/toast.tsx";
import { formatDateTime, formatDuration, formatNumber } from "../../format.ts";
import type { AdminMessageKey } from "../../i18n/admin-en.ts";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage, useWords } from "../../i18n/i18n.ts";
import { motorLogEntryText } from "../../i18n/motor-log.ts";
import { noDeviceSnapshot } from "../../realtime/no-device-snapshot.ts";
import { useDeviceRealtime, type RealtimeEvent } from "../../realtime/use-device-realtime.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/user-detail";

export const meta: Route.MetaFunction = () => [{ title: "User · Sinchai Admin" }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const env = envOf(context);
  const adminId = context.get(adminContext).id;
  const id = userIdSchema.safeParse(params.userId);
  const notFound = () => data({ page: null, error: "admin.user.notFound" as AdminMessageKey, adminId }, { status: 404 });
  if (!id.success) return notFound();
  const db = getDb(env.DB);
  const loaded = await loadOrMessage(async () => {
    const user = await findAdminUserView(db, { id: id.data });
    if (!user) return null;
    const [history, snapshot, adminCount] = await Promise.all([
      configHistoryForAdmin(db, user.id),
      user.device ? deviceHub(env, user.device.id).getSnapshot() : noDeviceSnapshot(Date.now()),
      countAdmins(db),
    ]);
    return { user, history, snapshot, adminCount };
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

function UserDetailPage({
  user,
  history,
  snapshot,
  adminCount,
  adminId,
}: {
  user: NonNullable<Route.ComponentProps["loaderData"]["page"]>["user"];
  history: ConfigHistoryEntry[];
  snapshot: HubSnapshot;
  adminCount: number;
  adminId: number;
}) {
  const t = useAdminT();
  const language = useLanguage();
  const words = useWords();
  const api = useAdminApi();
  const toast = useToast();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [debugLines, setDebugLines] = useState<DebugLine[]>([]);
  const onEvent = useCallback((event: RealtimeEvent) => {
    if (event.type === "debugLog") setDebugLines((lines) => appendDebugLine(lines, event));
  }, []);
  const [live, setLive] = useDeviceRealtime(user.device ? user.mobileNo : null, snapshot, onEvent);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [powerOpen, setPowerOpen] = useState(false);
  // The page's one confirm dialog: role changes and the Device Settings questions ask here.
  const [question, setQuestion] = useState<{ message: string; action: () => Promise<void> } | null>(null);
  const [questionBusy, setQuestionBusy] = useState(false);
  const ask: Ask = useCallback((message, action) => setQuestion({ message, action }), []);
  const [healthBusy, setHealthBusy] = useState(false);

  const na = t("admin.common.na");
  const pump = live.pump;
  const now = useHubClock(pump);
  const online = pump.deviceStatus === "online";
  const isSelf = user.id === adminId;
  const lastAdmin = user.isAdmin && adminCount <= 1;
  const number = (value: number, digits = 2) => formatNumber(value, language, digits);

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

  async function changeRole() {
    try {
      const answer = await api("/api/admin/update-user-role", userRoleResponseSchema, {
        method: "PUT",
        json: { userId: user.id, isAdmin: !user.isAdmin },
      });
      if (answer.ok && answer.body?.signedOut) {
        navigate("/admin/login?session=expired");
        return;
      }
      if (answer.ok) {
        toast.show(t("admin.user.roleUpdated"), "success");
        revalidator.revalidate();
      } else {
        toast.show(t(answer.status === 409 ? "admin.user.lastAdmin" : "admin.user.roleFailed"), "error");
      }
    } catch {
      toast.show(t("admin.user.roleFailed"), "error");
    }
  }

  async function refreshHealth() {
    setHealthBusy(true);
    try {
      const answer = await api(`/api/devices/motor/health/${user.mobileNo}`, healthReadingResponseSchema, { method: "POST" });
      if (answer.ok && answer.body) {
        const health = answer.body.healthData;
        setLive((current) => ({ ...current, health }));
      } else {
        toast.show(t("admin.user.healthFailed"), "error");
      }
    } catch {
      toast.show(t("admin.user.healthFailed"), "error");
    } finally {
      setHealthBusy(false);
    }
  }

  const health = live.health;
  const roleQuestionText = user.isAdmin
    ? isSelf
      ? t("admin.user.removeOwnAdminQuestion")
      : t("admin.user.removeAdminQuestion", { mobileNo: user.mobileNo })
    : t("admin.user.makeAdminQuestion", { mobileNo: user.mobileNo });

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
        <Link to={`/admin/users/${user.id}/update-config`} className="button small">
          {t("admin.user.updateConfig")}
        </Link>
        <button type="button" className="button small" onClick={() => setPowerOpen(true)} disabled={!user.device}>
          {t("admin.user.viewPowerLogs")}
        </button>
        <Link to="/admin/users" className="button small">
          {t("admin.common.back")}
        </Link>
      </div>

      <div className="detail-grid">
        <section className="card">
          <h2>{t("admin.user.account")}</h2>
          <dl className="facts">
            <div>
              <dt>{t("admin.common.mobileNo")}</dt>
              <dd data-testid="detail-mobile">{user.mobileNo}</dd>
            </div>
            <div>
              <dt>{t("admin.user.deviceStatus")}</dt>
              <dd>
                <span className={`badge ${online ? "ok" : "bad"}`} data-testid="detail-device-status">
                  {online ? t("admin.common.online") : t("admin.common.offline")}
                </span>
              </dd>
            </div>
            <div>
              <dt>{t("admin.user.motorStatus")}</dt>
              <dd>
                <span
                  className={`badge ${pump.status === "on" ? "ok" : pump.status === "unknown" ? "wait" : "neutral"}`}
                  data-testid="detail-motor-status"
                  data-status={pump.status}
                >
                  {online ? statusWord(pump.status, t) : t("pump.lastKnown", { status: statusWord(pump.status, t) })}
                </span>
              </dd>
            </div>
            <div>
              <dt>{t("admin.user.role")}</dt>
              <dd className="role-cell">
                <span data-testid="detail-role">{user.isAdmin ? t("admin.common.admin") : t("admin.common.user")}</span>
                <button
                  type="button"
                  className="button small"
                  onClick={() => ask(roleQuestionText, changeRole)}
                  disabled={lastAdmin}
                  title={lastAdmin ? t("admin.user.lastAdmin") : undefined}
                >
                  {user.isAdmin ? t("admin.user.removeAdmin") : t("admin.user.makeAdmin")}
                </button>
              </dd>
            </div>
            <div>
              <dt>{t("admin.user.defaultCurrent")}</dt>
              <dd data-testid="detail-default-current">{number(user.defaultCurrent)} A</dd>
            </div>
            <div>
              <dt>{t("admin.user.dryRunThreshold")}</dt>
              <dd data-testid="detail-dry-run">{number(user.dryRunThreshold)} %</dd>
            </div>
            <div>
              <dt>{t("admin.user.overCurrentThreshold")}</dt>
              <dd>{number(user.overCurrentThreshold)} %</dd>
            </div>
            <div>
              <dt>{t("admin.user.createdAt")}</dt>
              <dd>{formatDateTime(user.createdAt, language)}</dd>
            </div>
            <div>
              <dt>{t("admin.user.lastLogin")}</dt>
              <dd data-testid="detail-last-login">
                {user.lastLogin ? formatDateTime(user.lastLogin, language) : t("admin.user.neverLoggedIn")}
              </dd>
            </div>
          </dl>
          {lastAdmin && <p className="muted small-text">{t("admin.user.lastAdmin")}</p>}
        </section>

        {!user.device ? (
          <section className="card">
            <p className="message info">{t("admin.user.noDevice")}</p>
          </section>
        ) : (
          <>
            <section className="card" data-testid="detail-pump">
              <h2>{t("admin.user.power")}</h2>
              <FaultBanners faults={pump.faults} now={now} />
              <PumpStatusLine pump={pump} now={now} />
              <dl className="readings">
                <div>
                  <dt>{t("admin.user.current")}</dt>
                  <dd data-testid="detail-current">{online ? `${number(live.powerData.current)} A` : "—"}</dd>
                </div>
                <div>
                  <dt>{t("admin.user.wattage")}</dt>
                  <dd data-testid="detail-wattage">{online ? `${number(live.powerData.wattage)} W` : "—"}</dd>
                </div>
              </dl>
            </section>

            <section className="card" data-testid="health-card">
              <div className="card-title-row">
                <h2>{t("admin.user.health")}</h2>
                <button type="button" className="button small" onClick={refreshHealth} disabled={healthBusy || !online}>
                  {t("admin.common.refresh")}
                </button>
              </div>
              {!health ? (
                <p className="muted">{t("admin.user.healthNone")}</p>
              ) : (
                <dl className="facts">
                  <div>
                    <dt>{t("admin.user.signal")}</dt>
                    <dd>
                      <SignalBars dbm={health.signal} />
                    </dd>
                  </div>
                  <div>
                    <dt>{t("admin.user.uptime")}</dt>
                    <dd>{health.uptime === null ? na : formatDuration(health.uptime, language)}</dd>
                  </div>
                  <div>
                    <dt>{t("admin.user.relay")}</dt>
                    <dd data-testid="detail-relay">
                      {online ? statusWord(pump.status, t) : t("pump.lastKnown", { status: statusWord(pump.status, t) })}
                    </dd>
                  </div>
                  <div>
                    <dt>{t("admin.user.connection")}</dt>
                    <dd>{health.mqtt === "connected" ? t("admin.user.connected") : t("admin.user.disconnected")}</dd>
                  </div>
                  <div>
                    <dt>{t("admin.user.version")}</dt>
                    <dd>{health.version ?? na}</dd>
                  </div>
                  <div>
                    <dt>{t("admin.user.chipId")}</dt>
                    <dd translate="no">{health.chipId ?? na}</dd>
                  </div>
                  <div>
                    <dt>{t("admin.user.imei")}</dt>
                    <dd translate="no">{health.imei ?? na}</dd>
                  </div>
                  <div>
                    <dt>{t("admin.user.sim")}</dt>
                    <dd>{health.sim ?? na}</dd>
                  </div>
                </dl>
              )}
            </section>

            <section className="card">
              <h2>{t("admin.user.deviceInfo")}</h2>
              <dl className="facts">
                <div>
                  <dt>{t("admin.user.deviceId")}</dt>
                  <dd data-testid="detail-device-id">{user.device.id}</dd>
                </div>
                <div>
                  <dt>{t("admin.user.kind")}</dt>
                  <dd>{t(user.device.kind === "1phase" ? "admin.user.kind.1phase" : "admin.user.kind.3phase")}</dd>
                </div>
                <div>
                  <dt>{t("admin.user.signal")}</dt>
                  <dd>
                    <SignalBars dbm={user.deviceInfo.signal} />
                  </dd>
                </div>
                <div>
                  <dt>{t("admin.user.imei")}</dt>
                  <dd translate="no">{user.deviceInfo.imei ?? na}</dd>
                </div>
                <div>
                  <dt>{t("admin.user.sim")}</dt>
                  <dd>{user.deviceInfo.sim ?? na}</dd>
                </div>
                <div>
                  <dt>{t("admin.user.chipId")}</dt>
                  <dd translate="no">{user.deviceInfo.chipId ?? na}</dd>
                </div>
                <div>
                  <dt>{t("admin.user.firmware")}</dt>
                  <dd>{user.deviceInfo.firmware ?? na}</dd>
                </div>
                <div>
                  <dt>{t("admin.user.lastSeen")}</dt>
                  <dd>{user.device.lastSeenAt ? formatDateTime(user.device.lastSeenAt, language) : na}</dd>
                </div>
              </dl>
            </section>

            <section className="card">
              <h2>{t("admin.user.logs")}</h2>
              {live.lastLogs.length === 0 ? (
                <p className="muted">{t("admin.user.logsEmpty")}</p>
              ) : (
                <ul className="log-list" data-testid="detail-logs">
                  {live.lastLogs.map((log) => (
                    <li key={log.id} className={`log ${log.action}`}>
                      <span data-kind={log.kind}>{motorLogEntryText(log, words)}</span>
                      <time dateTime={log.timestamp}>{formatDateTime(log.timestamp, language)}</time>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        )}

        <section className="card span-all">
          <h2>{t("admin.user.history")}</h2>
          {history.length === 0 ? (
            <p className="muted">{t("admin.user.historyEmpty")}</p>
          ) : (
            <table className="admin-table compact" data-testid="config-history">
              <thead>
                <tr>
                  <th>{t("admin.common.date")}</th>
                  <th>{t("admin.user.defaultCurrent")}</th>
                  <th>{t("admin.user.dryRunThreshold")}</th>
                  <th>{t("admin.user.overCurrentThreshold")}</th>
                  <th>{t("admin.user.changeNote")}</th>
                  <th>{t("admin.user.changedBy")}</th>
                </tr>
              </thead>
              <tbody>
                {history.map((entry) => (
                  <tr key={entry.id}>
                    <td data-label={t("admin.common.date")}>{formatDateTime(entry.createdAt, language)}</td>
                    <td data-label={t("admin.user.defaultCurrent")}>{number(entry.defaultCurrent)} A</td>
                    <td data-label={t("admin.user.dryRunThreshold")}>{number(entry.dryRunThreshold)} %</td>
                    <td data-label={t("admin.user.overCurrentThreshold")}>{number(entry.overCurrentThreshold)} %</td>
                    <td data-label={t("admin.user.changeNote")}>{entry.changeNote}</td>
                    <td data-label={t("admin.user.changedBy")}>{entry.changedBy ?? na}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
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
      <ConfirmDialog
        open={question !== null}
        title={t("admin.common.confirmTitle")}
        message={question?.message ?? ""}
        confirmLabel={t("admin.common.confirm")}
        cancelLabel={t("admin.common.cancel")}
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
