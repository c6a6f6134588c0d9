// Schedules as the API returns them and the schedule page shows them, with the limits the page
// offers. zod's small build (common/zod-mini.ts): the page parses with these; what the API
// accepts is in ./schedule-schemas.ts.
import { z } from "./zod-mini.ts";

/** One device keeps at most this many schedules. */
export const MAX_SCHEDULES_PER_DEVICE = 20;
/** "ON for N minutes": at most half a day. */
export const MAX_SCHEDULE_DURATION_MINUTES = 720;
/** Choices the schedule form offers for "ON for N minutes" (the API takes any 1–720). */
export const SCHEDULE_DURATION_CHOICES = [10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 360] as const;

export const scheduleRepeatSchema = z.enum(["daily", "weekly", "once"], {
  error: 'must be "daily", "weekly" or "once"',
});
export type ScheduleRepeat = z.infer<typeof scheduleRepeatSchema>;

/**
 * `clock`: switch ON or OFF at a time. `window`: run N minutes as soon as supply is present
 * between two times (docs/decisions/020-power-window-runs.md).
 */
export const scheduleKindSchema = z.enum(["clock", "window"]);

/** A power-window run keeps its random start delay within this. */
export const MAX_WINDOW_START_DELAY_SECONDS = 120;

/**
 * Where a power-window run under way stands: waiting for supply (or for the box), waiting out
 * its random delay, switching on, running, or switching off at its end.
 */
export const windowRunPhaseSchema = z.enum(["waiting", "delaying", "starting", "running", "stopping"]);

/**
 * How a run ended: done; missed (the device was offline, or the run came too late); failed
 * (the hub or the box refused: phase fault, no mains, no confirmation...).
 */
export const scheduleOutcomeSchema = z.enum(["done", "missed", "failed"]);
export type ScheduleOutcome = z.infer<typeof scheduleOutcomeSchema>;

/** A schedule as the API returns it and the page shows it. */
export const scheduleViewSchema = z.object({
  id: z.int(),
  kind: scheduleKindSchema,
  /** "10:00 AM", India time; a power window's opening. */
  time: z.string(),
  minuteOfDay: z.int(),
  /** A power window's action is ON. */
  action: z.enum(["ON", "OFF"]),
  repeat: scheduleRepeatSchema,
  /** `weekly`: the days it runs (a power window: the days it opens), Sunday first; else null. */
  days: z.nullable(z.array(z.enum(["sun", "mon", "tue", "wed", "thu", "fri", "sat"]))),
  /** ON for N minutes; a power window's minutes to run. */
  durationMinutes: z.nullable(z.int()),
  /** A power window's end and choices; null for a clock schedule. */
  window: z.nullable(
    z.object({
      /** "6:00 AM": the window closes then, across midnight when earlier than `time`. */
      endTime: z.string(),
      endMinuteOfDay: z.int(),
      /** Start 0–120 s after supply returns, so a village's pumps do not start together. */
      randomDelay: z.boolean(),
      /** After a cut within the window, run the minutes left when supply returns. */
      resume: z.boolean(),
    }),
  ),
  /** A power window's run under way: where it stands and the minutes run so far. */
  activeRun: z.nullable(
    z.object({
      phase: windowRunPhaseSchema,
      ranMinutes: z.int(),
      /** When the window closes (ISO). */
      closesAt: z.string(),
    }),
  ),
  /** When it runs next (ISO); null once a one-time schedule has run. */
  nextRunAt: z.nullable(z.string()),
  lastRun: z.nullable(
    z.object({
      /** The time it was set for (ISO). */
      at: z.string(),
      outcome: scheduleOutcomeSchema,
      /**
       * Why it did not run: offline, late, phaseFault, noSupply, cooldown, busy, timeout,
       * linkLost, rejected; `confirmedLate` for a run the box confirmed after the hub stopped waiting.
       * A power window that ended short: noSupply (none came), windowClosed, powerCut, stopped
       * (someone or something else stopped the motor).
       */
      code: z.nullable(z.string()),
      /** `rejected`: the box's own words, if it gave any (shown quoted). */
      error: z.nullable(z.string()),
      /** A power window's minutes run; null for a clock schedule. */
      ranMinutes: z.nullable(z.int()),
    }),
  ),
  createdAt: z.string(),
});
export type ScheduleView = z.infer<typeof scheduleViewSchema>;
