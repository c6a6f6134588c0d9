// A pump's motor log as the logs page shows it: each ON paired with the OFF that ended it into
// one run, everything else as it came, newest first, in India's calendar days with their
// headings. The log's ON and OFF entries are changes of the motor's state (the hub logs a switch
// only when it changed it), so an ON followed by an OFF is one run of the motor. Kept apart from
// ./format.ts, which every page loads: only the logs page needs these.

import { localeOf } from "../common/i18n/format.ts";
import type { Language } from "../common/i18n/language.ts";
import { istDay } from "../common/pump-usage.ts";
import type { MotorLogEntry } from "../common/realtime-protocol.ts";

export type LogRun = {
  type: "run";
  on: MotorLogEntry;
  /** The OFF that ended it; null when none is in the log (yet). */
  off: MotorLogEntry | null;
  /** Whether the run is known to be over: its OFF, or a later ON, is in the log. */
  ended: boolean;
  /** How long it ran, when both ends are in the log. */
  seconds: number | null;
};

export type LogDayItem = LogRun | { type: "entry"; entry: MotorLogEntry };

/** One India day ("2026-11-26") of the log, its items newest first. */
export type LogDay = { day: string; items: LogDayItem[] };

const timeOf = (entry: MotorLogEntry) => Date.parse(entry.timestamp);

/**
 * `entries` in any order (the API's is newest first). A run is listed where it began, under the
 * day it began; an OFF whose ON is older than the entries loaded so far stands alone until the
 * older page arrives.
 */
export function logDays(entries: readonly MotorLogEntry[]): LogDay[] {
  const oldestFirst = [...entries].sort((a, b) => timeOf(a) - timeOf(b) || a.id - b.id);
  const items: LogDayItem[] = [];
  let open: LogRun | null = null;
  for (const entry of oldestFirst) {
    if (entry.action === "on") {
      // An ON while a run is open: that run ended without its OFF in the log.
      if (open) open.ended = true;
      open = { type: "run", on: entry, off: null, ended: false, seconds: null };
      items.push(open);
    } else if (entry.action === "off" && open) {
      open.off = entry;
      open.ended = true;
      open.seconds = Math.max(0, Math.round((timeOf(entry) - timeOf(open.on)) / 1000));
      open = null;
    } else {
      items.push({ type: "entry", entry });
    }
  }
  const days: LogDay[] = [];
  for (const item of items.reverse()) {
    const day = istDay(timeOf(item.type === "run" ? item.on : item.entry));
    const last = days.at(-1);
    if (last?.day === day) last.items.push(item);
    else days.push({ day, items: [item] });
  }
  return days;
}

/**
 * A day of the log (India time, "2026-11-26") as a heading: "आज · गुरुवार, 26 नवंबर",
 * "Yesterday · Wednesday, 25 November", another day by its weekday and date (the year when it
 * is not this one), all from Intl.
 */
export function formatDayHeading(day: string, language: Language, now = Date.now()): string {
  const noon = Date.parse(`${day}T12:00:00+05:30`);
  const today = istDay(now);
  const daysAgo = Math.round((Date.parse(`${today}T12:00:00+05:30`) - noon) / 86_400_000);
  const date = new Date(noon).toLocaleDateString(localeOf(language), {
    timeZone: "Asia/Kolkata",
    weekday: "long",
    day: "numeric",
    month: "long",
    ...(day.slice(0, 4) === today.slice(0, 4) ? {} : { year: "numeric" }),
  });
  if (daysAgo !== 0 && daysAgo !== 1) return date;
  const relative = new Intl.RelativeTimeFormat(localeOf(language), { numeric: "auto" }).format(-daysAgo, "day");
  return `${relative.charAt(0).toLocaleUpperCase(localeOf(language))}${relative.slice(1)} · ${date}`;
}
