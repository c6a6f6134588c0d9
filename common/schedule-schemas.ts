// Motor schedules (SPEC §2 /motor-schedule, §3 Schedule, §7 POST /api/schedule): what the
// API accepts and returns. The device's DeviceHub stores and carries them out.
import { z } from "./zod.ts";
import { parseClock } from "./schedule-time.ts";

/** One device keeps at most this many schedules. */
export const MAX_SCHEDULES_PER_DEVICE = 20;
/** "ON for N minutes": at most half a day. */
export const MAX_SCHEDULE_DURATION_MINUTES = 720;
/** Choices the schedule form offers for "ON for N minutes" (the API takes any 1–720). */
export const SCHEDULE_DURATION_CHOICES = [10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 360] as const;

const TIME_MESSAGE = 'must be a time such as "10:00 AM" (h:mm a) or "22:30"';

/** The spec's client sends "10:00 AM"; API clients may send 24-hour "22:30". */
export const scheduleTimeSchema = z
  .string({ error: TIME_MESSAGE })
  .trim()
  .transform((text, context) => {
    const minuteOfDay = parseClock(text);
    if (minuteOfDay === null) {
      context.addIssue({ code: "custom", message: TIME_MESSAGE });
      return z.NEVER;
    }
    return minuteOfDay;
  });

/** ON or OFF as the spec writes it; any case is accepted. */
export const scheduleActionSchema = z
  .string({ error: 'must be "ON" or "OFF"' })
  .trim()
  .toLowerCase()
  .pipe(z.enum(["on", "off"], { error: 'must be "ON" or "OFF"' }));

export const scheduleRepeatSchema = z.enum(["daily", "once"], { error: 'must be "daily" or "once"' });
export type ScheduleRepeat = z.infer<typeof scheduleRepeatSchema>;

export const scheduleRequestSchema = z
  .object({
    time: scheduleTimeSchema,
    action: scheduleActionSchema,
    repeat: scheduleRepeatSchema,
    /** ON for this many minutes, then OFF again; null or absent: stays ON. */
    durationMinutes: z
      .number({ error: `must be a whole number of minutes from 1 to ${MAX_SCHEDULE_DURATION_MINUTES}` })
      .int({ error: `must be a whole number of minutes from 1 to ${MAX_SCHEDULE_DURATION_MINUTES}` })
      .min(1, { error: `must be a whole number of minutes from 1 to ${MAX_SCHEDULE_DURATION_MINUTES}` })
      .max(MAX_SCHEDULE_DURATION_MINUTES, {
        error: `must be a whole number of minutes from 1 to ${MAX_SCHEDULE_DURATION_MINUTES}`,
      })
      .nullable()
      .optional(),
  })
  .transform(({ time, durationMinutes, ...rest }) => ({ minuteOfDay: time, ...rest, durationMinutes: durationMinutes ?? null }))
  .refine((input) => input.action === "on" || input.durationMinutes === null, {
    path: ["durationMinutes"],
    error: "is only for ON schedules",
  });
/** A schedule as the hub stores it: minute of the IST day, lower-case action. */
export type ScheduleInput = z.infer<typeof scheduleRequestSchema>;

export const scheduleIdSchema = z.coerce
  .number({ error: "Not a schedule id." })
  .int({ error: "Not a schedule id." })
  .positive({ error: "Not a schedule id." });

/**
 * How a run ended: done; missed (the device was offline, or the run came too late); failed
 * (the hub or the box refused: phase fault, no mains, no confirmation...).
 */
export const scheduleOutcomeSchema = z.enum(["done", "missed", "failed"]);
export type ScheduleOutcome = z.infer<typeof scheduleOutcomeSchema>;

/** A schedule as the API returns it and the page shows it. */
export const scheduleViewSchema = z.object({
  id: z.number().int(),
  /** "10:00 AM", India time. */
  time: z.string(),
  minuteOfDay: z.number().int(),
  action: z.enum(["ON", "OFF"]),
  repeat: scheduleRepeatSchema,
  durationMinutes: z.number().int().nullable(),
  /** When it runs next (ISO); null once a one-time schedule has run. */
  nextRunAt: z.string().nullable(),
  lastRun: z
    .object({
      /** The time it was set for (ISO). */
      at: z.string(),
      outcome: scheduleOutcomeSchema,
      /**
       * Why it did not run: offline, late, phaseFault, noSupply, cooldown, busy, timeout,
       * linkLost, rejected; `confirmedLate` for a run the box confirmed after the hub stopped waiting.
       */
      code: z.string().nullable(),
      /** `rejected`: the box's own words, if it gave any (shown quoted). */
      error: z.string().nullable(),
    })
    .nullable(),
  createdAt: z.string(),
});
export type ScheduleView = z.infer<typeof scheduleViewSchema>;
