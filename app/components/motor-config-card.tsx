// Motor Configuration (SPEC §2, §5, §9): the running current picked from 1 to 40 A, the two
// thresholds as free numbers (the server checks their ranges), tolerance and horsepower shown
// as they change, and a confirmation before saving.
import { useState } from "react";
import { z } from "../../common/zod-mini.ts";
import type { MotorConfig } from "../../common/api-schemas.ts";
import { horsePowerFor, toleranceAmperes } from "../../common/protection.ts";
import { callApi } from "../api-client.ts";
import { formatNumber } from "../format.ts";
import { localeOf, useLanguage, useT, type Language } from "../i18n/i18n.ts";
import { ConfirmDialog } from "./dialog.tsx";
import { useToast } from "./toast.tsx";

const CURRENT_CHOICES = Array.from({ length: 40 }, (_, index) => index + 1);
const savedSchema = z.object({ success: z.literal(true) });

/** SPEC §9: tolerance and horsepower are shown to one decimal ("3.0", not "3"). */
function oneDecimal(value: number, language: Language): string {
  return new Intl.NumberFormat(localeOf(language), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

export function MotorConfigCard({ mobileNo, initial }: { mobileNo: string; initial: MotorConfig }) {
  const t = useT();
  const language = useLanguage();
  const toast = useToast();
  const [saved, setSaved] = useState(initial);
  const [current, setCurrent] = useState(String(initial.defaultCurrent));
  const [dryRun, setDryRun] = useState(String(initial.dryRunThreshold));
  const [overCurrent, setOverCurrent] = useState(String(initial.overCurrentThreshold));
  const [confirming, setConfirming] = useState(false);
  const [saving, setSaving] = useState(false);

  // An installer may have set a current between whole amperes: keep it selectable, unchanged.
  const choices = CURRENT_CHOICES.includes(saved.defaultCurrent)
    ? CURRENT_CHOICES
    : [...CURRENT_CHOICES, saved.defaultCurrent].sort((a, b) => a - b);
  const amperes = Number(current);
  const dryRunPercent = Number.parseFloat(dryRun);
  const tolerance = Number.isFinite(dryRunPercent)
    ? oneDecimal(toleranceAmperes({ defaultCurrent: amperes, dryRunThreshold: dryRunPercent, overCurrentThreshold: 0 }), language)
    : t("health.na");

  async function save() {
    setSaving(true);
    const config = {
      defaultCurrent: amperes,
      dryRunThreshold: Number.parseFloat(dryRun),
      overCurrentThreshold: Number.parseFloat(overCurrent),
    };
    const result = await callApi(`/api/devices/motor/config/${mobileNo}`, savedSchema, { method: "POST", body: config });
    setSaving(false);
    setConfirming(false);
    if (result.ok) {
      setSaved(config);
      toast.show(t("config.saved"), "success");
    } else if (result.status !== 401) {
      toast.show(
        result.status === 400 && result.message && language === "en"
          ? `${t("config.failed")} ${result.message}`
          : result.status === 400
            ? `${t("config.failed")} ${t("config.outOfRange")}`
            : t("config.failed"),
        "error",
      );
    }
  }

  return (
    <section className="card" aria-labelledby="config-title">
      <h2 id="config-title">{t("config.title")}</h2>
      <form
        className="config-form"
        onSubmit={(event) => {
          event.preventDefault();
          setConfirming(true);
        }}
      >
        <label className="field">
          <span>{t("config.current")}</span>
          <select name="defaultCurrent" value={current} onChange={(event) => setCurrent(event.target.value)}>
            {choices.map((value) => (
              <option key={value} value={String(value)}>
                {formatNumber(value, language, 1)} A
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("config.dryRun")}</span>
          <input name="dryRunThreshold" inputMode="decimal" value={dryRun} onChange={(event) => setDryRun(event.target.value)} required />
        </label>
        <label className="field">
          <span>{t("config.overCurrent")}</span>
          <input
            name="overCurrentThreshold"
            inputMode="decimal"
            value={overCurrent}
            onChange={(event) => setOverCurrent(event.target.value)}
            required
          />
        </label>
        <dl className="readings small">
          <div>
            <dt>{t("config.tolerance")}</dt>
            <dd data-testid="tolerance">{tolerance} A</dd>
          </div>
          <div>
            <dt>{t("config.horsePower")}</dt>
            <dd data-testid="horsepower">{oneDecimal(horsePowerFor(amperes), language)} HP</dd>
          </div>
        </dl>
        <button type="submit" className="button primary">
          {t("config.update")}
        </button>
      </form>
      <ConfirmDialog
        open={confirming}
        title={t("config.title")}
        message={t("config.confirm")}
        confirmLabel={saving ? t("config.saving") : t("dialog.confirm")}
        cancelLabel={t("dialog.cancel")}
        onConfirm={save}
        onCancel={() => setConfirming(false)}
        busy={saving}
      />
    </section>
  );
}
