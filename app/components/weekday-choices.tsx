// A weekly schedule's days: one checkbox per weekday, all named `days`, so a plain form post
// carries the chosen ones ("mon", "thu"...).

import { weekdayName } from "../../common/i18n/format.ts";
import { WEEKDAYS, type Weekday } from "../../common/schedule-time.ts";
import { useLanguage, useT } from "../i18n/i18n.ts";

export function WeekdayChoices({ chosen, onChange }: { chosen: Weekday[]; onChange: (days: Weekday[]) => void }) {
  const t = useT();
  const language = useLanguage();
  return (
    <fieldset className="weekday-choices" data-testid="weekday-choices">
      <legend>{t("schedule.days")}</legend>
      {WEEKDAYS.map((day, index) => (
        <label key={day} className="weekday-choice">
          <input
            type="checkbox"
            name="days"
            value={day}
            checked={chosen.includes(day)}
            onChange={(event) =>
              onChange(event.target.checked ? [...chosen, day] : chosen.filter((other) => other !== day))
            }
          />
          <span>{weekdayName(index, language)}</span>
        </label>
      ))}
    </fieldset>
  );
}
