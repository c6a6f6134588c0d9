// The motor settings history of the user detail page: every change, newest first, with who
// made it.

import type { ConfigHistoryEntry } from "../../../../common/admin-user-views.ts";
import { formatDateTime, formatNumber } from "../../../../common/i18n/format.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import { useLanguage } from "../../../i18n/i18n.ts";
import { AdminTable } from "../admin-table.tsx";

export function ConfigHistoryCard({ history }: { history: ConfigHistoryEntry[] }) {
  const t = useAdminT();
  const language = useLanguage();
  const na = t("admin.common.na");
  const number = (value: number) => formatNumber(value, language, 2);
  return (
    <section className="card span-all">
      <h2>{t("admin.user.history")}</h2>
      <AdminTable
        rows={history}
        empty="admin.user.historyEmpty"
        columns={[
          "admin.common.date",
          "admin.user.defaultCurrent",
          "admin.user.dryRunThreshold",
          "admin.user.overCurrentThreshold",
          "admin.user.changeNote",
          "admin.user.changedBy",
        ]}
        testId="config-history"
        compact
      >
        {(entry) => (
          <tr key={entry.id}>
            <td data-label={t("admin.common.date")}>{formatDateTime(entry.createdAt, language)}</td>
            <td data-label={t("admin.user.defaultCurrent")}>{number(entry.defaultCurrent)} A</td>
            <td data-label={t("admin.user.dryRunThreshold")}>{number(entry.dryRunThreshold)} %</td>
            <td data-label={t("admin.user.overCurrentThreshold")}>{number(entry.overCurrentThreshold)} %</td>
            <td data-label={t("admin.user.changeNote")}>{entry.changeNote}</td>
            <td data-label={t("admin.user.changedBy")}>{entry.changedBy ?? na}</td>
          </tr>
        )}
      </AdminTable>
    </section>
  );
}
