// Device Health Status (SPEC §2, §3), on the owner's settings page: missing values read N/A,
// the relay defaults to off and the connection to disconnected; the signal is coloured by the
// SPEC §9 user scale. With the box offline the grid greys out and the connection reads
// disconnected, whatever the box's last report said.

import { formatDateTime, formatDuration } from "../../common/i18n/format.ts";
import type { MotorStatus } from "../../common/pump-state.ts";
import type { HealthData } from "../../common/realtime-protocol.ts";
import { signalColour } from "../../common/signal.ts";
import { useLanguage, useT } from "../i18n/i18n.ts";
import { RefreshIcon } from "./icons.tsx";
import { statusWord } from "./pump-state-view.tsx";

export function HealthGrid({
  health,
  cached,
  refreshing,
  onRefresh,
  motorStatus,
  online,
}: {
  health: HealthData | null;
  /** Shown from this browser's cache because the last fetch failed. */
  cached: boolean;
  refreshing: boolean;
  onRefresh: () => void;
  /**
   * The relay as the hub vouches for it (the same as the switch above), not the box's last
   * health report, which may be older than the last switch.
   */
  motorStatus: MotorStatus;
  /** The box is connected now (the hub's word, heard by this page). */
  online: boolean;
}) {
  const t = useT();
  const language = useLanguage();
  const na = t("health.na");
  const colour = signalColour(health?.signal ?? null);
  const rows: { key: string; label: string; value: React.ReactNode }[] = [
    {
      key: "uptime",
      label: t("health.uptime"),
      value: health?.uptime == null ? na : formatDuration(health.uptime, language),
    },
    {
      key: "signal",
      label: t("health.signal"),
      value:
        health?.signal == null ? (
          na
        ) : (
          <span className={`signal ${colour}`}>
            <span className="signal-dot" aria-hidden="true" />
            {/* In words: dBm is for installers (the admin pages show it). */}
            {t(`health.signal.${colour!}`)}
          </span>
        ),
    },
    {
      key: "relay",
      label: t("health.relay"),
      value: online ? statusWord(motorStatus, t) : t("pump.lastKnown", { status: statusWord(motorStatus, t) }),
    },
    {
      key: "mqtt",
      label: t("health.connection"),
      value: online && health?.mqtt === "connected" ? t("health.connected") : t("health.disconnected"),
    },
    { key: "version", label: t("health.version"), value: health?.version ?? na },
    { key: "chipId", label: t("health.chipId"), value: health?.chipId ?? na },
    { key: "imei", label: t("health.imei"), value: health?.imei ?? na },
    { key: "sim", label: t("health.sim"), value: health?.sim ?? na },
  ];
  return (
    <section className="card" aria-labelledby="health-title">
      <div className="card-title">
        <h2 id="health-title">{t("health.title")}</h2>
        <button
          type="button"
          className="button small"
          onClick={onRefresh}
          disabled={refreshing}
          data-testid="health-refresh"
        >
          <RefreshIcon />
          {refreshing ? t("health.refreshing") : t("health.refresh")}
        </button>
      </div>
      {cached && (
        <p className="message info" data-testid="health-cached">
          {t("health.cached")}
        </p>
      )}
      <dl className={`health-grid${online ? "" : " stale"}`} data-testid="health-grid">
        {rows.map((row) => (
          <div key={row.key} data-testid={`health-${row.key}`}>
            <dt>{row.label}</dt>
            {/* Ids printed on the box are read out as printed, in any language. */}
            <dd translate={row.key === "chipId" || row.key === "imei" ? "no" : undefined}>{row.value}</dd>
          </div>
        ))}
      </dl>
      {health?.reportedAt && (
        <p className="muted small-text">
          {t("health.reportedAt", { time: formatDateTime(health.reportedAt, language) })}
        </p>
      )}
    </section>
  );
}
