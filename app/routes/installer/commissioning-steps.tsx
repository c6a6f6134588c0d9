// The commissioning steps of a box in the installer's hands, each a plain form to the page's action.
import { Form } from "react-router";
import { formatVoltages } from "../../../common/i18n/format.ts";
import { Field } from "../../components/field.tsx";
import { useLanguage, useT } from "../../i18n/i18n.ts";
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
      <Form method="post">
        <input type="hidden" name="intent" value="supply" />
        <input type="hidden" name="deviceId" value={deviceId} />
        <button type="submit" className="button" disabled={busy} data-testid="commission-check-supply">
          {t("commission.checkSupply")}
        </button>
      </Form>
      <h3>{t("commission.testStep")}</h3>
      <p className="muted">{t("commission.testHelp")}</p>
      <Form method="post">
        <input type="hidden" name="intent" value="testRun" />
        <input type="hidden" name="deviceId" value={deviceId} />
        <button type="submit" className="button" disabled={busy} data-testid="commission-test-run">
          {t("commission.runTest")}
        </button>
      </Form>
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
          <Form method="post">
            <input type="hidden" name="intent" value="dryRunCheck" />
            <input type="hidden" name="deviceId" value={deviceId} />
            <button type="submit" className="button" disabled={busy} data-testid="commission-dry-run-check">
              {t("commission.runDryRunCheck")}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
