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

export const scheduleRepeatSchema = z.enum(["daily", "once"], { error: 'must be "daily" or "once"' });
export type ScheduleRepeat = z.infer<typeof scheduleRepeatSchema>;

/**
 * How a run ended: done; missed (the device was offline, or the run came too late); failed
 * (the hub or the box refused: phase fault, no mains, no confirmation...).
 */
export const scheduleOutcomeSchema = z.enum(["done", "missed", "failed"]);
export type ScheduleOutcome = z.infer<typeof scheduleOutcomeSchema>;

/** A schedule as the API returns it and the page shows it. */
export const scheduleViewSchema = z.object({
  id: z.int(),
  /** "10:00 AM", India time. */
  time: z.string(),
  minuteOfDay: z.int(),
  action: z.enum(["ON", "OFF"]),
  repeat: scheduleRepeatSchema,
  durationMinutes: z.nullable(z.int()),
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
       */
      code: z.nullable(z.string()),
      /** `rejected`: the box's own words, if it gave any (shown quoted). */
      error: z.nullable(z.string()),
    }),
  ),
  createdAt: z.string(),
});
export type ScheduleView = z.infer<typeof scheduleViewSchema>;
