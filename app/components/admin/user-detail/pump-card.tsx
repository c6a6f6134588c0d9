// The pump block of the user detail page: what the hub vouches for (faults, status sentence)
// and the live readings, as the farmer's dashboard shows them.

import { formatNumber } from "../../../../common/i18n/format.ts";
import type { PumpState } from "../../../../common/pump-state.ts";
import type { PowerData } from "../../../../common/realtime-protocol.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import { useLanguage } from "../../../i18n/i18n.ts";
import { FaultBanners, PumpStatusLine, useHubClock } from "../../pump-state-view.tsx";
import { Fact } from "../fact.tsx";

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
        <Fact label={t("admin.user.current")} testId="detail-current">
          {online ? `${number(powerData.current)} A` : "—"}
        </Fact>
        <Fact label={t("admin.user.wattage")} testId="detail-wattage">
          {online ? `${number(powerData.wattage)} W` : "—"}
        </Fact>
      </dl>
    </section>
  );
}
