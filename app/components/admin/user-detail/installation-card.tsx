// The installation block of the user detail page (docs/user-area.md, "The installer's visit"):
// who installed the box and how to reach them, whether it was handed over, and the commissioning
// report as the server kept it (what the box measured, what was suggested and set, the feeder,
// the dry-run check or that it was skipped).
import { formatDateTime, formatMobileNo, formatVoltages } from "../../../../common/i18n/format.ts";
import type { installationForAdmin } from "../../../../worker/services/installer-visits.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import { useLanguage } from "../../../i18n/i18n.ts";
import { Fact } from "../fact.tsx";

export function InstallationCard({
  installation,
}: {
  installation: NonNullable<Awaited<ReturnType<typeof installationForAdmin>>>;
}) {
  const t = useAdminT();
  const language = useLanguage();
  const { report } = installation;
  return (
    <section className="card" data-testid="installation-card">
      <h2>{t("admin.user.installation")}</h2>
      <dl className="facts">
        <Fact label={t("admin.user.installedBy")}>
          {installation.installerName} · {formatMobileNo(installation.installerMobileNo)} ·{" "}
          {formatDateTime(installation.installedAt, language)}
        </Fact>
        <Fact label={t("admin.user.handedOver")}>
          {installation.handedOverAt === null
            ? t("admin.user.notHandedOver")
            : formatDateTime(installation.handedOverAt, language)}
        </Fact>
        <Fact label={t("admin.user.feeder")}>{installation.feeder ?? t("admin.common.na")}</Fact>
        <Fact label={t("admin.user.commissioning")} testId="installation-report">
          {report === null ? (
            t("admin.user.notCommissioned")
          ) : (
            <>
              {t("admin.user.commissioningMeasured", {
                time: formatDateTime(report.measured.at, language),
                current: report.measured.runningCurrent,
                surge: report.measured.surgeCurrent,
                voltages: formatVoltages(report.measured.voltages, language),
              })}
              <br />
              {t("admin.user.commissioningSet", {
                current: report.set.defaultCurrent,
                dryRun: report.set.dryRunThreshold,
                overCurrent: report.set.overCurrentThreshold,
                horsePower: report.set.horsePower,
                suggested: report.suggested.defaultCurrent,
              })}
              <br />
              <span data-testid="installation-dry-run">
                {report.dryRunCheck
                  ? t(report.dryRunCheck.tripped ? "admin.user.dryRunTripped" : "admin.user.dryRunNotTripped", {
                      time: formatDateTime(report.dryRunCheck.at, language),
                      current: report.dryRunCheck.current,
                      tripBelow: report.dryRunCheck.tripBelow,
                    })
                  : t("admin.user.dryRunSkipped")}
              </span>
            </>
          )}
        </Fact>
      </dl>
    </section>
  );
}
