// /logs (SPEC §2): the device's motor log, loaded from the API page by page, as days ("आज ·
// गुरुवार, 26 नवंबर") of runs and events, newest first: each ON paired with the OFF that ended
// it (from, to, how long), every line with its clock time in the reader's words.
import { useEffect, useState } from "react";
import { formatClockTime, formatDuration } from "../../common/i18n/format.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import { callApi } from "../call-api.ts";
import { motorLogsResponseCheck } from "../checks/generated.ts";
import { LogItem } from "../components/log-item.tsx";
import { useLanguage, useT } from "../i18n/i18n.ts";
import { formatDayHeading, type LogRun, logDays } from "../log-runs.ts";
import { pumpContext } from "../pump-choice.server.ts";
import type { Route } from "./+types/logs";

export const meta: Route.MetaFunction = () => [{ title: "Logs · Sinchai" }];

const PAGE_SIZE = 20;

export function loader({ context }: Route.LoaderArgs) {
  return { deviceId: context.get(pumpContext).chosen?.device.id ?? null };
}

type LoadState = "loading" | "ready" | "failed";

export default function Logs({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const { deviceId } = loaderData;
  const [logs, setLogs] = useState<MotorLogEntry[]>([]);
  const [state, setState] = useState<LoadState>("loading");
  const [more, setMore] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [attempt, setAttempt] = useState(0);

  async function load(before?: number) {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (before) query.set("before", String(before));
    // A farmer without a pump simply has no logs.
    if (!deviceId) return { logs: [], more: false };
    const result = await callApi(`/api/pumps/${deviceId}/logs?${query}`, motorLogsResponseCheck);
    if (!result.ok) {
      // A pump that is no longer theirs has no logs for them; other failures go to the console (SPEC §8).
      if (result.status === 404) return { logs: [], more: false };
      console.error("Could not load motor logs", result.status, result.message);
      return null;
    }
    return { logs: result.data, more: result.data.length === PAGE_SIZE };
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: the first page is loaded again only for another pump or a retry; `load` is new every render
  useEffect(() => {
    let cancelled = false;
    setState("loading");
    void load().then((page) => {
      if (cancelled) return;
      if (!page) {
        setState("failed");
        return;
      }
      setLogs(page.logs);
      setMore(page.more);
      setState("ready");
    });
    return () => {
      cancelled = true;
    };
    // The first page once per pump; later pages come from "Show older logs".
  }, [deviceId, attempt]);

  async function loadMore() {
    // The API pages by id: the oldest id loaded so far.
    const oldest = logs.reduce<number | null>(
      (lowest, log) => (lowest === null || log.id < lowest ? log.id : lowest),
      null,
    );
    if (oldest === null) return;
    setLoadingMore(true);
    const page = await load(oldest);
    setLoadingMore(false);
    if (!page) return;
    setLogs((current) => [...current, ...page.logs.filter((log) => !current.some((known) => known.id === log.id))]);
    setMore(page.more);
  }

  const now = Date.now();
  return (
    <main className="page">
      <h1>{t("logs.title")}</h1>
      {state === "loading" ? (
        <p className="muted" role="status" data-testid="logs-loading">
          {t("logs.loading")}
        </p>
      ) : state === "failed" ? (
        // Not "no logs": the farmer must not read a failed load as a pump that never ran.
        <div className="message error" role="alert" data-testid="logs-failed">
          <p>{t("logs.failed")}</p>
          <button type="button" className="button small" onClick={() => setAttempt((count) => count + 1)}>
            {t("logs.retry")}
          </button>
        </div>
      ) : logs.length === 0 ? (
        <p className="card muted" data-testid="logs-empty">
          {t("logs.none")}
        </p>
      ) : (
        <>
          <div className="log-days" data-testid="log-list">
            {logDays(logs).map(({ day, items }) => (
              <section key={day} className="log-day" aria-labelledby={`log-day-${day}`} data-testid="log-day">
                <h2 id={`log-day-${day}`}>{formatDayHeading(day, language, now)}</h2>
                <ul className="log-list">
                  {items.map((item) =>
                    item.type === "run" ? (
                      <RunItem key={`run-${item.on.id}`} run={item} />
                    ) : (
                      <LogItem key={item.entry.id} log={item.entry} language={language} time="clock" />
                    ),
                  )}
                </ul>
              </section>
            ))}
          </div>
          {more && (
            <button type="button" className="button" onClick={loadMore} disabled={loadingMore}>
              {loadingMore ? t("logs.loading") : t("logs.more")}
            </button>
          )}
        </>
      )}
    </main>
  );
}

/** One run of the motor: from when to when and for how long, over its ON and its OFF. */
function RunItem({ run }: { run: LogRun }) {
  const t = useT();
  const language = useLanguage();
  const from = formatClockTime(run.on.timestamp, language);
  const summary = run.off
    ? t("logs.run", {
        from,
        to: formatClockTime(run.off.timestamp, language),
        duration: formatDuration(run.seconds ?? 0, language),
      })
    : t(run.ended ? "logs.runStopNotLogged" : "logs.runNoStopYet", { from });
  return (
    <li className={`log-run${run.off ? "" : " open"}`} data-testid="log-run">
      <p className="run-summary" data-testid="run-summary">
        {summary}
      </p>
      <ul className="log-list">
        <LogItem log={run.on} language={language} time="clock" />
        {run.off && <LogItem log={run.off} language={language} time="clock" />}
      </ul>
    </li>
  );
}
