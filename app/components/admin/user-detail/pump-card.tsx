// The pump block of the user detail page: what the hub vouches for (faults, status sentence)
// and the live readings, as the farmer's dashboard shows them.
import type { PumpState } from "../../../../common/pump-state.ts";
import type { PowerData } from "../../../../common/realtime-protocol.ts";
import { formatNumber } from "../../../format.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import { useLanguage } from "../../../i18n/i18n.ts";
import { FaultBanners, PumpStatusLine, useHubClock } from "../../pump-state-view.tsx";

export function PumpCard({ pump, powerData }: { pump: PumpState; powerData: PowerData }) {
  const t = useAdminT();
  const language = useLanguage();
  const now = useHubClock(pump);
  const online = pump.deviceStatus === "online";
  const number = (value: number) => formatNumber(value, language, 2);
  return (
    <section className="card" data-testid="detail-pump">
      <h2>{t("admin.user.power")}</h2>
      <FaultBanners faults={pump.faults} now={now} />
      <PumpStatusLine pump={pump} now={now} />
      <dl className="readings">
        <div>
          <dt>{t("admin.user.current")}</dt>
          <dd data-testid="detail-current">{online ? `${number(powerData.current)} A` : "—"}</dd>
        </div>
        <div>
          <dt>{t("admin.user.wattage")}</dt>
          <dd data-testid="detail-wattage">{online ? `${number(powerData.wattage)} W` : "—"}</dd>
        </div>
      </dl>
    </section>
  );
}
