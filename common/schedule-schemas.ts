// Motor schedules (SPEC §2 /motor-schedule, §3 Schedule, §7 POST /api/schedule): what the
// API accepts and returns. The device's DeviceHub stores and carries them out.

import { daysMaskOf, parseClock, WEEKDAYS, windowLengthMinutes } from "./schedule-time.ts";
import { MAX_SCHEDULE_DURATION_MINUTES, scheduleRepeatSchema } from "./schedule-view.ts";
import { z } from "./zod.ts";

export {
  MAX_SCHEDULES_PER_DEVICE,
  type ScheduleOutcome,
  type ScheduleView,
} from "./schedule-view.ts";

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

const minutesMessage = `must be a whole number of minutes from 1 to ${MAX_SCHEDULE_DURATION_MINUTES}`;
const minutesSchema = z
  .number({ error: minutesMessage })
  .int({ error: minutesMessage })
  .min(1, { error: minutesMessage })
  .max(MAX_SCHEDULE_DURATION_MINUTES, { error: minutesMessage });

/** A weekly schedule's days: "mon", "thu"... each at most once. */
const weekdaysSchema = z
  .array(z.enum(WEEKDAYS, { error: `must name days among ${WEEKDAYS.join(", ")}` }), {
    error: "must be a list of days",
  })
  .min(1, { error: "must name at least one day" })
  .max(7, { error: "must name each day at most once" })
  .refine((days) => new Set(days).size === days.length, { error: "must name each day at most once" });

const clockRequestSchema = z.object({
  type: z.literal("clock"),
  time: scheduleTimeSchema,
  action: scheduleActionSchema,
  repeat: scheduleRepeatSchema,
  days: weekdaysSchema.optional(),
  /** ON for this many minutes, then OFF again; null or absent: stays ON. */
  durationMinutes: minutesSchema.nullable().optional(),
});

const windowRequestSchema = z.object({
  type: z.literal("window"),
  /** The window: supply is expected sometime between these (India time, across midnight if need be). */
  from: scheduleTimeSchema,
  to: scheduleTimeSchema,
  runMinutes: minutesSchema,
  repeat: scheduleRepeatSchema,
  days: weekdaysSchema.optional(),
  randomDelay: z.boolean({ error: "must be true or false" }).optional(),
  resume: z.boolean({ error: "must be true or false" }).optional(),
  /** The motor starts by itself when supply comes: the caller must say so in so many words. */
  autoStart: z.literal(true, { error: "must be true: a power-window run starts the motor by itself" }),
});

/**
 * What the API and the schedule form accept: SPEC §7's {time, action, repeat} (a clock schedule,
 * `type` may be left out), with "ON for N minutes" and weekly days, or a power window.
 */
export const scheduleRequestSchema = z
  .preprocess(
    (body) => (typeof body === "object" && body !== null && !("type" in body) ? { ...body, type: "clock" } : body),
    z.discriminatedUnion("type", [clockRequestSchema, windowRequestSchema], {
      error: 'must be "clock" or "window"',
    }),
  )
  .superRefine((input, context) => {
    if (input.repeat === "weekly" && !input.days)
      context.addIssue({ code: "custom", path: ["days"], message: "must name the days of a weekly schedule" });
    if (input.repeat !== "weekly" && input.days)
      context.addIssue({ code: "custom", path: ["days"], message: "are only for weekly schedules" });
    if (input.type === "clock" && input.action !== "on" && input.durationMinutes != null)
      context.addIssue({ code: "custom", path: ["durationMinutes"], message: "is only for ON schedules" });
    if (input.type === "window") {
      const length = windowLengthMinutes(input.from, input.to);
      if (length === 0)
        context.addIssue({ code: "custom", path: ["to"], message: "must differ from the window's start" });
      else if (length < input.runMinutes)
        context.addIssue({
          code: "custom",
          path: ["runMinutes"],
          message: `must fit in the window (${length} minutes)`,
        });
    }
  })
  .transform((input) => {
    const daysMask = input.days ? daysMaskOf(input.days) : null;
    if (input.type === "clock")
      return {
        kind: "clock" as const,
        minuteOfDay: input.time,
        action: input.action,
        repeat: input.repeat,
        daysMask,
        durationMinutes: input.action === "on" ? (input.durationMinutes ?? null) : null,
        windowEnd: null,
        randomDelay: false,
        resume: false,
      };
    return {
      kind: "window" as const,
      minuteOfDay: input.from,
      action: "on" as const,
      repeat: input.repeat,
      daysMask,
      durationMinutes: input.runMinutes,
      windowEnd: input.to,
      randomDelay: input.randomDelay ?? true,
      resume: input.resume ?? false,
    };
  });
/**
 * A schedule as the hub stores it: minute of the IST day (a window's opening), lower-case
 * action, weekly days as a mask of `1 << weekday`, a window's closing minute and choices.
 */
export type ScheduleInput = z.infer<typeof scheduleRequestSchema>;

export const scheduleIdSchema = z.coerce
  .number({ error: "Not a schedule id." })
  .int({ error: "Not a schedule id." })
  .positive({ error: "Not a schedule id." });
