// The health block of the user detail page: what the box last reported about itself, and a
// refresh that asks the box again (it must be online to answer).
import { healthReadingResponseSchema } from "../../../../common/api-responses/devices.ts";
import { formatDuration } from "../../../../common/i18n/format.ts";
import type { PumpState } from "../../../../common/pump-state.ts";
import type { HealthData } from "../../../../common/realtime-protocol.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import { useLanguage } from "../../../i18n/i18n.ts";
import { statusWord } from "../../pump-state-view.tsx";
import { Fact } from "../fact.tsx";
import { SignalBars } from "../signal-bars.tsx";
import { useAdminApi } from "../use-admin-api.ts";
import { useBusyRequest } from "../use-busy-request.ts";

export function HealthCard({
  mobileNo,
  health,
  pump,
  onHealth,
}: {
  mobileNo: string;
  health: HealthData | null;
  pump: PumpState;
  /** Fresh health from the box, for the page's live state. */
  onHealth: (health: HealthData) => void;
}) {
  const t = useAdminT();
  const language = useLanguage();
  const api = useAdminApi();
  const { busy, run } = useBusyRequest();
  const na = t("admin.common.na");
  const online = pump.deviceStatus === "online";

  const refresh = () =>
    run(
      () => api(`/api/devices/motor/health/${mobileNo}`, healthReadingResponseSchema, { method: "POST" }),
      { refused: "admin.user.healthFailed", failed: "admin.user.healthFailed" },
      (answer) => onHealth(answer.body.healthData),
    );

  return (
    <section className="card" data-testid="health-card">
      <div className="card-title-row">
        <h2>{t("admin.user.health")}</h2>
        <button type="button" className="button small" onClick={refresh} disabled={busy || !online}>
          {t("admin.common.refresh")}
        </button>
      </div>
      {!health ? (
        <p className="muted">{t("admin.user.healthNone")}</p>
      ) : (
        <dl className="facts">
          <Fact label={t("admin.user.signal")}>
            <SignalBars dbm={health.signal} />
          </Fact>
          <Fact label={t("admin.user.uptime")}>
            {health.uptime === null ? na : formatDuration(health.uptime, language)}
          </Fact>
          <Fact label={t("admin.user.relay")} testId="detail-relay">
            {online ? statusWord(pump.status, t) : t("pump.lastKnown", { status: statusWord(pump.status, t) })}
          </Fact>
          <Fact label={t("admin.user.connection")}>
            {health.mqtt === "connected" ? t("admin.user.connected") : t("admin.user.disconnected")}
          </Fact>
          <Fact label={t("admin.user.version")}>{health.version ?? na}</Fact>
          <Fact label={t("admin.user.chipId")} translate="no">
            {health.chipId ?? na}
          </Fact>
          <Fact label={t("admin.user.imei")} translate="no">
            {health.imei ?? na}
          </Fact>
          <Fact label={t("admin.user.sim")}>{health.sim ?? na}</Fact>
        </dl>
      )}
    </section>
  );
}
