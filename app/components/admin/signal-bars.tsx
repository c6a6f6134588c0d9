// The admin signal bars of SPEC §9 (CSQ 25+ → 4, 18+ → 3, 10+ → 2, above 0 → 1).
import { signalBars } from "../../../common/signal.ts";
import { useAdminT } from "../../i18n/admin.ts";

export function SignalBars({ dbm }: { dbm: number | null }) {
  const t = useAdminT();
  if (dbm === null) return <span>{t("admin.common.na")}</span>;
  const bars = signalBars(dbm);
  return (
    <span className="signal" data-testid="signal-bars" data-bars={bars}>
      <span className="signal-bars" role="img" aria-label={t("admin.user.signalBars", { bars })}>
        {[1, 2, 3, 4].map((level) => (
          <span key={level} className={level <= bars ? "lit" : ""} style={{ height: `${level * 25}%` }} />
        ))}
      </span>
      <span>{dbm} dBm</span>
    </span>
  );
}
