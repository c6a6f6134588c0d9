// The two schedule forms: a clock schedule's, and a power window's ("run when power comes").
import { type ReactNode, useState } from "react";
import type { ScheduleView } from "../../../common/schedule-view.ts";
import { ClockSelects } from "../../components/clock-selects.tsx";
import { Field } from "../../components/field.tsx";
import { useT } from "../../i18n/i18n.ts";
import { type FormValues, minuteChoices, type Notice, type WindowValues } from "./form-values.ts";
import { RepeatChoice, SaveScheduleForm } from "./save-schedule-form.tsx";

/** The run lengths a form offers, in minutes (with the one it holds). */
function MinuteOptions({ value }: { value: string }) {
  const t = useT();
  return minuteChoices(value).map((minutes) => (
    <option key={minutes} value={String(minutes)}>
      {t("schedule.duration.minutes", { minutes })}
    </option>
  ));
}

/** One of a power window's yes-or-no choices: a checkbox with its words beside it. */
function WindowCheck({
  name,
  form,
  change,
  testId,
  children,
}: {
  name: "randomDelay" | "resume" | "autoStart";
  form: WindowValues;
  change: (changes: Partial<WindowValues>) => void;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <label className="check-line">
      <input
        type="checkbox"
        name={name}
        checked={form[name]}
        onChange={(event) => change({ [name]: event.target.checked })}
        data-testid={testId}
      />
      {children}
    </label>
  );
}

/** A form's fields as the farmer picks them, and how a pick changes some of them. */
function useFields<Values>(initial: Values) {
  const [form, setForm] = useState<Values>(initial);
  const change = (changes: Partial<Values>) => setForm((current) => ({ ...current, ...changes }));
  return [form, change] as const;
}

type FormProps<Values> = {
  /** The fields as the page starts them; the browser keeps them while the farmer picks. */
  initial: Values;
  editing: ScheduleView | null;
  hasDevice: boolean;
  /** The box the page shows: the post names it. */
  pump: string;
  notice: Notice | null;
};

/** The clock schedule's fields, reset by each new page. */
export function ScheduleForm({ initial, ...saving }: FormProps<FormValues>) {
  const t = useT();
  const [form, change] = useFields(initial);
  return (
    <SaveScheduleForm kind="clock" {...saving}>
      <ClockSelects
        name=""
        legend={t("schedule.time")}
        value={form}
        onChange={(clock) => change(clock)}
        testId="schedule"
      />
      <Field label={t("schedule.action")}>
        <select
          name="action"
          value={form.action}
          onChange={(event) => change({ action: event.target.value === "OFF" ? "OFF" : "ON" })}
        >
          <option value="ON">{t("schedule.action.on")}</option>
          <option value="OFF">{t("schedule.action.off")}</option>
        </select>
      </Field>
      {/* Without script this stays on the page for OFF too; the server ignores it for OFF. */}
      {form.action === "ON" && (
        <Field label={t("schedule.duration")}>
          <select name="duration" value={form.duration} onChange={(event) => change({ duration: event.target.value })}>
            <option value="">{t("schedule.duration.none")}</option>
            <MinuteOptions value={form.duration} />
          </select>
        </Field>
      )}
      <RepeatChoice repeat={form.repeat} days={form.days} onChange={(repeat, days) => change({ repeat, days })} />
    </SaveScheduleForm>
  );
}

/**
 * "Run N minutes as soon as power comes between two times": a plain form of its own, with the
 * warning and the farmer's explicit consent that the motor starts by itself.
 */
export function WindowForm({ initial, ...saving }: FormProps<WindowValues>) {
  const t = useT();
  const [form, change] = useFields(initial);
  return (
    <SaveScheduleForm kind="window" {...saving}>
      <div className="window-times">
        <ClockSelects
          name="from"
          legend={t("window.from")}
          value={form.from}
          onChange={(from) => change({ from })}
          testId="window-from"
        />
        <ClockSelects
          name="to"
          legend={t("window.to")}
          value={form.to}
          onChange={(to) => change({ to })}
          testId="window-to"
        />
      </div>
      <Field label={t("window.runFor")}>
        <select
          name="runMinutes"
          value={form.runMinutes}
          onChange={(event) => change({ runMinutes: event.target.value })}
          data-testid="window-run-minutes"
        >
          <MinuteOptions value={form.runMinutes} />
        </select>
      </Field>
      <RepeatChoice repeat={form.repeat} days={form.days} onChange={(repeat, days) => change({ repeat, days })} />
      <WindowCheck name="randomDelay" form={form} change={change}>
        <span>{t("window.randomDelay")}</span>
      </WindowCheck>
      <WindowCheck name="resume" form={form} change={change}>
        <span>{t("window.resume")}</span>
      </WindowCheck>
      <div className="message warning" role="note">
        <p>{t("window.warning")}</p>
        <WindowCheck name="autoStart" form={form} change={change} testId="window-auto-start">
          <strong>{t("window.autoStart")}</strong>
        </WindowCheck>
      </div>
    </SaveScheduleForm>
  );
}
