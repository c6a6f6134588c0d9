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
        <ClockPart
          part="hour"
          choices={HOURS}
          label={`${legend}: ${t("schedule.hour")}`}
          shown={(hour) => formatHourOfDay(hour, language)}
          name={name}
          value={value}
          onChange={onChange}
          testId={testId}
        />
        <span aria-hidden="true">:</span>
        <ClockPart
          part="minute"
          choices={MINUTES}
          label={`${legend}: ${t("schedule.minute")}`}
          shown={(minute) => String(minute).padStart(2, "0")}
          name={name}
          value={value}
          onChange={onChange}
          testId={testId}
        />
      </div>
    </fieldset>
  );
}

/** The hour's or the minute's select, empty ("--") until one is chosen. */
function ClockPart({
  part,
  choices,
  label,
  shown,
  name,
  value,
  onChange,
  testId,
}: {
  part: "hour" | "minute";
  choices: readonly number[];
  label: string;
  shown: (choice: number) => string;
  name: string;
  value: ClockValue;
  onChange: (value: ClockValue) => void;
  testId: string;
}) {
  return (
    <select
      name={clockField(name, part)}
      aria-label={label}
      value={value[part]}
      onChange={(event) => onChange({ ...value, [part]: event.target.value })}
      data-testid={`${testId}-${part}`}
    >
      <option value="" disabled>
        --
      </option>
      {choices.map((choice) => (
        <option key={choice} value={String(choice)}>
          {shown(choice)}
        </option>
      ))}
    </select>
  );
}
