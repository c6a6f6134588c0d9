// What the dashboard keeps on the phone for when there is no network (./last-state.ts): the
// schema it is read back with. The page reads it through app/checks/generated.ts, which
// scripts/generate-browser-checks.ts writes from this schema, so the page downloads no zod.
import { pumpStateSchema } from "../../common/pump-state.ts";
import { motorLogEntrySchema, powerDataSchema } from "../../common/realtime-protocol.ts";
import { z } from "../../common/zod-mini.ts";

export const lastStateSchema = z.object({
  /** Whose pump: the account's number for its first box, number and box id for any other. */
  pumpKey: z.string(),
  /** Until when (phone clock, ms) this was live: the last message from the hub, or the drop. */
  knownAt: z.number(),
  pump: pumpStateSchema,
  powerData: powerDataSchema,
  lastLogs: z.array(motorLogEntrySchema),
});
export type LastState = z.infer<typeof lastStateSchema>;
