// "View Power Logs" (SPEC §2): the device's sampled readings, rows far above the average
// highlighted (SPEC §9: red at 10 A or more above it, orange at 5 A or more).
import { useEffect, useState } from "react";
import { powerHistoryResponseSchema } from "../../../common/api-responses/logs.ts";
import type { PowerSample } from "../../../common/hub-contract.ts";
import { formatDateTime, formatNumber } from "../../../common/i18n/format.ts";
import { averageCurrent, powerHighlight } from "../../../common/power-highlight.ts";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage } from "../../i18n/i18n.ts";
import { AdminTable } from "./admin-table.tsx";
import { ClosingDialog } from "./dialogs.tsx";
import { useAdminApi } from "./use-admin-api.ts";

export function PowerLogsDialog({ mobileNo, open, onClose }: { mobileNo: string; open: boolean; onClose: () => void }) {
  const t = useAdminT();
  const language = useLanguage();
  const api = useAdminApi();
  const [samples, setSamples] = useState<PowerSample[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setSamples(null);
    setFailed(false);
    api(`/api/logs/power/${mobileNo}?limit=200`, powerHistoryResponseSchema)
      .then((answer) => {
        if (cancelled) return;
        if (answer.ok && Array.isArray(answer.body)) setSamples(answer.body);
        else setFailed(true);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [open, mobileNo, api]);

  const average = averageCurrent(samples ?? []);

  return (
    <ClosingDialog open={open} title={t("admin.power.title")} onClose={onClose} testId="power-logs-dialog">
      {failed ? (
        <p className="message error" role="alert">
          {t("admin.power.failed")}
        </p>
      ) : samples === null ? (
        <p className="muted">{t("admin.common.loading")}</p>
      ) : samples.length === 0 ? (
        <p className="muted">{t("admin.power.empty")}</p>
      ) : (
        <>
          <p>{t("admin.power.average", { current: formatNumber(average, language, 1) })}</p>
          <p className="muted small-text">{t("admin.power.legend")}</p>
          <div className="dialog-scroll">
            <AdminTable
              columns={["admin.power.time", "admin.user.current", "admin.user.wattage"]}
              rows={samples}
              compact
            >
              {(sample) => (
                <tr key={sample.id} className={`power-row ${powerHighlight(sample.current, average) ?? ""}`}>
                  <td data-label={t("admin.power.time")}>{formatDateTime(sample.timestamp, language)}</td>
                  <td data-label={t("admin.user.current")}>{formatNumber(sample.current, language)} A</td>
                  <td data-label={t("admin.user.wattage")}>{formatNumber(sample.wattage, language)} W</td>
                </tr>
              )}
            </AdminTable>
          </div>
        </>
      )}
    </ClosingDialog>
  );
}
