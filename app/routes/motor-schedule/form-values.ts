// The schedule forms' values, both ways: a posted form read into what the farmer chose (kept
// for a refused post) and into the body the API's schema checks; a saved schedule back into
// the form's fields; and a refusal into its words' key. Pure: no React, no server.

import type { MessageKey } from "../../../common/i18n/catalogue.ts";
import type { Weekday } from "../../../common/schedule-time.ts";
import { SCHEDULE_DURATION_CHOICES, type ScheduleRepeat, type ScheduleView } from "../../../common/schedule-view.ts";
import { type ClockValue, clockField } from "../../components/clock-field.ts";
import { field } from "../../form-field.ts";

export type FormValues = ClockValue & {
  action: "ON" | "OFF";
  repeat: ScheduleRepeat;
  days: Weekday[];
  /** Minutes as text; "" means it is not switched off by the schedule. */
  duration: string;
};

export type WindowValues = {
  from: ClockValue;
  to: ClockValue;
  runMinutes: string;
  repeat: ScheduleRepeat;
  days: Weekday[];
  randomDelay: boolean;
  resume: boolean;
  /** The farmer ticked that the motor may start by itself; never kept after a save. */
  autoStart: boolean;
};

/** A refusal's words; `minuteOfDay` (a conflict's) is written as the page writes times. */
export type Notice = { key: MessageKey; values?: Record<string, string>; minuteOfDay?: number };

/**
 * SPEC §9 schedule defaults (10:00 AM, ON, daily), and a new ON switches off again after an
 * hour: a motor nobody remembered must not run all night.
 */
export const DEFAULT_FORM: FormValues = {
  hour: "10",
  minute: "0",
  action: "ON",
  repeat: "daily",
  days: [],
  duration: "60",
};

/** A power window's defaults: a night's rationed three-phase supply, two hours to run. */
export const DEFAULT_WINDOW: WindowValues = {
  from: { hour: "22", minute: "0" },
  to: { hour: "6", minute: "0" },
  runMinutes: "120",
  repeat: "daily",
  days: [],
  randomDelay: true,
  resume: false,
  autoStart: false,
};

export const repeatOf = (text: string): ScheduleRepeat =>
  text === "once" ? "once" : text === "weekly" ? "weekly" : "daily";

const daysOf = (form: FormData): Weekday[] =>
  form
    .getAll("days")
    .filter((day): day is Weekday => typeof day === "string" && /^(sun|mon|tue|wed|thu|fri|sat)$/.test(day));

function clockValue(form: FormData, name: string): ClockValue {
  return { hour: field(form, clockField(name, "hour")), minute: field(form, clockField(name, "minute")) };
}

/** The API's 24-hour time ("22:30"); anything else the selects could not send fails its schema. */
const clockText = (value: ClockValue) => `${value.hour}:${value.minute.padStart(2, "0")}`;

function clockOf(minuteOfDay: number): ClockValue {
  return { hour: String(Math.floor(minuteOfDay / 60)), minute: String(minuteOfDay % 60) };
}

/** A clock schedule's form as posted. */
export function formValues(form: FormData): FormValues {
  return {
    ...clockValue(form, ""),
    action: field(form, "action") === "OFF" ? "OFF" : "ON",
    repeat: repeatOf(field(form, "repeat")),
    days: daysOf(form),
    duration: field(form, "duration"),
  };
}

/** A power window's form as posted. */
export function windowValues(form: FormData): WindowValues {
  return {
    from: clockValue(form, "from"),
    to: clockValue(form, "to"),
    runMinutes: field(form, "runMinutes"),
    repeat: repeatOf(field(form, "repeat")),
    days: daysOf(form),
    randomDelay: field(form, "randomDelay") === "on",
    resume: field(form, "resume") === "on",
    autoStart: field(form, "autoStart") === "on",
  };
}

/** A saved clock schedule as its form's fields. */
export function valuesOf(schedule: ScheduleView): FormValues {
  return {
    ...clockOf(schedule.minuteOfDay),
    action: schedule.action,
    repeat: schedule.repeat,
    days: schedule.days ?? [],
    duration: schedule.durationMinutes === null ? "" : String(schedule.durationMinutes),
  };
}

/** A saved power window as its form's fields. */
export function windowValuesOf(schedule: ScheduleView): WindowValues {
  return {
    from: clockOf(schedule.minuteOfDay),
    to: clockOf(schedule.window?.endMinuteOfDay ?? 0),
    runMinutes: String(schedule.durationMinutes ?? ""),
    repeat: schedule.repeat,
    days: schedule.days ?? [],
    randomDelay: schedule.window?.randomDelay ?? true,
    resume: schedule.window?.resume ?? false,
    // Asked again on every change: the farmer confirms what they now save.
    autoStart: false,
  };
}

/**
 * A save's post read: what the farmer chose (sent back with a refusal) and the body for the
 * API's schema (common/schedule-schemas.ts), or the refusal a clock form without its time gets.
 */
export function readScheduleForm(
  form: FormData,
): { values: FormValues | null; windowValues: WindowValues | null } & ({ body: unknown } | { notice: Notice }) {
  if (field(form, "kind") === "window") {
    const window = windowValues(form);
    return {
      values: null,
      windowValues: window,
      body: {
        type: "window",
        from: clockText(window.from),
        to: clockText(window.to),
        runMinutes: Number(window.runMinutes),
        repeat: window.repeat,
        days: window.repeat === "weekly" ? window.days : undefined,
        randomDelay: window.randomDelay,
        resume: window.resume,
        autoStart: window.autoStart,
      },
    };
  }
  const values = formValues(form);
  if (values.hour === "" || values.minute === "")
    return { values, windowValues: null, notice: { key: "schedule.setTime" } };
  return {
    values,
    windowValues: null,
    body: {
      time: clockText(values),
      action: values.action,
      repeat: values.repeat,
      days: values.repeat === "weekly" ? values.days : undefined,
      durationMinutes: values.action === "ON" && values.duration !== "" ? Number(values.duration) : null,
    },
  };
}

/** What the form says when the API's schema refused its body: the first field it names. */
export function schemaRefusal(isWindow: boolean, issues: readonly { path: readonly PropertyKey[] }[]): Notice {
  const path = String(issues[0]?.path[0] ?? "");
  if (path === "days") return { key: "schedule.pickDays" };
  if (!isWindow) return { key: "schedule.failed" };
  if (path === "autoStart") return { key: "window.confirmAutoStart" };
  if (path === "runMinutes") return { key: "window.doesNotFit" };
  if (path === "to") return { key: "window.sameTimes" };
  return { key: "schedule.failed" };
}

/** What the form says when the server refused, from its code (SPEC §8 generic failure otherwise). */
export function failureNotice(refusal: { code: string; params: Readonly<Record<string, unknown>> }): Notice {
  const { minuteOfDay } = refusal.params;
  switch (refusal.code) {
    case "noDevice":
      return { key: "motor.noDevice" };
    case "notAllowed":
      return { key: "pumps.viewerNote" };
    case "conflict":
      return { key: "schedule.conflict", ...(typeof minuteOfDay === "number" ? { minuteOfDay } : {}) };
    case "limit":
      return { key: "schedule.limit" };
    default:
      return { key: "schedule.failed" };
  }
}

/** "ON for N minutes" and "run for N minutes" offer these, and a value saved outside them. */
export function minuteChoices(value: string): readonly number[] {
  const minutes = Number(value);
  return value === "" || SCHEDULE_DURATION_CHOICES.includes(minutes as (typeof SCHEDULE_DURATION_CHOICES)[number])
    ? SCHEDULE_DURATION_CHOICES
    : [...SCHEDULE_DURATION_CHOICES, minutes].sort((a, b) => a - b);
}
