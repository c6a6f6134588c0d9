// The schedule page's form values (app/routes/motor-schedule/form-values.ts): a posted form read
// into what the farmer chose and into the body the API's own schema checks, the refusal each bad
// field gets, a saved schedule back into the form's fields. Real forms as a browser without
// script posts them, through the real schema (common/schedule-schemas.ts).
import { describe, expect, it } from "vitest";
import {
  DEFAULT_FORM,
  DEFAULT_WINDOW,
  failureNotice,
  minuteChoices,
  type Notice,
  readScheduleForm,
  repeatOf,
  schemaRefusal,
  valuesOf,
  windowValuesOf,
} from "../../app/routes/motor-schedule/form-values.ts";
import { en } from "../../common/i18n/en.ts";
import { hi } from "../../common/i18n/hi.ts";
import { type ScheduleInput, scheduleRequestSchema } from "../../common/schedule-schemas.ts";
import { SCHEDULE_DURATION_CHOICES, type ScheduleView } from "../../common/schedule-view.ts";

/** A form as the page posts it: each pair one field, `days` as often as it is ticked. */
function form(fields: Record<string, string | string[]>): FormData {
  const posted = new FormData();
  for (const [name, value] of Object.entries(fields))
    for (const one of Array.isArray(value) ? value : [value]) posted.append(name, one);
  return posted;
}

const clockForm = (fields: Record<string, string | string[]> = {}) =>
  form({
    intent: "save",
    kind: "clock",
    hour: "6",
    minute: "30",
    action: "ON",
    repeat: "daily",
    duration: "60",
    ...fields,
  });

const windowForm = (fields: Record<string, string | string[]> = {}) =>
  form({
    intent: "save",
    kind: "window",
    fromHour: "22",
    fromMinute: "0",
    toHour: "6",
    toMinute: "0",
    runMinutes: "120",
    repeat: "daily",
    randomDelay: "on",
    autoStart: "on",
    ...fields,
  });

/** What the action does with a save: the form read, then the API's schema; the saved input or the form's refusal. */
function save(posted: FormData): { input: ScheduleInput } | { notice: Notice } {
  const read = readScheduleForm(posted);
  if ("notice" in read) return { notice: read.notice };
  const parsed = scheduleRequestSchema.safeParse(read.body);
  return parsed.success
    ? { input: parsed.data }
    : { notice: schemaRefusal(read.windowValues !== null, parsed.error.issues) };
}

const refusalOf = (posted: FormData) => {
  const result = save(posted);
  if (!("notice" in result)) throw new Error(`saved: ${JSON.stringify(result.input)}`);
  return result.notice.key;
};

const inputOf = (posted: FormData) => {
  const result = save(posted);
  if (!("input" in result)) throw new Error(`refused: ${result.notice.key}`);
  return result.input;
};

describe("a clock schedule's form", () => {
  it("saves the time, ON for its minutes, daily", () => {
    expect(inputOf(clockForm())).toEqual({
      kind: "clock",
      minuteOfDay: 6 * 60 + 30,
      action: "on",
      repeat: "daily",
      daysMask: null,
      durationMinutes: 60,
      windowEnd: null,
      randomDelay: false,
      resume: false,
    });
  });

  it("reads midnight and the day's last minute; 24 h and minute 60 are not times", () => {
    expect(inputOf(clockForm({ hour: "0", minute: "0" })).minuteOfDay).toBe(0);
    expect(inputOf(clockForm({ hour: "23", minute: "59" })).minuteOfDay).toBe(23 * 60 + 59);
    expect(inputOf(clockForm({ hour: "12", minute: "5" })).minuteOfDay).toBe(12 * 60 + 5);
    expect(refusalOf(clockForm({ hour: "24", minute: "0" }))).toBe("schedule.failed");
    expect(refusalOf(clockForm({ hour: "23", minute: "60" }))).toBe("schedule.failed");
    expect(refusalOf(clockForm({ hour: "-1" }))).toBe("schedule.failed");
    expect(refusalOf(clockForm({ hour: "six" }))).toBe("schedule.failed");
  });

  it("asks for the time when the hour or the minute is missing, keeping what was chosen", () => {
    for (const missing of [{ hour: "" }, { minute: "" }] as Record<string, string>[]) {
      const read = readScheduleForm(clockForm({ ...missing, repeat: "weekly", days: ["mon", "thu"] }));
      expect(read).toMatchObject({ notice: { key: "schedule.setTime" }, windowValues: null });
      expect(read.values).toMatchObject({ action: "ON", repeat: "weekly", days: ["mon", "thu"], duration: "60" });
    }
    const noTime = new FormData();
    noTime.set("kind", "clock");
    expect(refusalOf(noTime)).toBe("schedule.setTime");
  });

  it("runs ON for 1 to 720 minutes, or stays ON; nothing else", () => {
    expect(inputOf(clockForm({ duration: "1" })).durationMinutes).toBe(1);
    expect(inputOf(clockForm({ duration: "720" })).durationMinutes).toBe(720);
    expect(inputOf(clockForm({ duration: "" })).durationMinutes).toBeNull();
    for (const duration of ["0", "721", "-5", "1.5", "abc", "1e3"])
      expect(refusalOf(clockForm({ duration })), duration).toBe("schedule.failed");
  });

  it("switches OFF with no minutes, whatever minutes the page left in the form", () => {
    const input = inputOf(clockForm({ action: "OFF", duration: "abc" }));
    expect(input).toMatchObject({ action: "off", durationMinutes: null });
    // The choice comes back as it was, should the page show the form again.
    expect(readScheduleForm(clockForm({ action: "OFF", duration: "45" })).values?.duration).toBe("45");
  });

  it("reads any action but OFF as ON", () => {
    expect(readScheduleForm(clockForm({ action: "off" })).values?.action).toBe("ON");
    expect(readScheduleForm(clockForm({ action: "" })).values?.action).toBe("ON");
  });

  it("repeats daily, once or on the chosen days; weekly without days asks for them", () => {
    expect(inputOf(clockForm({ repeat: "once" })).repeat).toBe("once");
    expect(inputOf(clockForm({ repeat: "weekly", days: ["sun", "sat"] }))).toMatchObject({
      repeat: "weekly",
      daysMask: (1 << 0) | (1 << 6),
    });
    expect(refusalOf(clockForm({ repeat: "weekly" }))).toBe("schedule.pickDays");
    // A day named twice is refused; names that are no day are dropped before the schema.
    expect(refusalOf(clockForm({ repeat: "weekly", days: ["mon", "mon"] }))).toBe("schedule.pickDays");
    expect(refusalOf(clockForm({ repeat: "weekly", days: ["funday", "MON"] }))).toBe("schedule.pickDays");
    expect(readScheduleForm(clockForm({ repeat: "weekly", days: ["tue", "funday"] })).values?.days).toEqual(["tue"]);
    // Days ticked under "daily" (the boxes stay in a page without script) are not sent.
    expect(inputOf(clockForm({ repeat: "daily", days: ["mon"] })).daysMask).toBeNull();
    expect(repeatOf("monthly")).toBe("daily");
  });
});

describe("a power window's form", () => {
  it("saves the window across midnight, its run and its choices", () => {
    expect(inputOf(windowForm())).toEqual({
      kind: "window",
      minuteOfDay: 22 * 60,
      action: "on",
      repeat: "daily",
      daysMask: null,
      durationMinutes: 120,
      windowEnd: 6 * 60,
      randomDelay: true,
      resume: false,
    });
    const unticked = windowForm({ resume: "on" });
    unticked.delete("randomDelay");
    expect(inputOf(unticked)).toMatchObject({ randomDelay: false, resume: true });
  });

  it("is refused without the farmer's consent that the motor starts by itself", () => {
    const posted = windowForm();
    posted.delete("autoStart");
    expect(refusalOf(posted)).toBe("window.confirmAutoStart");
    expect(readScheduleForm(posted).windowValues?.autoStart).toBe(false);
  });

  it("runs at most the window's length, at least a minute", () => {
    // 22:00 to midnight: two hours.
    expect(inputOf(windowForm({ toHour: "0", runMinutes: "120" })).durationMinutes).toBe(120);
    expect(refusalOf(windowForm({ toHour: "0", runMinutes: "121" }))).toBe("window.doesNotFit");
    expect(inputOf(windowForm({ runMinutes: "1" })).durationMinutes).toBe(1);
    // 0:00 to 23:59, the longest window, still holds only 720 minutes of running.
    const allDay = { fromHour: "0", fromMinute: "0", toHour: "23", toMinute: "59" };
    expect(inputOf(windowForm({ ...allDay, runMinutes: "720" })).durationMinutes).toBe(720);
    for (const runMinutes of ["0", "721", "", "abc"])
      expect(refusalOf(windowForm({ ...allDay, runMinutes })), runMinutes).toBe("window.doesNotFit");
  });

  it("needs two different times", () => {
    expect(refusalOf(windowForm({ toHour: "22", toMinute: "0" }))).toBe("window.sameTimes");
    expect(refusalOf(windowForm({ fromHour: "24" }))).toBe("schedule.failed");
    expect(refusalOf(windowForm({ fromHour: "" }))).toBe("schedule.failed");
  });

  it("opens on the chosen days; weekly without days asks for them", () => {
    expect(inputOf(windowForm({ repeat: "weekly", days: ["fri"] })).daysMask).toBe(1 << 5);
    expect(refusalOf(windowForm({ repeat: "weekly" }))).toBe("schedule.pickDays");
  });
});

const savedClock: ScheduleView = {
  id: 7,
  kind: "clock",
  time: "12:00 AM",
  minuteOfDay: 0,
  action: "ON",
  repeat: "weekly",
  days: ["mon", "wed"],
  durationMinutes: 7,
  window: null,
  nextRunAt: null,
  activeRun: null,
  lastRun: null,
  createdAt: "2026-11-26T00:00:00.000Z",
};

describe("a saved schedule in its form", () => {
  it("gives the clock form its fields, which save the same schedule again", () => {
    const values = valuesOf(savedClock);
    expect(values).toEqual({
      hour: "0",
      minute: "0",
      action: "ON",
      repeat: "weekly",
      days: ["mon", "wed"],
      duration: "7",
    });
    expect(inputOf(clockForm({ ...values }))).toMatchObject({ minuteOfDay: 0, durationMinutes: 7, daysMask: 0b1010 });
    expect(valuesOf({ ...savedClock, minuteOfDay: 1439, durationMinutes: null }).duration).toBe("");
    expect(valuesOf({ ...savedClock, minuteOfDay: 1439 })).toMatchObject({ hour: "23", minute: "59" });
  });

  it("gives the window form its fields, and asks for the consent again", () => {
    const window: ScheduleView = {
      ...savedClock,
      kind: "window",
      minuteOfDay: 23 * 60 + 30,
      repeat: "daily",
      days: null,
      durationMinutes: 90,
      window: { endTime: "5:15 AM", endMinuteOfDay: 5 * 60 + 15, randomDelay: false, resume: true },
    };
    expect(windowValuesOf(window)).toEqual({
      from: { hour: "23", minute: "30" },
      to: { hour: "5", minute: "15" },
      runMinutes: "90",
      repeat: "daily",
      days: [],
      randomDelay: false,
      resume: true,
      autoStart: false,
    });
  });

  it("starts a new one at the spec's defaults", () => {
    expect(DEFAULT_FORM).toMatchObject({ hour: "10", minute: "0", action: "ON", repeat: "daily", duration: "60" });
    expect(DEFAULT_WINDOW).toMatchObject({ runMinutes: "120", randomDelay: true, resume: false, autoStart: false });
  });

  it("offers the usual minutes, and one saved outside them in its place", () => {
    expect(minuteChoices("")).toEqual(SCHEDULE_DURATION_CHOICES);
    expect(minuteChoices("60")).toEqual(SCHEDULE_DURATION_CHOICES);
    expect(minuteChoices("7")).toEqual([7, ...SCHEDULE_DURATION_CHOICES]);
    expect(minuteChoices("720").at(-1)).toBe(720);
    expect(minuteChoices("100")).toEqual([10, 15, 20, 30, 45, 60, 90, 100, 120, 180, 240, 360]);
  });
});

describe("a refusal's words", () => {
  it("come from the server's code", () => {
    expect(failureNotice({ code: "noDevice", params: {} })).toEqual({ key: "motor.noDevice" });
    expect(failureNotice({ code: "notAllowed", params: {} })).toEqual({ key: "pumps.viewerNote" });
    expect(failureNotice({ code: "limit", params: {} })).toEqual({ key: "schedule.limit" });
    expect(failureNotice({ code: "conflict", params: { minuteOfDay: 0 } })).toEqual({
      key: "schedule.conflict",
      minuteOfDay: 0,
    });
    expect(failureNotice({ code: "conflict", params: { minuteOfDay: "0" } })).toEqual({ key: "schedule.conflict" });
    expect(failureNotice({ code: "somethingNew", params: {} })).toEqual({ key: "schedule.failed" });
  });

  it("are keys, the same whichever language the page was in, and worded in Hindi and English", () => {
    const notices = [
      refusalOf(clockForm({ hour: "" })),
      refusalOf(clockForm({ repeat: "weekly" })),
      refusalOf(clockForm({ duration: "721" })),
      refusalOf(windowForm({ autoStart: "" })),
      refusalOf(windowForm({ toHour: "22" })),
      refusalOf(windowForm({ toHour: "0", runMinutes: "121" })),
      ...["noDevice", "notAllowed", "conflict", "limit", "other"].map(
        (code) => failureNotice({ code, params: {} }).key,
      ),
    ];
    // The form posts the hour as 0–23 and the minute as a number whether its list showed
    // "शाम 6" or "6 pm": no word of either language reaches the server's reading.
    expect(inputOf(clockForm({ hour: "18", minute: "5" })).minuteOfDay).toBe(18 * 60 + 5);
    expect(new Set(notices).size).toBe(10);
    for (const key of notices) {
      expect(hi[key], key).toMatch(/[\u0900-\u097F]/);
      expect(en[key], key).toMatch(/^[^\u0900-\u097F]+$/);
    }
  });
});
