// POST /api/hub-notices (common/api-responses/refusals.ts says how these are used).
import { z } from "../zod-mini.ts";
import { successSchema } from "./refusals.ts";

/**
 * How many pending hub notices this call delivered (their hubs confirmed), and how many of those
 * it tried are still pending (their hubs did not answer: the cron trigger tries them again).
 */
export const hubNoticeDeliveryResponseSchema = successSchema({
  delivered: z.number(),
  pending: z.number(),
});
