// Answers of /api/logs/*: a device's motor logs and power history (common/api-responses/refusals.ts
// says how these are used).

import { motorLogEntrySchema } from "../realtime-protocol.ts";
import { z } from "../zod-mini.ts";

/** GET /api/logs/motor/{mobileNo}: a bare list (SPEC §7), newest first. */
export const motorLogsResponseSchema = z.array(motorLogEntrySchema);

/** GET /api/logs/power/{mobileNo}: a bare list, one sample a minute while running. */
export const powerHistoryResponseSchema = z.array(
  z.object({ id: z.int(), current: z.number(), wattage: z.number(), timestamp: z.string() }),
);
