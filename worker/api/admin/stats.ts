// GET /api/admin/dashboard-stats (SPEC §7): the four dashboard counts.
import { Hono } from "hono";
import { dashboardStatsResponseSchema } from "../../../common/api-responses/admin.ts";
import { dashboardStats } from "../../db/admin-stats.ts";
import { getDb } from "../../db/client.ts";
import { readsThatMayLag } from "../../db/reads-that-may-lag.ts";
import type { ApiEnv } from "../context.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminStatsRoutes = new Hono<ApiEnv>().get("/dashboard-stats", requireAuth("admin"), async (c) => {
  return respond(c, dashboardStatsResponseSchema, {
    success: true,
    stats: await dashboardStats(getDb(readsThatMayLag(c.env)), Date.now()),
  });
});
