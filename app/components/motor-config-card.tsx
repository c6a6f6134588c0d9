// Motor Configuration (SPEC §2, §5, §9): the running current picked from 1 to 40 A, the two
// thresholds and the voltage limits (empty: the motor kind's default; unbalance on 3-phase
// only; each with its kind's range beside it) as free numbers (the server checks their
// ranges), tolerance and horsepower shown as they change, and a confirmation before saving. A
// plain form posted to the dashboard's action first (no script: it saves at once and the page
// comes back saying so); with script, the confirmation dialog, then the same post through a
// fetcher. A change that weakens protection comes back as a confirm step listing old → new
// (docs/decisions/025-weaker-protection-asks-first.md): its own small form, which posts the
// same values again with the confirmation, with script or without.
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { MotorConfig } from "../../common/api-schemas.ts";
import type { DeviceKind } from "../../common/device-protocol.ts";
import { horsePowerFor, toleranceAmperes, VOLTAGE_LIMIT_RANGES, type VoltageLimits } from "../../common/protection.ts";
import type { ProtectionSetting, WeakenedSetting } from "../../common/protection-changes.ts";
import { formatNumber } from "../format.ts";
import { type Language, localeOf, type MessageKey, useLanguage, useT } from "../i18n/i18n.ts";
import { ConfirmDialog } from "./dialog.tsx";
import { Field } from "./field.tsx";
import { useToast } from "./toast.tsx";

const VOLTAGE_FIELDS = ["underVoltage", "overVoltage", "voltageUnbalance"] as const;

/** The words of each setting that can weaken protection: the form's own labels. */
const SETTING_LABELS: Record<ProtectionSetting, MessageKey> = {
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
 * that weakens protection is not refused but held: `weakerProtection` lists what it weakens,
 * for the farmer to confirm.
 */
export type ConfigOutcome =
  | { ok: true; deliveredToDevice: boolean }
  | { ok: false; code: "invalidInput" | "voltageLimitOutOfRange"; field: string; values: TypedConfig }
  | { ok: false; code: "weakerProtection"; weakened: WeakenedSetting[]; values: TypedConfig };

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
  const formRef = useRef<HTMLFormElement>(null);
  // A refused post without script comes back with what was typed, to correct it.
  const typed = posted && !posted.ok ? posted.values : null;
  const [current, setCurrent] = useState(typed?.defaultCurrent ?? String(initial.defaultCurrent));
  const [dryRun, setDryRun] = useState(typed?.dryRunThreshold ?? String(initial.dryRunThreshold));
  const [overCurrent, setOverCurrent] = useState(typed?.overCurrentThreshold ?? String(initial.overCurrentThreshold));

  const [confirming, setConfirming] = useState(false);
  /** The weakening the farmer said no to (with script): its confirm step goes away. */
  const [dismissed, setDismissed] = useState<ConfigOutcome | null>(null);
  const saving = fetcher.state !== "idle";
  const answered = fetcher.data?.config ?? posted;
  const weaker =
    answered && !answered.ok && answered.code === "weakerProtection" && answered !== dismissed ? answered : null;

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
    setConfirming(false);
    if (outcome.ok) toast.show(t("config.saved"), "success");
    else if (outcome.code !== "weakerProtection") toast.show(failureText(t), "error");
    // One toast per answer.
  }, [fetcher.data, fetcher.state]);

  return (
    <section className="card" aria-labelledby="config-title">
      <h2 id="config-title">{t("config.title")}</h2>
      {posted && (posted.ok || posted.code !== "weakerProtection") && (
        <p
          className={`message ${posted.ok ? "success" : "error"}`}
          role={posted.ok ? "status" : "alert"}
          data-testid="config-result"
        >
          {posted.ok ? t("config.saved") : failureText(t)}
        </p>
      )}
      {weaker && (
        <section className="message warning" role="alert" data-testid="config-weaker">
          <p>
            <strong>{t("config.weakerTitle")}</strong>
          </p>
          <ul>
            {weaker.weakened.map(({ setting, from, to }) => (
              <li key={setting}>
                {t(SETTING_LABELS[setting])}: {formatNumber(from, language)} → {formatNumber(to, language)}
              </li>
            ))}
          </ul>
          <p>{t("config.weakerQuestion")}</p>
          <fetcher.Form method="post" action="/motor-control" className="button-row">
            <input type="hidden" name="intent" value="config" />
            <input type="hidden" name="pump" value={pump} />
            <input type="hidden" name="confirmWeakerProtection" value="true" />
            {Object.entries(weaker.values).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <button type="submit" className="button danger" disabled={saving}>
              {saving ? t("config.saving") : t("config.weakerSave")}
            </button>
            {/* Without script a plain link back; with it, the step just closes. */}
            <a
              href="/motor-control"
              className="button"
              onClick={(event) => {
                event.preventDefault();
                setDismissed(weaker);
              }}
            >
              {t("dialog.cancel")}
            </a>
          </fetcher.Form>
        </section>
      )}
      <fetcher.Form
        method="post"
        action="/motor-control"
        // The server's answer, in the page's language, rather than the browser's English bubble.
        noValidate
        className="config-form"
        ref={formRef}
        onSubmit={(event) => {
          // With script the farmer confirms first; the dialog then submits this form.
          event.preventDefault();
          setConfirming(true);
        }}
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
        <Field label={t("config.dryRun")}>
          <input
            name="dryRunThreshold"
            inputMode="decimal"
            value={dryRun}
            onChange={(event) => setDryRun(event.target.value)}
            required
          />
        </Field>
        <Field label={t("config.overCurrent")}>
          <input
            name="overCurrentThreshold"
            inputMode="decimal"
            value={overCurrent}
            onChange={(event) => setOverCurrent(event.target.value)}
            required
          />
        </Field>
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
        <button type="submit" className="button primary">
          {t("config.update")}
        </button>
      </fetcher.Form>
      <ConfirmDialog
        open={confirming}
        title={t("config.title")}
        message={t("config.confirm")}
        confirmLabel={saving ? t("config.saving") : t("dialog.confirm")}
        cancelLabel={t("dialog.cancel")}
        onConfirm={() => fetcher.submit(formRef.current)}
        onCancel={() => setConfirming(false)}
        busy={saving}
      />
    </section>
  );
}
