// A time of day as two selects: the hour, named as the reader says it ("सुबह 6", "शाम 7"; "6 am"
// in English), and the minute. Nothing a farmer can clear by mistake, no clock popup, and no
// "am"/"pm" on a Hindi page. `name` prefixes the fields ("" gives hour and minute; "from" gives
// fromHour and fromMinute), so one form can hold two times. The hour is 0–23.
import { formatHourOfDay } from "../../common/i18n/format.ts";
import { useLanguage, useT } from "../i18n/i18n.ts";
import { type ClockValue, clockField } from "./clock-field.ts";

const HOURS = Array.from({ length: 24 }, (_, index) => index);
const MINUTES = Array.from({ length: 60 }, (_, index) => index);

export function ClockSelects({
  name,
  legend,
  value,
  onChange,
  testId,
}: {
  name: string;
  legend: string;
  value: ClockValue;
  onChange: (value: ClockValue) => void;
  testId: string;
}) {
  const t = useT();
  const language = useLanguage();
  return (
    <fieldset className="time-fieldset">
      <legend>{legend}</legend>
      <div className="time-selects">
        <select
          name={clockField(name, "hour")}
          aria-label={`${legend}: ${t("schedule.hour")}`}
          value={value.hour}
          onChange={(event) => onChange({ ...value, hour: event.target.value })}
          data-testid={`${testId}-hour`}
        >
          <option value="" disabled>
            --
          </option>
          {HOURS.map((hour) => (
            <option key={hour} value={String(hour)}>
              {formatHourOfDay(hour, language)}
            </option>
          ))}
        </select>
        <span aria-hidden="true">:</span>
        <select
          name={clockField(name, "minute")}
          aria-label={`${legend}: ${t("schedule.minute")}`}
          value={value.minute}
          onChange={(event) => onChange({ ...value, minute: event.target.value })}
          data-testid={`${testId}-minute`}
        >
          <option value="" disabled>
            --
          </option>
          {MINUTES.map((minute) => (
            <option key={minute} value={String(minute)}>
              {String(minute).padStart(2, "0")}
            </option>
          ))}
        </select>
      </div>
    </fieldset>
  );
}
