// The commissioning steps of a box in the installer's hands, each a plain form to the page's action.
import { Form } from "react-router";
import { formatVoltages } from "../../../common/i18n/format.ts";
import { Field } from "../../components/field.tsx";
import { type MessageKey, useLanguage, useT } from "../../i18n/i18n.ts";
import type { Commissioning } from "./commissioning-state.ts";

/**
 * Commissioning, guided step by step, each confirmed by the box: the supply on every phase, a
 * test run that measures the running current past the start-up surge and stops, the settings
 * suggested from it (accepted or edited, with the feeder), the stop the box confirmed; then,
 * once settings are set (`commissioned`), the dry-run check the installer may choose.
 */
export function CommissioningSteps({
  deviceId,
  state,
  commissioned,
  busy,
}: {
  deviceId: string;
  state: Commissioning | undefined;
  commissioned: boolean;
  busy: boolean;
}) {
  const t = useT();
  const language = useLanguage();
  const step = state?.deviceId === deviceId ? state : undefined;
  return (
    <section className="card stack" aria-labelledby="commission-title" data-testid="commissioning">
      <h2 id="commission-title">{t("commission.title", { deviceId })}</h2>
      <h3>{t("commission.supplyStep")}</h3>
      {step?.step === "supply" && (
        <p className={`message ${step.everyPhase ? "success" : "error"}`} role="status" data-testid="commission-supply">
          {t(step.everyPhase ? "commission.supplyOk" : "commission.supplyMissing", {
            voltages: formatVoltages(step.voltages, language),
          })}
        </p>
      )}
      <BoxActionForm
        deviceId={deviceId}
        intent="supply"
        busy={busy}
        label="commission.checkSupply"
        testId="commission-check-supply"
      />
      <h3>{t("commission.testStep")}</h3>
      <p className="muted">{t("commission.testHelp")}</p>
      <BoxActionForm
        deviceId={deviceId}
        intent="testRun"
        busy={busy}
        label="commission.runTest"
        testId="commission-test-run"
      />
      {step?.step === "testRun" && (
        <>
          <p className="message success" role="status" data-testid="commission-measured">
            {t("commission.measured", {
              current: step.measured.runningCurrent,
              surge: step.measured.surgeCurrent,
              voltages: formatVoltages(step.measured.voltages, language),
            })}
          </p>
          <p data-testid="commission-stopped">{t("commission.stopped")}</p>
          <h3>{t("commission.settingsStep")}</h3>
          <Form method="post" className="stack" noValidate data-testid="commission-settings">
            <input type="hidden" name="intent" value="commission" />
            <input type="hidden" name="deviceId" value={deviceId} />
            <Field label={t("commission.ratedCurrent")}>
              <input
                name="defaultCurrent"
                inputMode="decimal"
                defaultValue={step.suggested.defaultCurrent}
                data-testid="commission-current"
              />
            </Field>
            <p className="muted">{t("commission.horsePower", { horsePower: step.suggested.horsePower })}</p>
            <Field label={t("commission.dryRun")}>
              <input name="dryRunThreshold" inputMode="decimal" defaultValue={step.suggested.dryRunThreshold} />
            </Field>
            <Field label={t("commission.overCurrent")}>
              <input
                name="overCurrentThreshold"
                inputMode="decimal"
                defaultValue={step.suggested.overCurrentThreshold}
              />
            </Field>
            <Field label={t("commission.feeder")}>
              <input name="feeder" maxLength={40} data-testid="commission-feeder" />
            </Field>
            <button type="submit" className="button primary" disabled={busy} data-testid="commission-save">
              {t("commission.save")}
            </button>
          </Form>
        </>
      )}
      {step?.step === "done" && (
        <p className="message success" role="status" data-testid="commission-done">
          {t("commission.done", {
            current: step.set.defaultCurrent,
            dryRun: step.set.dryRunThreshold,
            overCurrent: step.set.overCurrentThreshold,
          })}
        </p>
      )}
      {(commissioned || step?.step === "done" || step?.step === "dryRunCheck") && (
        <>
          <h3>{t("commission.dryRunStep")}</h3>
          <p className="muted">{t("commission.dryRunHelp")}</p>
          {step?.step === "dryRunCheck" && (
            <p
              className={`message ${step.check.tripped ? "success" : "warning"}`}
              role="status"
              data-testid="commission-dry-run"
            >
              {t(step.check.tripped ? "commission.dryRunTripped" : "commission.dryRunNotTripped", {
                current: step.check.current,
                tripBelow: step.check.tripBelow,
                seconds: step.check.ranSeconds,
              })}
            </p>
          )}
          <BoxActionForm
            deviceId={deviceId}
            intent="dryRunCheck"
            busy={busy}
            label="commission.runDryRunCheck"
            testId="commission-dry-run-check"
          />
        </>
      )}
    </section>
  );
}

/**
 * One step for the box in one button, a plain form to the page's action with the box's id; `help`
 * says above the button what it does.
 */
export function BoxActionForm({
  deviceId,
  intent,
  busy,
  label,
  testId,
  help,
}: {
  deviceId: string;
  intent: string;
  busy: boolean;
  label: MessageKey;
  testId: string;
  help?: MessageKey;
}) {
  const t = useT();
  return (
    <Form method="post" className={help && "stack"}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="deviceId" value={deviceId} />
      {help && <span className="muted">{t(help)}</span>}
      <button type="submit" className="button" disabled={busy} data-testid={testId}>
        {t(label)}
      </button>
    </Form>
  );
}
