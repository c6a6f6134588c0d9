// Answers of /api/schedule (common/api-responses/refusals.ts says how these are used).

import { scheduleViewSchema } from "../schedule-view.ts";
import { z } from "../zod-mini.ts";
import { successSchema } from "./refusals.ts";

/** GET /api/schedule (DELETE answers messageResponseSchema). */
export const scheduleListResponseSchema = successSchema({
  schedules: z.array(scheduleViewSchema),
});

/** POST /api/schedule (201) and PUT /api/schedule/{id}. */
export const scheduleResponseSchema = successSchema({
  message: z.string(),
  schedule: scheduleViewSchema,
});
