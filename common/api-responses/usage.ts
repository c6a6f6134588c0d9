// Answers of GET /api/pumps/{deviceId}/usage (common/api-responses/refusals.ts says how these are
// used): a box's run hours, starts and energy per India day (docs/decisions/019).
import { z } from "../zod-mini.ts";
import { successSchema } from "./refusals.ts";

/** One IST day; a day the motor did not run is there with zeros. */
const usageDaySchema = z.object({
  /** The IST calendar day, "2026-11-23". */
  date: z.string(),
  runningMinutes: z.number(),
  starts: z.int(),
  /** An estimate from the box's wattage readings (never metered). */
  kwh: z.number(),
});

export const pumpUsageSchema = z.object({
  /** Oldest first, the last one today (a run still going counts up to `asOf`). */
  days: z.array(usageDaySchema),
  totals: z.object({ runningMinutes: z.number(), starts: z.int(), kwh: z.number() }),
  asOf: z.string(),
});
export type PumpUsage = z.infer<typeof pumpUsageSchema>;

/** GET /api/pumps/{deviceId}/usage?days=7. */
export const pumpUsageResponseSchema = successSchema({ usage: pumpUsageSchema });
