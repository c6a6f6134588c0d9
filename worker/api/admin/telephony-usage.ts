// GET /api/admin/telephony-usage?month=2026-11 (admins): each account's alerts by SMS and call in
// an IST month (this month when left out), with its estimated cost at the environment's prices
// (worker/services/telephony-usage.ts, docs/telephony.md "Costs").
import { Hono } from "hono";
import { telephonyUsageQuerySchema } from "../../../common/admin-schemas.ts";
import { telephonyUsageResponseSchema } from "../../../common/api-responses/admin.ts";
import { istMonth, telephonyUsage } from "../../services/telephony-usage.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminTelephonyUsageRoutes = new Hono<ApiEnv>().get("/telephony-usage", requireAuth("admin"), async (c) => {
  const { month } = parseInput(telephonyUsageQuerySchema, c.req.query());
  const usage = await telephonyUsage(c.env, month ?? istMonth(Date.now()));
  return respond(c, telephonyUsageResponseSchema, { success: true, ...usage });
});
