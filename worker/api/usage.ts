// A box's run hours, starts and estimated energy per India day (docs/decisions/019): as JSON in
// the API's shape, or as a CSV download the pages link to (it works without JavaScript).
import type { Context } from "hono";
import { type PumpUsage, pumpUsageResponseSchema } from "../../common/api-responses/usage.ts";
import { USAGE_RETENTION_DAYS } from "../../common/pump-usage.ts";
import { z } from "../../common/zod.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput } from "./input.ts";
import { respond } from "./respond.ts";

export const pumpUsageQuery = z.object({
  days: z.coerce.number().int().min(1).max(USAGE_RETENTION_DAYS).default(7),
  format: z.enum(["json", "csv"]).default("json"),
});

/**
 * GET /api/pumps/{deviceId}/usage?days=7[&format=csv], for a box the caller may see; days before
 * `since` (logs.ts, sinceFor) are zeros.
 */
export async function pumpUsageAnswer(
  c: Context<ApiEnv>,
  deviceId: string,
  since: number | undefined,
): Promise<Response> {
  const { days, format } = parseInput(pumpUsageQuery, c.req.query());
  const usage = await deviceHub(c.env, deviceId).usage(days, since ?? null);
  if (format === "json") return respond(c, pumpUsageResponseSchema, { success: true, usage });
  return new Response(usageCsv(usage), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${usageFileName(deviceId, usage)}"`,
    },
  });
}

/** One row a day, oldest first, under a header; kWh is the box's wattage integrated (an estimate). */
export function usageCsv(usage: PumpUsage): string {
  const rows = usage.days.map((day) => [day.date, day.runningMinutes, day.starts, day.kwh].join(","));
  return `${["date,running_minutes,starts,kwh_estimate", ...rows].join("\r\n")}\r\n`;
}

/** "sinchai-usage-SNC-8F3A21-2026-11-17-to-2026-11-23.csv": a device id is letters, digits and dashes. */
function usageFileName(deviceId: string, usage: PumpUsage): string {
  const first = usage.days[0]?.date ?? "";
  const last = usage.days.at(-1)?.date ?? "";
  return `sinchai-usage-${deviceId}-${first}-to-${last}.csv`;
}
