// The two schedule forms: a clock schedule's, and a power window's ("run when power comes").
import { useState } from "react";
import type { ScheduleView } from "../../../common/schedule-view.ts";
import { ClockSelects } from "../../components/clock-selects.tsx";
import { Field } from "../../components/field.tsx";
import { useT } from "../../i18n/i18n.ts";
import { type FormValues, minuteChoices, type Notice, type WindowValues } from "./form-values.ts";
import { RepeatChoice, SaveScheduleForm } from "./save-schedule-form.tsx";

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
export function ScheduleForm({ initial, editing, hasDevice, notice, pump }: FormProps<FormValues>) {
  const t = useT();
  const [form, setForm] = useState<FormValues>(initial);
  const change = (changes: Partial<FormValues>) => setForm((current) => ({ ...current, ...changes }));
  return (
    <SaveScheduleForm kind="clock" editing={editing} hasDevice={hasDevice} pump={pump} notice={notice}>
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
            {minuteChoices(form.duration).map((minutes) => (
              <option key={minutes} value={String(minutes)}>
                {t("schedule.duration.minutes", { minutes })}
              </option>
            ))}
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
export function WindowForm({ initial, editing, hasDevice, notice, pump }: FormProps<WindowValues>) {
  const t = useT();
  const [form, setForm] = useState<WindowValues>(initial);
  const change = (changes: Partial<WindowValues>) => setForm((current) => ({ ...current, ...changes }));
  return (
    <SaveScheduleForm kind="window" editing={editing} hasDevice={hasDevice} pump={pump} notice={notice}>
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
          {minuteChoices(form.runMinutes).map((minutes) => (
            <option key={minutes} value={String(minutes)}>
              {t("schedule.duration.minutes", { minutes })}
            </option>
          ))}
        </select>
      </Field>
      <RepeatChoice repeat={form.repeat} days={form.days} onChange={(repeat, days) => change({ repeat, days })} />
      <label className="check-line">
        <input
          type="checkbox"
          name="randomDelay"
          checked={form.randomDelay}
          onChange={(event) => change({ randomDelay: event.target.checked })}
        />
        <span>{t("window.randomDelay")}</span>
      </label>
      <label className="check-line">
        <input
          type="checkbox"
          name="resume"
          checked={form.resume}
          onChange={(event) => change({ resume: event.target.checked })}
        />
        <span>{t("window.resume")}</span>
      </label>
      <div className="message warning" role="note">
        <p>{t("window.warning")}</p>
        <label className="check-line">
          <input
            type="checkbox"
            name="autoStart"
            checked={form.autoStart}
            onChange={(event) => change({ autoStart: event.target.checked })}
            data-testid="window-auto-start"
          />
          <strong>{t("window.autoStart")}</strong>
        </label>
      </div>
    </SaveScheduleForm>
  );
}
