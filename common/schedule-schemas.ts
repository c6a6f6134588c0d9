// Motor schedules (SPEC §2 /motor-schedule, §3 Schedule, §7 POST /api/schedule): what the
// API accepts and returns. The device's DeviceHub stores and carries them out.

import { parseClock } from "./schedule-time.ts";
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
  .transform(({ time, durationMinutes, ...rest }) => ({
    minuteOfDay: time,
    ...rest,
    durationMinutes: durationMinutes ?? null,
  }))
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
