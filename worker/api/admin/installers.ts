// Installers for admins (docs/admin-area.md, "Installers"): make a verified account an installer,
// list them, give one boxes (not yet linked) to fit or take unused ones back, set the region whose
// boxes they may claim, and tag boxes with a region. The work is worker/services/admin-installers.ts,
// shared with the /admin/installers page. Every write is on the audit trail.
import { type Context, Hono } from "hono";
import { userIdSchema } from "../../../common/admin-schemas.ts";
import {
  boxRegionResponseSchema,
  installerListResponseSchema,
  installerRegionResponseSchema,
  installerResponseSchema,
  stockResponseSchema,
  stockReturnResponseSchema,
} from "../../../common/api-responses/installers.ts";
import {
  boxRegionRequestSchema,
  installerRegionRequestSchema,
  installerRequestSchema,
  installerStockRequestSchema,
} from "../../../common/installer-schemas.ts";
import type { z } from "../../../common/zod.ts";
import {
  giveStock,
  installerList,
  makeInstaller,
  setRegion,
  tagBoxes,
  takeBackStock,
} from "../../services/admin-installers.ts";
import { auditTarget } from "../admin-audit-middleware.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput, readJsonBody } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

/**
 * The installer's account the path names (`:userId`), the target of the admin's action on the
 * audit trail, and the request's body.
 */
async function installerRequest<T>(c: Context<ApiEnv>, schema: z.ZodType<T>): Promise<{ userId: number; body: T }> {
  const userId = parseInput(userIdSchema, c.req.param("userId"));
  auditTarget(c, `user:${userId}`);
  return { userId, body: await readJsonBody(c, schema) };
}

export const adminInstallerRoutes = new Hono<ApiEnv>()
  .get("/installers", requireAuth("admin"), async (c) =>
    respond(c, installerListResponseSchema, { success: true, installers: await installerList(c.env) }),
  )
  .post("/installers", requireAuth("admin"), async (c) => {
    const { mobileNo, name } = await readJsonBody(c, installerRequestSchema);
    const installer = await makeInstaller(c.env, {
      mobileNo,
      name,
      adminUserId: c.var.user.id,
      onTarget: (target) => auditTarget(c, target),
    });
    return respond(c, installerResponseSchema, { success: true, installer }, 201);
  })
  .post("/installers/:userId/stock", requireAuth("admin"), async (c) => {
    const { userId, body } = await installerRequest(c, installerStockRequestSchema);
    return respond(c, stockResponseSchema, { success: true, added: await giveStock(c.env, userId, body.deviceIds) });
  })
  .delete("/installers/:userId/stock", requireAuth("admin"), async (c) => {
    const { userId, body } = await installerRequest(c, installerStockRequestSchema);
    const removed = await takeBackStock(c.env, userId, body.deviceIds);
    return respond(c, stockReturnResponseSchema, { success: true, removed });
  })
  .put("/installers/:userId/region", requireAuth("admin"), async (c) => {
    const { userId, body } = await installerRequest(c, installerRegionRequestSchema);
    const installer = await setRegion(c.env, userId, body.region);
    return respond(c, installerRegionResponseSchema, { success: true, installer });
  })
  .put("/box-regions", requireAuth("admin"), async (c) => {
    const { deviceIds, region } = await readJsonBody(c, boxRegionRequestSchema);
    return respond(c, boxRegionResponseSchema, { success: true, tagged: await tagBoxes(c.env, deviceIds, region) });
  });
