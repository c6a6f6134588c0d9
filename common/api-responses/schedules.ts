// Answers of /api/schedule (common/api-responses/refusals.ts says how these are used).

import { scheduleViewSchema } from "../schedule-view.ts";
import { z } from "../zod-mini.ts";

/** GET /api/schedule (DELETE answers messageResponseSchema). */
export const scheduleListResponseSchema = z.object({
  success: z.literal(true),
  schedules: z.array(scheduleViewSchema),
});

/** POST /api/schedule (201) and PUT /api/schedule/{id}. */
export const scheduleResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  schedule: scheduleViewSchema,
});
