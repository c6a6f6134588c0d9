// GET /api/admin/motor-logs?mobileNo=N or ?deviceId=ID, and &before=ID for the next page: the
// motor log of one farmer's boxes or of one box, newest first, 20 a page. Never the whole
// fleet's: each box's log is in its own hub (docs/decisions/045-history-lives-with-its-box.md).
import { Hono } from "hono";
import { adminMotorLogsQuerySchema } from "../../../common/admin-schemas.ts";
import { adminMotorLogsResponseSchema } from "../../../common/api-responses/admin.ts";
import { ADMIN_LOGS_PAGE_SIZE } from "../../../common/constants.ts";
import { apiError } from "../../http/http-error.ts";
import { boxMotorLogs } from "../../services/admin-activity.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput } from "../input.ts";
import { apiLanguage } from "../language.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminMotorLogRoutes = new Hono<ApiEnv>().get("/motor-logs", requireAuth("admin"), async (c) => {
  const { filter, before } = parseInput(adminMotorLogsQuerySchema, c.req.query());
  const page = await boxMotorLogs(c.env, filter, before, ADMIN_LOGS_PAGE_SIZE, apiLanguage(c.req.raw));
  if (!page) throw apiError(404, "mobileNo" in filter ? "userNotFound" : "deviceNotFound");
  return respond(c, adminMotorLogsResponseSchema, { success: true, ...page });
});
