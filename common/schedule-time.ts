// Clock times of motor schedules. Farmers think in India time, which has had no daylight
// saving since 1945: IST is always UTC+05:30, so "10:00 AM every day" is a fixed UTC instant
// each day and the arithmetic below needs no time-zone database.

export const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
export const DAY_MS = 24 * 60 * 60_000;
export const MINUTES_PER_DAY = 24 * 60;

/** The first instant strictly after `after` (ms) at which the IST clock reads minuteOfDay:00. */
export function nextOccurrence(minuteOfDay: number, after: number): number {
  const istMidnight = Math.floor((after + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
  let at = istMidnight + minuteOfDay * 60_000;
  while (at <= after) at += DAY_MS;
  return at;
}

/** The IST minute an instant falls in, as "2026-11-22T10:00": the identity of one run. */
export function istMinuteKey(at: number): string {
  return new Date(at + IST_OFFSET_MS).toISOString().slice(0, 16);
}

/** The IST minute of the day (0–1439) an instant falls in. */
export function istMinuteOfDay(at: number): number {
  return Math.floor(((at + IST_OFFSET_MS) % DAY_MS) / 60_000);
}

/** 600 → "10:00 AM", 0 → "12:00 AM", 810 → "1:30 PM" (the spec's h:mm a). */
export function formatClock(minuteOfDay: number): string {
  const hours24 = Math.floor(minuteOfDay / 60);
  const minutes = minuteOfDay % 60;
  const hours12 = hours24 % 12 === 0 ? 12 : hours24 % 12;
  return `${hours12}:${String(minutes).padStart(2, "0")} ${hours24 < 12 ? "AM" : "PM"}`;
}

export function minuteOfDayFromParts(hour: number, minute: number, meridiem: "AM" | "PM"): number {
  return ((hour % 12) + (meridiem === "PM" ? 12 : 0)) * 60 + minute;
}

/**
 * "10:00 AM", "10:00am", "1:05 pm" (the spec's h:mm a) or 24-hour "22:30" → minute of the day;
 * null for anything else.
 */
export function parseClock(text: string): number | null {
  const twelve = /^(\d{1,2}):(\d{2})\s*([AaPp])\.?\s*[Mm]\.?$/.exec(text);
  if (twelve) {
    const hour = Number(twelve[1]);
    const minute = Number(twelve[2]);
    if (hour < 1 || hour > 12 || minute > 59) return null;
    return minuteOfDayFromParts(hour, minute, twelve[3]!.toUpperCase() === "P" ? "PM" : "AM");
  }
  const twentyFour = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (twentyFour) {
    const hour = Number(twentyFour[1]);
    const minute = Number(twentyFour[2]);
    if (hour > 23 || minute > 59) return null;
    return hour * 60 + minute;
  }
  return null;
}

/** Weekdays as a schedule names them, Sunday first (JavaScript's getUTCDay order). */
export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** Every day of the week, as a mask of `1 << weekday index`. */
export const EVERY_DAY_MASK = 0b111_1111;

/** The IST weekday (0 Sunday – 6 Saturday) an instant falls on. */
export function istWeekday(at: number): number {
  return new Date(at + IST_OFFSET_MS).getUTCDay();
}

export function daysMaskOf(days: readonly Weekday[]): number {
  return days.reduce((mask, day) => mask | (1 << WEEKDAYS.indexOf(day)), 0);
}

export function weekdaysOf(mask: number): Weekday[] {
  return WEEKDAYS.filter((_, index) => (mask & (1 << index)) !== 0);
}

/**
 * The first instant strictly after `after` at which the IST clock reads minuteOfDay:00 on one
 * of the days in `daysMask` (null: any day).
 */
export function nextOccurrenceOn(minuteOfDay: number, after: number, daysMask: number | null): number {
  let at = nextOccurrence(minuteOfDay, after);
  if (daysMask === null || (daysMask & EVERY_DAY_MASK) === 0) return at;
  while ((daysMask & (1 << istWeekday(at))) === 0) at += DAY_MS;
  return at;
}

/** Minutes from `fromMinute` to `toMinute` of the IST day, across midnight when `to` is earlier. */
export function windowLengthMinutes(fromMinute: number, toMinute: number): number {
  return (toMinute - fromMinute + MINUTES_PER_DAY) % MINUTES_PER_DAY;
}
