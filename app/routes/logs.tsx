// /logs (SPEC §2): the device's motor log cards, newest first, loaded from the API page by
// page, with their age in the reader's language.
import { useEffect, useState } from "react";
import { motorLogsResponseSchema } from "../../common/api-responses/logs.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import { callApi } from "../api-client.ts";
import { LogItem } from "../components/log-item.tsx";
import { useLanguage, useT } from "../i18n/i18n.ts";
import { pumpContext } from "../pump-choice.server.ts";
import type { Route } from "./+types/logs";

export const meta: Route.MetaFunction = () => [{ title: "Logs · Sinchai" }];

const PAGE_SIZE = 20;
/** Ages ("5 minutes ago") move on while the page is open. */
const AGE_TICK_MS = 30_000;

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
  const [now, setNow] = useState(() => Date.now());

  async function load(before?: number) {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (before) query.set("before", String(before));
    // A farmer without a pump simply has no logs.
    if (!deviceId) return { logs: [], more: false };
    const result = await callApi(`/api/pumps/${deviceId}/logs?${query}`, motorLogsResponseSchema);
    if (!result.ok) {
      // A pump that is no longer theirs has no logs for them; other failures go to the console (SPEC §8).
      if (result.status === 404) return { logs: [], more: false };
      console.error("Could not load motor logs", result.status, result.message);
      return null;
    }
    return { logs: result.data, more: result.data.length === PAGE_SIZE };
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: the first page is loaded again only for another pump; `load` is new every render
  useEffect(() => {
    let cancelled = false;
    void load().then((page) => {
      if (cancelled) return;
      setNow(Date.now());
      if (!page) {
        setState("failed");
        return;
      }
      setLogs(page.logs);
      setMore(page.more);
      setState("ready");
    });
    const timer = setInterval(() => setNow(Date.now()), AGE_TICK_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
    // The first page once per pump; later pages come from "Show older logs".
  }, [deviceId]);

  async function loadMore() {
    const oldest = logs.at(-1);
    if (!oldest) return;
    setLoadingMore(true);
    const page = await load(oldest.id);
    setLoadingMore(false);
    if (!page) return;
    setLogs((current) => [...current, ...page.logs.filter((log) => !current.some((known) => known.id === log.id))]);
    setMore(page.more);
  }

  return (
    <main className="page">
      <h1>{t("logs.title")}</h1>
      {state === "loading" ? (
        <p className="muted" role="status" data-testid="logs-loading">
          {t("logs.loading")}
        </p>
      ) : logs.length === 0 ? (
        <p className="card muted" data-testid="logs-empty">
          {t("logs.none")}
        </p>
      ) : (
        <>
          <ul className="log-list" data-testid="log-list">
            {logs.map((log) => (
              <LogItem key={log.id} log={log} language={language} now={now} />
            ))}
          </ul>
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
