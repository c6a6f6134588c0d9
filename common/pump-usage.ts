// Run hours and energy per India calendar day (docs/decisions/021-run-hours-and-energy.md): the
// day arithmetic the hub, the API and the pages share. IST has no daylight saving (see
// ./schedule-time.ts), so a day is a fixed 24 hours from 18:30 UTC.
import { DAY_MS, IST_OFFSET_MS } from "./schedule-time.ts";

/** The hub keeps this many IST days of totals, today included. */
export const USAGE_RETENTION_DAYS = 90;
/** The spans a page offers; the API takes any count up to the retention. */
export const USAGE_SPANS = [7, 30] as const;

/** The span a page shows for its `?usage=` parameter: 30 days when asked, else 7. */
export function usageSpanOf(url: string): (typeof USAGE_SPANS)[number] {
  return new URL(url).searchParams.get("usage") === "30" ? 30 : 7;
}

/** The IST calendar day an instant falls in, as "2026-11-23". */
export function istDay(at: number): string {
  return new Date(at + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant an IST day ("2026-11-23") begins. */
export function istDayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) - IST_OFFSET_MS;
}

/** The IST day `days` days before the day of `now` (0: that day). */
export function istDayBefore(now: number, days: number): string {
  return istDay(istDayStart(istDay(now)) - days * DAY_MS);
}

/** The `count` IST days that end with the day of `now`, oldest first. */
export function lastIstDays(now: number, count: number): string[] {
  const oldest = istDayStart(istDayBefore(now, count - 1));
  return Array.from({ length: count }, (_, index) => istDay(oldest + index * DAY_MS));
}

/** The interval [from, to) cut at IST midnights: how much of it falls in each day, in order. */
export function splitByIstDay(from: number, to: number): { day: string; from: number; to: number }[] {
  const parts: { day: string; from: number; to: number }[] = [];
  let start = from;
  while (start < to) {
    const day = istDay(start);
    const end = Math.min(to, istDayStart(day) + DAY_MS);
    parts.push({ day, from: start, to: end });
    start = end;
  }
  return parts;
}
