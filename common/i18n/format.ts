// Dates, ages and numbers for India, in the reader's language (SPEC §4, §9). The catalogue
// renderer (./i18n/catalogue.ts) writes the numbers in messages with `formatNumber` too, so a
// number reads the same in a sentence and beside it.
import type { Language } from "./language.ts";

const TIME_ZONE = "Asia/Kolkata";

/** Indian locale formats for numbers and dates, in the reader's script. */
export function localeOf(language: Language): string {
  return language === "hi" ? "hi-IN" : "en-IN";
}

/** A 10-digit mobile number the way people read it out: 98765 43210. */
export function formatMobileNo(mobileNo: string): string {
  return /^[0-9]{10}$/.test(mobileNo) ? `${mobileNo.slice(0, 5)} ${mobileNo.slice(5)}` : mobileNo;
}

/**
 * How a time of day is written: Hindi names the part of the day as people say it ("सुबह 10:00",
 * "दोपहर 1:05", "शाम 5:30", "रात 9:00": Intl's day periods for Hindi), never "am" or "pm";
 * English keeps "10:00 am". Every time on a page comes through here, so one card never writes
 * a time two ways.
 */
const TIME_OF_DAY: Record<Language, Intl.DateTimeFormatOptions> = {
  hi: { hour: "numeric", minute: "2-digit", dayPeriod: "long" },
  en: { hour: "numeric", minute: "2-digit", hour12: true },
};

export function formatDateTime(iso: string | number, language: Language): string {
  return new Date(iso).toLocaleString(localeOf(language), {
    timeZone: TIME_ZONE,
    day: "numeric",
    month: "short",
    year: "numeric",
    ...TIME_OF_DAY[language],
  });
}

/** A time of day (minutes after midnight, India time) as this language writes times: "सुबह 10:00", "10:00 am". */
export function formatTimeOfDay(minuteOfDay: number, language: Language): string {
  return new Date(Date.UTC(2000, 0, 1, 0, minuteOfDay)).toLocaleTimeString(localeOf(language), {
    timeZone: "UTC",
    ...TIME_OF_DAY[language],
  });
}

/** A whole hour (0–23) as the schedule's hour list names it: "सुबह 6", "6 am". */
export function formatHourOfDay(hour: number, language: Language): string {
  const { minute: _minute, ...hourOnly } = TIME_OF_DAY[language];
  return new Date(Date.UTC(2000, 0, 1, hour)).toLocaleTimeString(localeOf(language), {
    timeZone: "UTC",
    ...hourOnly,
  });
}

/** The time of day of an instant, India time: "सुबह 10:05", "10:05 am". */
export function formatClockTime(at: string | number, language: Language): string {
  return new Date(at).toLocaleTimeString(localeOf(language), { timeZone: TIME_ZONE, ...TIME_OF_DAY[language] });
}

export function formatDate(iso: string | number, language: Language): string {
  return new Date(iso).toLocaleDateString(localeOf(language), { timeZone: TIME_ZONE, dateStyle: "medium" });
}

export function formatNumber(value: number, language: Language, maximumFractionDigits = 2): string {
  return new Intl.NumberFormat(localeOf(language), { maximumFractionDigits }).format(value);
}

/** Volts per phase: "R 412 V · Y 409 V · B 415 V" on a 3-phase supply, "231 V" on a single phase. */
export function formatVoltages(voltages: readonly number[], language: Language): string {
  const volts = (value: number) => `${formatNumber(value, language, 0)} V`;
  if (voltages.length === 1) return volts(voltages[0] ?? 0);
  return voltages.map((value, index) => `${"RYB"[index]} ${volts(value)}`).join(" · ");
}

export function formatRupees(amount: number, language: Language): string {
  return new Intl.NumberFormat(localeOf(language), {
    style: "currency",
    currency: "INR",
    maximumFractionDigits: 0,
  }).format(amount);
}

/**
 * A length of time in the reader's words, its two largest units: "7 मिनट 31 सेकंड", "2 days
 * 3 hours". Intl's unit formatting, so no language spells units by hand.
 */
export function formatDuration(totalSeconds: number, language: Language): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const parts: [number, "day" | "hour" | "minute" | "second"][] = [
    [Math.floor(seconds / 86_400), "day"],
    [Math.floor((seconds % 86_400) / 3_600), "hour"],
    [Math.floor((seconds % 3_600) / 60), "minute"],
    [seconds % 60, "second"],
  ];
  const largest = parts.findIndex(([value]) => value > 0);
  const first = largest === -1 ? parts.length - 1 : largest;
  return parts
    .slice(first, first + 2)
    .filter(([value], index) => index === 0 || value > 0)
    .map(([value, unit]) =>
      new Intl.NumberFormat(localeOf(language), { style: "unit", unit, unitDisplay: "long" }).format(value),
    )
    .join(" ");
}

/** "5 seconds ago", "3 minutes ago", "2 hours ago", "4 days ago" (thresholds 60 s, 60 min, 24 h). */
export function relativeAge(iso: string | number, language: Language, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  const format = new Intl.RelativeTimeFormat(localeOf(language), { numeric: "always" });
  if (seconds < 60) return format.format(-seconds, "second");
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return format.format(-minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return format.format(-hours, "hour");
  return format.format(-Math.floor(hours / 24), "day");
}

/** When something began: the time of day if within the last day, else the date and time. */
export function formatSince(at: number, language: Language, now = Date.now()): string {
  if (now - at < 24 * 60 * 60 * 1000) return formatClockTime(at, language);
  return formatDateTime(at, language);
}

/** A weekday's short name (0 Sunday – 6 Saturday) in the reader's language: "Mon", "सोम". */
export function weekdayName(day: number, language: Language): string {
  // 22 November 2026 was a Sunday.
  return new Date(Date.UTC(2026, 10, 22 + day)).toLocaleDateString(localeOf(language), {
    timeZone: "UTC",
    weekday: "short",
  });
}
