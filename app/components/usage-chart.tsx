// Run hours and energy (docs/decisions/019): running hours per India day as a bar chart in plain
// SVG, rendered on the server from the loader's data, with the totals, a 7/30-day switch and the
// CSV download as links (they work without JavaScript). A hidden table reads the days out.
import { Link } from "react-router";
import type { PumpUsage } from "../../common/api-responses/usage.ts";
import { formatDate, formatDuration, formatNumber, localeOf } from "../../common/i18n/format.ts";
import { useLanguage, useT } from "../i18n/i18n.ts";

// Room around the plot for labels 13.5 units high (app.css), drawn at least 12 px on a 360 px phone.
const WIDTH = 320;
const HEIGHT = 150;
/** Room for "24 घं." beside the plot. */
const LEFT = 40;
/** Room for the last date label, centred under today's bar. */
const RIGHT = 22;
const BOTTOM = 20;
const PLOT_HEIGHT = HEIGHT - BOTTOM - 8;

export function UsageCard({ usage, span, deviceId }: { usage: PumpUsage; span: number; deviceId: string }) {
  const t = useT();
  const language = useLanguage();
  const { days, totals } = usage;
  const hours = days.map((day) => day.runningMinutes / 60);
  const top = Math.max(1, Math.ceil(Math.max(...hours)));
  const slot = (WIDTH - LEFT - RIGHT) / days.length;
  // A label every day for a week (the weekday); for a month one a week, counted back from today:
  // every fifth ran Hindi dates ("12 नव॰") into each other on a 360 px phone.
  const every = days.length > 7 ? 7 : 1;
  const label = new Intl.DateTimeFormat(localeOf(language), {
    timeZone: "UTC",
    ...(every === 1 ? { weekday: "short" } : { day: "numeric", month: "short" }),
  });
  const dateOf = (date: string) => formatDate(`${date}T12:00:00+05:30`, language);
  const duration = (minutes: number) => formatDuration(minutes * 60, language);
  // A short run uses a few watt-hours: shown, not rounded away.
  const kwh = (value: number) => t("usage.kwh", { kwh: formatNumber(value, language, 3) });
  return (
    <section className="card" aria-labelledby="usage-title" data-testid="usage">
      <h2 id="usage-title">{t("usage.title")}</h2>
      <nav className="card-links" aria-label={t("usage.title")}>
        {[7, 30].map((option) => (
          <Link
            key={option}
            to={`?usage=${option}`}
            className={option === span ? "button small primary" : "button small"}
            aria-current={option === span ? "page" : undefined}
            preventScrollReset
          >
            {t("usage.span", { days: option })}
          </Link>
        ))}
      </nav>
      <dl className="readings small">
        <div>
          <dt>{t("usage.runningTime")}</dt>
          <dd data-testid="usage-time">{duration(totals.runningMinutes)}</dd>
        </div>
        <div>
          <dt>{t("usage.starts")}</dt>
          <dd data-testid="usage-starts">{t("usage.count", { count: totals.starts })}</dd>
        </div>
        <div>
          <dt>{t("usage.energy")}</dt>
          <dd data-testid="usage-kwh">{kwh(totals.kwh)}</dd>
        </div>
      </dl>
      <svg
        className="usage-chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="usage-chart-title"
        aria-describedby="usage-chart-desc"
        data-testid="usage-chart"
      >
        <title id="usage-chart-title">{t("usage.chartTitle", { days: days.length })}</title>
        <desc id="usage-chart-desc">
          {t("usage.chartDesc", { time: duration(totals.runningMinutes), from: dateOf(days[0]!.date) })}
        </desc>
        <line x1={LEFT} x2={WIDTH - RIGHT} y1={8} y2={8} className="grid" />
        <line x1={LEFT} x2={WIDTH - RIGHT} y1={8 + PLOT_HEIGHT} y2={8 + PLOT_HEIGHT} className="grid" />
        <text x={LEFT - 4} y={12} textAnchor="end">
          {t("usage.hours", { hours: top })}
        </text>
        <text x={LEFT - 4} y={8 + PLOT_HEIGHT} textAnchor="end">
          0
        </text>
        {days.map((day, index) => {
          // A day it ran at all shows at least a sliver.
          const height = hours[index]! > 0 ? Math.max(2, (hours[index]! / top) * PLOT_HEIGHT) : 0;
          const x = LEFT + index * slot;
          const fromEnd = days.length - 1 - index;
          return (
            <g key={day.date}>
              {height > 0 && (
                <rect x={x + slot * 0.15} width={slot * 0.7} y={8 + PLOT_HEIGHT - height} height={height} rx={1} />
              )}
              {fromEnd % every === 0 && (
                <text x={x + slot / 2} y={HEIGHT - 4} textAnchor="middle">
                  {label.format(Date.parse(day.date))}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      {/* In a box of its own: a table is as wide as its content, whatever width it is given. */}
      <div className="visually-hidden">
        <table>
          <caption>{t("usage.chartTitle", { days: days.length })}</caption>
          <thead>
            <tr>
              <th>{t("usage.date")}</th>
              <th>{t("usage.runningTime")}</th>
              <th>{t("usage.starts")}</th>
              <th>{t("usage.energy")}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <td>{dateOf(day.date)}</td>
                <td>{duration(day.runningMinutes)}</td>
                <td>{day.starts}</td>
                <td>{kwh(day.kwh)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small-text">{t("usage.estimate")}</p>
      <a href={`/api/pumps/${deviceId}/usage?days=${span}&format=csv`} download data-testid="usage-csv">
        {t("usage.download")}
      </a>
    </section>
  );
}
