// The supply's volts per phase beside the limits the box trips at ("R 412 V · Y 409 V · B 415 V,
// limits 340–460 V"). Shown only for a reading the hub vouches for now: an online box, a page
// that is connected, and a reading younger than the liveness limit; never stale figures.
import { WATCHED_OFFLINE_AFTER_MS } from "../../common/constants.ts";
import { formatNumber, formatVoltages } from "../../common/i18n/format.ts";
import { useLanguage, useT } from "../i18n/i18n.ts";

export function VoltageReading({
  voltages,
  readAt,
  now,
  live,
  limits,
}: {
  voltages: number[] | undefined;
  /** When the hub took the reading (its clock), and its clock now. */
  readAt: number | null;
  now: number;
  /** The box is online and this page hears the hub. */
  live: boolean;
  limits: { underVoltage?: number; overVoltage?: number };
}) {
  const t = useT();
  const language = useLanguage();
  const fresh = live && readAt !== null && now - readAt <= WATCHED_OFFLINE_AFTER_MS;
  if (!fresh || !voltages?.length || limits.underVoltage === undefined || limits.overVoltage === undefined) return null;
  return (
    <div className="voltage-reading">
      <dt>{t("power.voltage")}</dt>
      <dd data-testid="voltages">
        {t("power.voltageLimits", {
          voltages: formatVoltages(voltages, language),
          low: formatNumber(limits.underVoltage, language, 0),
          high: formatNumber(limits.overVoltage, language, 0),
        })}
      </dd>
    </div>
  );
}
