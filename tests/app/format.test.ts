// How the pages write lengths of time, times of day and days, in each language.
import { describe, expect, it } from "vitest";
import { formatDayHeading } from "../../app/log-runs.ts";
import { formatDayAndTime } from "../../common/i18n/day-words.ts";
import {
  formatDateTime,
  formatDuration,
  formatHourOfDay,
  formatSince,
  formatTimeOfDay,
} from "../../common/i18n/format.ts";

describe("formatDuration", () => {
  it("says a length of time in words of the reader's language, its two largest units", () => {
    expect(formatDuration(7 * 60 + 31, "hi")).toBe("7 मिनट 31 सेकंड");
    expect(formatDuration(7 * 60 + 31, "en")).toBe("7 minutes 31 seconds");
    expect(formatDuration(2 * 86_400 + 3 * 3_600 + 59, "en")).toBe("2 days 3 hours");
    expect(formatDuration(3_600, "en")).toBe("1 hour");
    expect(formatDuration(0, "hi")).toBe("0 सेकंड");
  });

  it("never writes the English unit letters the admin pages used to (7m 31s)", () => {
    expect(formatDuration(451, "hi")).not.toMatch(/[a-z]/i);
  });
});

/** 26 November 2026 at this India time (hours, minutes). */
const ist = (hours: number, minutes: number) => Date.UTC(2026, 10, 26, hours, minutes) - (5 * 60 + 30) * 60_000;

describe("times of day", () => {
  it("in Hindi say the part of the day as people do (सुबह, दोपहर, शाम, रात), never am or pm", () => {
    expect(formatTimeOfDay(10 * 60, "hi")).toBe("सुबह 10:00");
    expect(formatTimeOfDay(13 * 60 + 5, "hi")).toBe("दोपहर 1:05");
    expect(formatTimeOfDay(17 * 60 + 30, "hi")).toBe("शाम 5:30");
    expect(formatTimeOfDay(21 * 60, "hi")).toBe("रात 9:00");
    expect(formatTimeOfDay(0, "hi")).toBe("रात 12:00");
    for (let minute = 0; minute < 24 * 60; minute += 1) {
      expect(formatTimeOfDay(minute, "hi")).toMatch(/^(सुबह|दोपहर|शाम|रात) \d{1,2}:\d\d$/);
    }
  });

  it("in English keep am and pm", () => {
    expect(formatTimeOfDay(10 * 60, "en")).toBe("10:00 am");
    expect(formatTimeOfDay(21 * 60 + 15, "en")).toBe("9:15 pm");
  });

  it("read the same in a date and time, and in a time since", () => {
    expect(formatDateTime(ist(10, 1), "hi")).toBe("26 नव॰ 2026, सुबह 10:01");
    expect(formatDateTime(ist(22, 1), "en")).toBe("26 Nov 2026, 10:01 pm");
    expect(formatSince(ist(18, 45), "hi", ist(20, 0))).toBe("शाम 6:45");
    expect(formatSince(ist(18, 45), "en", ist(20, 0))).toBe("6:45 pm");
    expect(formatSince(ist(18, 45), "hi", ist(18, 45) + 2 * 86_400_000)).toBe("26 नव॰ 2026, शाम 6:45");
  });

  it("name a whole hour for the schedule's hour list", () => {
    expect(formatHourOfDay(0, "hi")).toBe("रात 12");
    expect(formatHourOfDay(6, "hi")).toBe("सुबह 6");
    expect(formatHourOfDay(12, "hi")).toBe("दोपहर 12");
    expect(formatHourOfDay(19, "hi")).toBe("शाम 7");
    expect(formatHourOfDay(6, "en")).toBe("6 am");
    expect(formatHourOfDay(19, "en")).toBe("7 pm");
  });
});

describe("formatDayHeading", () => {
  it("calls today and yesterday so, and any other day by its weekday and date, in India time", () => {
    const now = ist(8, 0);
    expect(formatDayHeading("2026-11-26", "hi", now)).toBe("आज · गुरुवार, 26 नवंबर");
    expect(formatDayHeading("2026-11-25", "hi", now)).toBe("कल · बुधवार, 25 नवंबर");
    expect(formatDayHeading("2026-11-23", "hi", now)).toBe("सोमवार, 23 नवंबर");
    expect(formatDayHeading("2026-11-26", "en", now)).toBe("Today · Thursday, 26 November");
    expect(formatDayHeading("2026-11-25", "en", now)).toBe("Yesterday · Wednesday, 25 November");
    expect(formatDayHeading("2025-12-31", "en", now)).toBe("Wednesday, 31 December 2025");
  });
});

describe("formatDayAndTime", () => {
  it("names the day by Intl's words within two days either way (आज, कल, परसों), else the date, in India time", () => {
    const now = ist(8, 0);
    const day = 24 * 60 * 60_000;
    expect(formatDayAndTime(ist(18, 0), "hi", now)).toBe("आज शाम 6:00");
    expect(formatDayAndTime(ist(6, 0) + day, "hi", now)).toBe("कल सुबह 6:00");
    expect(formatDayAndTime(ist(6, 0) + 2 * day, "hi", now)).toBe("परसों सुबह 6:00");
    expect(formatDayAndTime(ist(6, 0) - day, "hi", now)).toBe("कल सुबह 6:00");
    expect(formatDayAndTime(ist(6, 0) + 3 * day, "hi", now)).toBe(formatDateTime(ist(6, 0) + 3 * day, "hi"));
    // Just after India's midnight is already tomorrow, though UTC still says today.
    expect(formatDayAndTime(ist(0, 15) + day, "hi", now)).toBe("कल रात 12:15");
    expect(formatDayAndTime(ist(6, 0) + day, "en", now)).toBe("tomorrow, 6:00 am");
    expect(formatDayAndTime(ist(18, 0), "en", now)).toBe("today, 6:00 pm");
  });
});
