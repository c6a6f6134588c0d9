// An instant as a farmer says it, by the day's word when it is near: apart from ./format.ts so
// that only the pages that say it (the schedule) carry it in their JavaScript.
import { formatClockTime, formatDateTime, localeOf } from "./format.ts";
import type { Language } from "./language.ts";

/** India's calendar day of an instant, counted from 1970 (India keeps no summer time). */
const indiaDayNumber = (at: number) => Math.floor((at + 330 * 60_000) / 86_400_000);

/**
 * An instant as a farmer says it: within two days either way the day in Intl's own words and the
 * time ("कल सुबह 6:00", "परसों शाम 7:30", "tomorrow, 6:00 am"), else the date and time. India time.
 */
export function formatDayAndTime(at: string | number, language: Language, now = Date.now()): string {
  const time = new Date(at).getTime();
  const days = indiaDayNumber(time) - indiaDayNumber(now);
  if (Math.abs(days) > 2) return formatDateTime(time, language);
  const day = new Intl.RelativeTimeFormat(localeOf(language), { numeric: "auto" }).format(days, "day");
  return `${day}${language === "hi" ? " " : ", "}${formatClockTime(time, language)}`;
}
