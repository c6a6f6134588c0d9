// What both schedule forms share: the post with its hidden fields, the refusal, Save and Cancel;
// and the choice of daily, weekly days or once.
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { formatTimeOfDay } from "../../../common/i18n/format.ts";
import type { Weekday } from "../../../common/schedule-time.ts";
import type { ScheduleRepeat, ScheduleView } from "../../../common/schedule-view.ts";
import { Field } from "../../components/field.tsx";
import { WeekdayChoices } from "../../components/weekday-choices.tsx";
import { useLanguage, useT } from "../../i18n/i18n.ts";
import { type Notice, repeatOf } from "./form-values.ts";

/**
 * What both schedule forms share: a plain post naming the pump, the kind and the schedule
 * edited; a refusal; Save (the same word on both forms; "save changes" when editing) and
 * Cancel, which closes the form.
 */
export function SaveScheduleForm({
  kind,
  editing,
  hasDevice,
  pump,
  notice,
  children,
}: {
  kind: "clock" | "window";
  editing: ScheduleView | null;
  hasDevice: boolean;
  /** The box the page shows: the post names it. */
  pump: string;
  notice: Notice | null;
  children: ReactNode;
}) {
  const t = useT();
  const language = useLanguage();
  const navigation = useNavigation();
  const saving =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "save" &&
    navigation.formData?.get("kind") === kind;
  const testId = kind === "clock" ? "schedule" : "window";
  return (
    <Form
      method="post"
      action={editing ? `/motor-schedule?edit=${editing.id}` : `/motor-schedule?add=${kind}`}
      className="stack"
      noValidate
      data-testid={`${testId}-form`}
    >
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="pump" value={pump} />
      {editing && <input type="hidden" name="id" value={editing.id} />}
      {children}
      {/* The last answer goes while a new post is under way, so no one reads it as the new one's. */}
      {notice && navigation.state === "idle" && (
        <p className="message error" role="alert" data-testid={`${testId}-notice`}>
          {t(notice.key, {
            ...notice.values,
            ...(notice.minuteOfDay === undefined ? {} : { time: formatTimeOfDay(notice.minuteOfDay, language) }),
          })}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={saving || !hasDevice}>
          {saving ? t("schedule.saving") : editing === null ? t("schedule.save") : t("schedule.update")}
        </button>
        <Link to="/motor-schedule" className="button" data-testid={`${testId}-cancel`}>
          {t("dialog.cancel")}
        </Link>
      </div>
    </Form>
  );
}

/**
 * Daily, on chosen days, or once. The days hide by CSS while "daily" or "once" is chosen, so a
 * page without script (or a browser without :has) still offers them.
 */
export function RepeatChoice({
  repeat,
  days,
  onChange,
}: {
  repeat: ScheduleRepeat;
  days: Weekday[];
  onChange: (repeat: ScheduleRepeat, days: Weekday[]) => void;
}) {
  const t = useT();
  return (
    <div className="repeat-choice stack">
      <Field label={t("schedule.repeat")}>
        <select name="repeat" value={repeat} onChange={(event) => onChange(repeatOf(event.target.value), days)}>
          <option value="daily">{t("schedule.repeat.daily")}</option>
          <option value="weekly">{t("schedule.repeat.weekly")}</option>
          <option value="once">{t("schedule.repeat.once")}</option>
        </select>
      </Field>
      <WeekdayChoices chosen={days} onChange={(chosen) => onChange(repeat, chosen)} />
    </div>
  );
}
