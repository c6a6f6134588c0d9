// The motor log block of the user detail page: the hub's recent entries, live, worded in the
// admin's language from their codes.

import { formatDateTime } from "../../../../common/i18n/format.ts";
import { motorLogEntryText } from "../../../../common/i18n/motor-log.ts";
import type { MotorLogEntry } from "../../../../common/realtime-protocol.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import { useLanguage, useWords } from "../../../i18n/i18n.ts";

export function RecentLogsCard({ logs }: { logs: MotorLogEntry[] }) {
  const t = useAdminT();
  const language = useLanguage();
  const words = useWords();
  return (
    <section className="card">
      <h2>{t("admin.user.logs")}</h2>
      {logs.length === 0 ? (
        <p className="muted">{t("admin.user.logsEmpty")}</p>
      ) : (
        <ul className="log-list" data-testid="detail-logs">
          {logs.map((log) => (
            <li key={log.id} className={`log ${log.action}`}>
              <span data-kind={log.kind}>{motorLogEntryText(log, words)}</span>
              <time dateTime={log.timestamp}>{formatDateTime(log.timestamp, language)}</time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
