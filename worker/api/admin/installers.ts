// Installers for admins (docs/admin-area.md, "Installers"): make a verified account an installer,
// list them, and give one boxes (not yet linked) to fit. Every write is on the audit trail.
import { Hono } from "hono";
import { userIdSchema } from "../../../common/admin-schemas.ts";
import {
  installerListResponseSchema,
  installerResponseSchema,
  stockResponseSchema,
} from "../../../common/api-responses/installers.ts";
import { installerRequestSchema, installerStockRequestSchema } from "../../../common/installer-schemas.ts";
import { getDb } from "../../db/client.ts";
import { addToStock, findInstaller, listInstallers, upsertInstaller } from "../../db/installers.ts";
import { findUserByMobileNo } from "../../db/users.ts";
import { apiError } from "../../http/http-error.ts";
import { auditTarget } from "../admin-audit-middleware.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput, readJsonBody } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminInstallerRoutes = new Hono<ApiEnv>()
  .get("/installers", requireAuth("admin"), async (c) => {
    const rows = await listInstallers(getDb(c.env.DB));
    return respond(c, installerListResponseSchema, {
      success: true,
      installers: rows.map(({ installer, mobileNo }) => ({ userId: installer.userId, mobileNo, name: installer.name })),
    });
  })
  .post("/installers", requireAuth("admin"), async (c) => {
    const { mobileNo, name } = await readJsonBody(c, installerRequestSchema);
    const db = getDb(c.env.DB);
    const account = await findUserByMobileNo(db, mobileNo);
    if (!account) throw apiError(404, "userNotFound");
    auditTarget(c, `user:${account.id}`);
    // The farmer calls this number after the hand-over: its holder must have proved it.
    if (account.numberVerifiedAt === null) throw apiError(409, "numberNotVerified");
    const installer = await upsertInstaller(db, {
      userId: account.id,
      name,
      createdByUserId: c.var.user.id,
      now: Date.now(),
    });
    return respond(
      c,
      installerResponseSchema,
      { success: true, installer: { userId: installer.userId, mobileNo, name: installer.name } },
      201,
    );
  })
  .post("/installers/:userId/stock", requireAuth("admin"), async (c) => {
    const userId = parseInput(userIdSchema, c.req.param("userId"));
    auditTarget(c, `user:${userId}`);
    const { deviceIds } = await readJsonBody(c, installerStockRequestSchema);
    const db = getDb(c.env.DB);
    if (!(await findInstaller(db, userId))) throw apiError(404, "notAnInstaller");
    return respond(c, stockResponseSchema, {
      success: true,
      added: await addToStock(db, userId, deviceIds, Date.now()),
    });
  });
