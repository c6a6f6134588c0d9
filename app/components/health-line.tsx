// The dashboard's one line about the box, in place of the installer's details (those are on the
// owner's /pump-settings): whether the box is connected and how good its signal is, in words.
// Once the box is offline, or this page hears nothing, it greys out and says since when,
// never "connected".
import { Link } from "react-router";
import { relativeAge } from "../../common/i18n/format.ts";
import type { HealthData } from "../../common/realtime-protocol.ts";
import { signalColour } from "../../common/signal.ts";
import { useLanguage, useT } from "../i18n/i18n.ts";

export function HealthLine({
  health,
  cached,
  boxOnline,
  heard,
  lastHeardAt,
  now,
  settingsLink,
}: {
  health: HealthData | null;
  /** Shown from this browser's cache because the page's fetch failed. */
  cached: boolean;
  /** The hub's word that the box is connected. */
  boxOnline: boolean;
  /** This page hears the hub (the phone has a network and the socket opens). */
  heard: boolean;
  /** When the box was last heard from, or (the page hearing nothing) when the page last heard the hub. */
  lastHeardAt: number | null;
  /** The clock `lastHeardAt` is on, now. */
  now: number;
  /** The owner's way to the settings and the box's details. */
  settingsLink: boolean;
}) {
  const t = useT();
  const language = useLanguage();
  const state = !heard ? "stale" : boxOnline ? "online" : "offline";
  const lastHeard =
    lastHeardAt === null ? [] : [t("healthLine.lastHeard", { age: relativeAge(lastHeardAt, language, now) })];
  const colour = signalColour(health?.signal ?? null);
  const parts =
    state === "online"
      ? [t("healthLine.online"), ...(colour ? [t("healthLine.signal", { quality: t(`health.signal.${colour}`) })] : [])]
      : state === "offline"
        ? [t("healthLine.offline"), ...lastHeard]
        : lastHeard;
  return (
    <section
      className={`card health-line ${state}`}
      data-testid="health-line"
      data-state={state}
      aria-label={t("healthLine.label")}
    >
      <p>
        {state === "online" && colour && (
          <span className={`signal ${colour}`} aria-hidden="true">
            <span className="signal-dot" />
          </span>
        )}
        {parts.join(" · ")}
      </p>
      {cached && (
        <p className="small-text" data-testid="health-cached">
          {t("health.cached")}
        </p>
      )}
      {settingsLink && (
        <Link to="/pump-settings" data-testid="settings-link">
          {t("healthLine.settings")}
        </Link>
      )}
    </section>
  );
}
