// Motor Configuration (SPEC §2, §5, §9) on the owner's settings page: the running current
// picked from 1 to 40 A, the two thresholds and the voltage limits (empty: the motor kind's
// default; unbalance on 3-phase only; each with its kind's range beside it) as free numbers
// (the server checks their ranges), tolerance and horsepower shown as they change. Saving asks
// first, the one way for every change (docs/decisions/025-weaker-protection-asks-first.md): the
// page's action answers with a confirm step listing each setting that moves, old → new, each
// marked where it weakens protection; its own small form posts the same values again with what
// was confirmed, and only then is anything saved. A plain form first (no script: the step and
// the result come back in the page); with script the same posts run through a fetcher.
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import type { MotorConfig } from "../../common/api-schemas.ts";
import type { DeviceKind } from "../../common/device-protocol.ts";
import { formatNumber } from "../../common/i18n/format.ts";
import { horsePowerFor, toleranceAmperes, VOLTAGE_LIMIT_RANGES, type VoltageLimits } from "../../common/protection.ts";
import type { ProtectionSettings, SettingChange } from "../../common/protection-changes.ts";
import { type Language, localeOf, type MessageKey, useLanguage, useT } from "../i18n/i18n.ts";
import { ConfirmStep } from "./confirm-step.tsx";
import { Field } from "./field.tsx";
import { useToast } from "./toast.tsx";

const VOLTAGE_FIELDS = ["underVoltage", "overVoltage", "voltageUnbalance"] as const;

/** Where the form posts: the settings page's action. */
const SETTINGS_PATH = "/pump-settings";

/** The words of each setting in the confirm step: the form's own labels. */
const SETTING_LABELS: Record<keyof ProtectionSettings, MessageKey> = {
  defaultCurrent: "config.current",
  dryRunThreshold: "config.dryRun",
  overCurrentThreshold: "config.overCurrent",
  underVoltage: "config.underVoltage",
  overVoltage: "config.overVoltage",
  voltageUnbalance: "config.voltageUnbalance",
};

const CURRENT_CHOICES = Array.from({ length: 40 }, (_, index) => index + 1);

/** SPEC §9: tolerance and horsepower are shown to one decimal ("3.0", not "3"). */
function oneDecimal(value: number, language: Language): string {
  return new Intl.NumberFormat(localeOf(language), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
    value,
  );
}

type TypedConfig = Record<keyof MotorConfig, string>;

/**
 * The motor configuration form's answer; a refused one keeps what the farmer typed. A change
 * is first held for the confirm step (`review`): what moves, the values typed, and `reviewed`,
 * what the confirm form sends back to say which old → new the owner saw (`changedMeanwhile`:
 * the settings moved since the step the owner confirmed, which is shown again). `unchanged`:
 * nothing to save. `notAllowed`, `noDevice`, `crossSite`: a post this page never makes.
 */
export type ConfigOutcome =
  | { ok: true; deliveredToDevice: boolean }
  | { ok: false; code: "invalidInput" | "voltageLimitOutOfRange"; field: string; values: TypedConfig }
  | {
      ok: false;
      code: "review";
      changes: SettingChange[];
      values: TypedConfig;
      reviewed: string;
      changedMeanwhile: boolean;
    }
  | { ok: false; code: "unchanged" | "notAllowed" | "noDevice" | "crossSite" | "invalid" };

/** The answer's words, for the answers that have no step of their own. */
function resultText(outcome: ConfigOutcome, t: ReturnType<typeof useT>): string {
  if (outcome.ok) return t("config.saved");
  if (outcome.code === "unchanged") return t("config.unchanged");
  return failureText(t);
}

/** What the farmer is told about a refused save: a value out of range (each voltage limit's range is beside it). */
function failureText(t: ReturnType<typeof useT>): string {
  return `${t("config.failed")} ${t("config.outOfRange")}`;
}

function rangeOf(kind: DeviceKind, name: (typeof VOLTAGE_FIELDS)[number]) {
  return { ...VOLTAGE_LIMIT_RANGES[kind][name], unit: name === "voltageUnbalance" ? "%" : "V" };
}

export function MotorConfigCard({
  initial,
  posted,
  kind,
  pump,
}: {
  initial: MotorConfig & VoltageLimits;
  posted: ConfigOutcome | null;
  kind: DeviceKind;
  /** The box these settings are for: the post names it, so a switch of pump in another tab cannot redirect it. */
  pump: string;
}) {
  const t = useT();
  const language = useLanguage();
  const toast = useToast();
  const fetcher = useFetcher<{ config: ConfigOutcome | null }>();
  // A post without script comes back with what was typed, to correct or confirm it.
  const typed = posted && !posted.ok && "values" in posted ? posted.values : null;
  const [current, setCurrent] = useState(typed?.defaultCurrent ?? String(initial.defaultCurrent));
  const [dryRun, setDryRun] = useState(typed?.dryRunThreshold ?? String(initial.dryRunThreshold));
  const [overCurrent, setOverCurrent] = useState(typed?.overCurrentThreshold ?? String(initial.overCurrentThreshold));

  /** The confirm step the farmer said no to (with script): it goes away. */
  const [dismissed, setDismissed] = useState<ConfigOutcome | null>(null);
  const saving = fetcher.state !== "idle";
  const answered = fetcher.data?.config ?? posted;
  const review = answered && !answered.ok && answered.code === "review" && answered !== dismissed ? answered : null;
  const weakens = review?.changes.some((change) => change.weakens) ?? false;
  const result = answered && (answered.ok || !("changes" in answered)) ? answered : null;

  // An installer may have set a current between whole amperes: keep it selectable, unchanged.
  const choices = CURRENT_CHOICES.includes(initial.defaultCurrent)
    ? CURRENT_CHOICES
    : [...CURRENT_CHOICES, initial.defaultCurrent].sort((a, b) => a - b);
  const amperes = Number(current);
  const dryRunPercent = Number.parseFloat(dryRun);
  const tolerance = Number.isFinite(dryRunPercent)
    ? oneDecimal(
        toleranceAmperes({ defaultCurrent: amperes, dryRunThreshold: dryRunPercent, overCurrentThreshold: 0 }),
        language,
      )
    : t("health.na");

  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per answer; `t` and the toast are new functions every render
  useEffect(() => {
    const outcome = fetcher.data?.config;
    if (!outcome || fetcher.state !== "idle") return;
    if (outcome.ok) toast.show(t("config.saved"), "success");
    else if (outcome.code !== "review" && outcome.code !== "unchanged") toast.show(failureText(t), "error");
    // One toast per answer.
  }, [fetcher.data, fetcher.state]);

  return (
    <section className="card" aria-labelledby="config-title">
      <h2 id="config-title">{t("config.title")}</h2>
      {result && (
        <p
          className={`message ${result.ok ? "success" : result.code === "unchanged" ? "info" : "error"}`}
          role={result.ok || result.code === "unchanged" ? "status" : "alert"}
          data-testid="config-result"
        >
          {resultText(result, t)}
        </p>
      )}
      {review && (
        <ConfirmStep
          step={review}
          Form={fetcher.Form}
          action={SETTINGS_PATH}
          warning={weakens}
          testId="config-review"
          hidden={{ intent: "config", pump, confirmed: review.reviewed, ...review.values }}
          submit={
            <button type="submit" className={`button ${weakens ? "danger" : "primary"}`} disabled={saving}>
              {saving ? t("config.saving") : t(weakens ? "config.weakerSave" : "dialog.confirm")}
            </button>
          }
          onCancel={() => setDismissed(review)}
        >
          {review.changedMeanwhile && <p>{t("config.changedMeanwhile")}</p>}
          <p>
            <strong>{t(weakens ? "config.weakerTitle" : "config.reviewTitle")}</strong>
          </p>
          <ul>
            {review.changes.map(({ setting, from, to, weakens }) => (
              <li key={setting} data-testid="config-change" data-weakens={weakens}>
                {t(SETTING_LABELS[setting])}: {formatNumber(from, language)} → {formatNumber(to, language)}
                {weakens && <strong>{` (${t("config.weakens")})`}</strong>}
              </li>
            ))}
          </ul>
          <p>{t(weakens ? "config.weakerQuestion" : "config.confirm")}</p>
        </ConfirmStep>
      )}
      <fetcher.Form
        method="post"
        action={SETTINGS_PATH}
        // The server's answer, in the page's language, rather than the browser's English bubble.
        noValidate
        className="config-form"
      >
        <input type="hidden" name="intent" value="config" />
        <input type="hidden" name="pump" value={pump} />
        <Field label={t("config.current")}>
          <select name="defaultCurrent" value={current} onChange={(event) => setCurrent(event.target.value)}>
            {choices.map((value) => (
              <option key={value} value={String(value)}>
                {formatNumber(value, language, 1)} A
              </option>
            ))}
          </select>
        </Field>
        <PercentField label={t("config.dryRun")} name="dryRunThreshold" value={dryRun} onChange={setDryRun} />
        <PercentField
          label={t("config.overCurrent")}
          name="overCurrentThreshold"
          value={overCurrent}
          onChange={setOverCurrent}
        />
        {/* Voltage limits: an emptied field puts back the default for this kind of motor; nothing derives from them. */}
        {VOLTAGE_FIELDS.filter((name) => kind === "3phase" || name !== "voltageUnbalance").map((name) => (
          <Field key={name} label={t(`config.${name}`)}>
            <input name={name} inputMode="decimal" defaultValue={typed?.[name] ?? String(initial[name])} />
            <small className="muted">{t("config.range", rangeOf(kind, name))}</small>
          </Field>
        ))}
        <dl className="readings small">
          <div>
            <dt>{t("config.tolerance")}</dt>
            <dd data-testid="tolerance">{tolerance} A</dd>
          </div>
          <div>
            <dt>{t("config.horsePower")}</dt>
            <dd data-testid="horsepower">{oneDecimal(horsePowerFor(amperes, kind), language)} HP</dd>
          </div>
        </dl>
        <button type="submit" className="button primary" disabled={saving}>
          {t("config.update")}
        </button>
      </fetcher.Form>
    </section>
  );
}

/** A threshold in percent of the running current, kept by the card as typed (the readings below follow it). */
function PercentField({
  label,
  name,
  value,
  onChange,
}: {
  label: string;
  name: "dryRunThreshold" | "overCurrentThreshold";
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label}>
      <input
        name={name}
        inputMode="decimal"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        required
      />
    </Field>
  );
}
