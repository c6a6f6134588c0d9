// GET /api/admin/motor-logs?page=N (SPEC §7): every device's motor logs, paginated here on
// the server (SPEC §9: 20 a page).
import { Hono } from "hono";
import { motorLogsPageQuerySchema } from "../../../common/admin-schemas.ts";
import { adminMotorLogsResponseSchema } from "../../../common/api-responses/admin.ts";
import { ADMIN_LOGS_PAGE_SIZE } from "../../../common/constants.ts";
import { listMotorLogsForAdmin } from "../../db/admin-motor-logs.ts";
import { getDb } from "../../db/client.ts";
import { readsThatMayLag } from "../../db/reads-that-may-lag.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput } from "../input.ts";
import { apiLanguage } from "../language.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminMotorLogRoutes = new Hono<ApiEnv>().get("/motor-logs", requireAuth("admin"), async (c) => {
  const { page } = parseInput(motorLogsPageQuerySchema, c.req.query());
  const language = apiLanguage(c.req.raw);
  return respond(c, adminMotorLogsResponseSchema, {
    success: true,
    ...(await listMotorLogsForAdmin(getDb(readsThatMayLag(c.env)), page, ADMIN_LOGS_PAGE_SIZE, language)),
  });
});
