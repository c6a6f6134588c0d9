// A commissioning report's dry-run check in one line, wherever the report is shown: the
// installer's list of installs and the owner's hand-over card.
import { useT } from "../i18n/i18n.ts";

/** A report's dry-run check in one line: what the box did, or that it was skipped. */
export function DryRunCheckLine({ check }: { check: { tripped: boolean; current: number; tripBelow: number } | null }) {
  const t = useT();
  if (check === null) return <span data-testid="report-dry-run">{t("commission.reportDryRunSkipped")}</span>;
  return (
    <span data-testid="report-dry-run">
      {t(check.tripped ? "commission.reportDryRunTripped" : "commission.reportDryRunNotTripped", {
        current: check.current,
        tripBelow: check.tripBelow,
      })}
    </span>
  );
}
