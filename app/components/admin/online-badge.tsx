// Whether a box is connected now, as every admin list and card shows it: a green or red badge.
import { useAdminT } from "../../i18n/admin.ts";

export function OnlineBadge({ online, testId }: { online: boolean; testId?: string }) {
  const t = useAdminT();
  return (
    <span className={`badge ${online ? "ok" : "bad"}`} data-testid={testId}>
      {online ? t("admin.common.online") : t("admin.common.offline")}
    </span>
  );
}
