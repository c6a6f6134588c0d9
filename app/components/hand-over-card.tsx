// The card an owner sees on every page after an installer linked their pump, until they say OK.
import { Form, useLocation } from "react-router";
import { formatDateTime, formatMobileNo, formatVoltages } from "../../common/i18n/format.ts";
import { useLanguage, useT } from "../i18n/i18n.ts";
import { DryRunCheckLine } from "./dry-run-check-line.tsx";

/** What the user shell's loader gives the card (app/routes/user-shell.tsx). */
export type HandOver = {
  deviceId: string;
  installerName: string;
  installerMobileNo: string;
  installedAt: number | string;
  report: {
    at: number | string;
    measured: { runningCurrent: number; voltages: number[] };
    /** Absent from reports written before the check existed; null: the installer skipped it. */
    dryRunCheck?: { tripped: boolean; current: number; tripBelow: number } | null;
  } | null;
  current: number;
  dryRun: number;
  overCurrent: number;
  /** The owner's name for the pump; null: none yet, and the card offers to give it one. */
  pumpName: string | null;
};

/**
 * Who installed the pump and how to reach them, with the settings it was given, on every user
 * page of its owner until they say OK (docs/user-area.md, "The installer's visit"): a plain form
 * posting to `/pump-installer`, which also ends the installer's access.
 */
export function HandOverCard({ handOver }: { handOver: HandOver }) {
  const t = useT();
  const language = useLanguage();
  const { pathname } = useLocation();
  return (
    <section className="card stack hand-over" aria-labelledby="hand-over-title" data-testid="hand-over-card">
      <h2 id="hand-over-title">{t("handover.title")}</h2>
      <p>
        {t("handover.installedBy", {
          name: handOver.installerName,
          time: formatDateTime(handOver.installedAt, language),
          mobileNo: formatMobileNo(handOver.installerMobileNo),
        })}
      </p>
      {handOver.report && (
        <p data-testid="hand-over-report">
          {t("handover.report", {
            time: formatDateTime(handOver.report.at, language),
            measured: handOver.report.measured.runningCurrent,
            voltages: formatVoltages(handOver.report.measured.voltages, language),
          })}
          {handOver.report.dryRunCheck !== undefined && (
            <>
              {" "}
              <DryRunCheckLine check={handOver.report.dryRunCheck} />
            </>
          )}
        </p>
      )}
      <p>
        {t("handover.settings", {
          current: handOver.current,
          dryRun: handOver.dryRun,
          overCurrent: handOver.overCurrent,
        })}
      </p>
      <Form method="post" action="/pump-installer" className="stack">
        <input type="hidden" name="pump" value={handOver.deviceId} />
        <input type="hidden" name="next" value={pathname} />
        {/* Until it is named, a pump is called by its box's id everywhere: the one moment the
            owner is sure to look is the best one to give it a name of theirs. */}
        {handOver.pumpName === null && (
          <>
            <p className="muted">{t("handover.nameHint", { id: handOver.deviceId })}</p>
            <label className="field">
              <span>{t("handover.nameLabel")}</span>
              <input name="name" maxLength={40} placeholder={t("people.namePlaceholder")} />
            </label>
          </>
        )}
        <div className="form-actions">
          <a className="button small" href={`tel:+91${handOver.installerMobileNo}`}>
            {t("handover.call")}
          </a>
          <button type="submit" className="button small primary" data-testid="hand-over-ok">
            {t("handover.ok")}
          </button>
        </div>
      </Form>
    </section>
  );
}
