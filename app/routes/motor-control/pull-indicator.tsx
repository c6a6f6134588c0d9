// Pulling the page down at the top reloads it (../../pull-to-refresh.ts); this says how far to go.
import { useT } from "../../i18n/i18n.ts";
import { PULL_TO_REFRESH_THRESHOLD_PX, usePullToRefresh } from "../../pull-to-refresh.ts";

export function PullIndicator() {
  const t = useT();
  const pulled = usePullToRefresh();
  return (
    pulled > 0 && (
      <p className="pull-indicator" aria-hidden="true" style={{ height: Math.min(pulled, 200) / 2 }}>
        {pulled > PULL_TO_REFRESH_THRESHOLD_PX ? t("pull.release") : t("pull.pull")}
      </p>
    )
  );
}
