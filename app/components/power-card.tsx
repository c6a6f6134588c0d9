// The motor's power readings (SPEC §2: current in A, wattage in W) and the supply's volts with
// their limits. "—" while the box is offline or the page hears nothing: an offline box's motor is
// not known to draw 0 A. The first seconds of a start are labelled as the start-up surge, not
// shown as what the motor draws running (../realtime/start-up-surge.ts).

import { formatNumber } from "../../common/i18n/format.ts";
import type { VoltageLimits } from "../../common/protection.ts";
import type { PumpState } from "../../common/pump-state.ts";
import type { PowerData } from "../../common/realtime-protocol.ts";
import { useLanguage, useT } from "../i18n/i18n.ts";
import { showsStartUpSurge } from "../realtime/start-up-surge.ts";
import { VoltageReading } from "./voltage-reading.tsx";

export function PowerCard({
  powerData,
  pump,
  now,
  live,
  limits,
}: {
  powerData: PowerData;
  pump: PumpState;
  /** The hub's clock. */
  now: number;
  /** The box is online and this page hears the hub. */
  live: boolean;
  limits: Partial<VoltageLimits>;
}) {
  const t = useT();
  const language = useLanguage();
  const surge = live && showsStartUpSurge(pump, now);
  const reading = (value: number, unit: string) => (live ? `${formatNumber(value, language)} ${unit}` : "—");
  return (
    <section className="card" aria-labelledby="power-title">
      <h2 id="power-title">{t("power.title")}</h2>
      {surge && (
        <p className="message info" data-testid="start-surge">
          {t("power.startSurge")}
        </p>
      )}
      <dl className={`readings${surge ? " surge" : ""}`}>
        <div>
          <dt>{t("power.current")}</dt>
          <dd data-testid="current">{reading(powerData.current, "A")}</dd>
        </div>
        <div>
          <dt>{t("power.wattage")}</dt>
          <dd data-testid="wattage">{reading(powerData.wattage, "W")}</dd>
        </div>
        <VoltageReading voltages={powerData.voltages} readAt={pump.powerDataAt} now={now} live={live} limits={limits} />
      </dl>
    </section>
  );
}
