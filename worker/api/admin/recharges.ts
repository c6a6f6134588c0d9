import { Hono } from "hono";
import { rechargeListResponseSchema } from "../../../common/api-responses/recharges.ts";
import { getDb } from "../../db/client.ts";
import { readsThatMayLag } from "../../db/reads-that-may-lag.ts";
import { listRechargeRequests, toRechargeView } from "../../db/recharges.ts";
import type { ApiEnv } from "../context.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

/** GET /api/admin/recharge-requests (SPEC §7): every request, newest first. */
export const adminRechargeRoutes = new Hono<ApiEnv>().get("/recharge-requests", requireAuth("admin"), async (c) => {
  const rows = await listRechargeRequests(getDb(readsThatMayLag(c.env)));
  return respond(c, rechargeListResponseSchema, { success: true, data: rows.map(toRechargeView) });
});
