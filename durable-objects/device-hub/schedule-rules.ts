// The farmer's schedules as plain functions: what a form's input is stored as, when a schedule
// runs next, what it clashes with, and how the API shows it (schedules.ts carries them out).
import type { ScheduleFailure } from "../../common/hub-contract.ts";
import type { ScheduleInput, ScheduleView } from "../../common/schedule-schemas.ts";
import {
  EVERY_DAY_MASK,
  formatClock,
  MINUTES_PER_DAY,
  nextOccurrenceOn,
  weekdaysOf,
  windowLengthMinutes,
} from "../../common/schedule-time.ts";
import type { ScheduleFields, ScheduleRow } from "./schedule-book.ts";
import type { WindowRunRow } from "./window-runs-table.ts";

export function scheduleView(row: ScheduleRow, run: WindowRunRow | null = null, now = Date.now()): ScheduleView {
  const window = row.kind === "window" && row.windowEnd !== null ? row.windowEnd : null;
  return {
    id: row.id,
    kind: row.kind,
    time: formatClock(row.minuteOfDay),
    minuteOfDay: row.minuteOfDay,
    action: row.action === "on" ? "ON" : "OFF",
    repeat: row.repeat,
    days: row.repeat === "weekly" && row.daysMask !== null ? weekdaysOf(row.daysMask) : null,
    durationMinutes: row.durationMinutes,
    window:
      window === null
        ? null
        : {
            endTime: formatClock(window),
            endMinuteOfDay: window,
            randomDelay: row.randomDelay,
            resume: row.resume,
          },
    activeRun:
      run === null
        ? null
        : {
            // A start under way is not yet running: the page says so only once the box confirms.
            phase: run.phase,
            ranMinutes: Math.round(
              (run.ranMs + (run.phase === "running" && run.runningSince !== null ? now - run.runningSince : 0)) /
                60_000,
            ),
            closesAt: new Date(run.closesAt).toISOString(),
          },
    nextRunAt: row.nextRunAt === null ? null : new Date(row.nextRunAt).toISOString(),
    lastRun:
      row.lastRunAt === null || row.lastOutcome === null
        ? null
        : {
            at: new Date(row.lastRunAt).toISOString(),
            outcome: row.lastOutcome,
            code: row.lastCode,
            error: row.lastError,
            ranMinutes: row.kind === "window" ? row.lastRanMinutes : null,
          },
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** The stored fields of what the form decided. */
export function fieldsOf(input: ScheduleInput): ScheduleFields {
  return {
    kind: input.kind,
    minuteOfDay: input.minuteOfDay,
    action: input.action,
    repeat: input.repeat,
    daysMask: input.repeat === "weekly" ? input.daysMask : null,
    durationMinutes: input.durationMinutes,
    windowEnd: input.windowEnd,
    randomDelay: input.randomDelay,
    resume: input.resume,
  };
}

/** When a schedule runs next (a window: opens), from `after`. */
export function nextRunOf(fields: Pick<ScheduleFields, "minuteOfDay" | "repeat" | "daysMask">, after: number): number {
  return nextOccurrenceOn(fields.minuteOfDay, after, fields.repeat === "weekly" ? fields.daysMask : null);
}

/** The days of the week a schedule may run on, as a mask (every day unless weekly). */
export function daysOf(fields: Pick<ScheduleFields, "repeat" | "daysMask">): number {
  return fields.repeat === "weekly" && fields.daysMask !== null ? fields.daysMask : EVERY_DAY_MASK;
}

/**
 * The minutes of the week a window covers, as [start, end) pairs (ends may pass the week's end):
 * two windows that share a minute would both want the one motor.
 */
function windowSpans(fields: Pick<ScheduleFields, "minuteOfDay" | "windowEnd" | "repeat" | "daysMask">) {
  const length = windowLengthMinutes(fields.minuteOfDay, fields.windowEnd ?? fields.minuteOfDay);
  const days = daysOf(fields);
  const spans: [number, number][] = [];
  for (let day = 0; day < 7; day++) {
    const start = day * MINUTES_PER_DAY + fields.minuteOfDay;
    if ((days & (1 << day)) !== 0) spans.push([start, start + length]);
  }
  return spans;
}

const WEEK_MINUTES = 7 * MINUTES_PER_DAY;

function spansOverlap(a: [number, number], b: [number, number]): boolean {
  // Compared a week apart as well, so a Saturday-night window meets a Sunday-morning one.
  return [-WEEK_MINUTES, 0, WEEK_MINUTES].some((shift) => a[0] < b[1] + shift && b[0] + shift < a[1]);
}

/**
 * Two clock schedules at one minute on a shared day, or two windows that share a minute,
 * contradict each other: the other's time is the refusal's. `others`: the device's schedules of
 * the same kind but the one being set.
 */
export function clashOf(fields: ScheduleFields, others: ScheduleRow[]): ScheduleFailure | null {
  const other =
    fields.kind === "clock"
      ? others.find((row) => row.minuteOfDay === fields.minuteOfDay && (daysOf(row) & daysOf(fields)) !== 0)
      : others.find((row) =>
          windowSpans(row).some((span) => windowSpans(fields).some((mine) => spansOverlap(span, mine))),
        );
  return other ? { ok: false, code: "conflict", minuteOfDay: other.minuteOfDay } : null;
}
