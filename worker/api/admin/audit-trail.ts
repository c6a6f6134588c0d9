// GET /api/admin/audit?page=&limit=&adminId=&target= : the admin audit trail, newest first,
// paged on the server like the motor logs (docs/decisions/007-admin-audit-trail.md).
import { Hono } from "hono";
import { auditQuerySchema } from "../../../common/admin-schemas.ts";
import { auditPageResponseSchema } from "../../../common/api-responses/admin.ts";
import { listAuditEntries } from "../../db/admin-audit-trail.ts";
import { getDb } from "../../db/client.ts";
import { readsThatMayLag } from "../../db/reads-that-may-lag.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminAuditRoutes = new Hono<ApiEnv>().get("/audit", requireAuth("admin"), async (c) => {
  const { page, limit, adminId, target } = parseInput(auditQuerySchema, c.req.query());
  return respond(c, auditPageResponseSchema, {
    success: true,
    ...(await listAuditEntries(getDb(readsThatMayLag(c.env)), { adminId, target }, page, limit)),
  });
});
