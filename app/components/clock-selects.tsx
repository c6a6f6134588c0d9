// A time of day as three selects (hour, minute, AM/PM): the spec's h:mm a with nothing a farmer
// can clear by mistake and no clock popup. `name` prefixes the fields ("" gives hour, minute,
// meridiem; "from" gives fromHour...), so one form can hold two times.
import { dayPeriodName } from "../format.ts";
import { useLanguage, useT } from "../i18n/i18n.ts";

export type ClockValue = { hour: string; minute: string; meridiem: "AM" | "PM" };

const HOURS = Array.from({ length: 12 }, (_, index) => index + 1);
const MINUTES = Array.from({ length: 60 }, (_, index) => index);

/** The form field of a part: "hour", or "fromHour" with a prefix. */
export function clockField(name: string, part: keyof ClockValue): string {
  return name === "" ? part : `${name}${part[0]!.toUpperCase()}${part.slice(1)}`;
}

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
              {hour}
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
        <select
          name={clockField(name, "meridiem")}
          aria-label={`${legend}: ${t("schedule.meridiem")}`}
          value={value.meridiem}
          onChange={(event) => onChange({ ...value, meridiem: event.target.value === "PM" ? "PM" : "AM" })}
          data-testid={`${testId}-meridiem`}
        >
          <option value="AM">{dayPeriodName("AM", language)}</option>
          <option value="PM">{dayPeriodName("PM", language)}</option>
        </select>
      </div>
    </fieldset>
  );
}
