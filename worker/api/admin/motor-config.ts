// A motor's configuration for admins (SPEC §7, keyed by the owner's number: the account's
// first box, or kept for it while the account has none): change it (saved with a history entry
// and pushed to the box) and read the account's history.
import { Hono } from "hono";
import { adminMotorConfigRequestSchema } from "../../../common/admin-schemas.ts";
import { configHistoryResponseSchema } from "../../../common/api-responses/admin.ts";
import { mobileNoSchema } from "../../../common/api-schemas.ts";
import { configHistoryForAdmin } from "../../db/admin-users.ts";
import { getDb } from "../../db/client.ts";
import { findUserByMobileNo } from "../../db/users.ts";
import { apiError } from "../../http/http-error.ts";
import { changeAccountMotorConfig } from "../../services/motor-config.ts";
import { auditTarget } from "../admin-audit-middleware.ts";
import type { ApiEnv } from "../context.ts";
import { configSavedAnswer } from "../devices.ts";
import { parseInput, readJsonBody } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminMotorConfigRoutes = new Hono<ApiEnv>()
  .put("/update-motor-config", requireAuth("admin"), async (c) => {
    const { mobileNo, confirmWeakerProtection, ...config } = await readJsonBody(c, adminMotorConfigRequestSchema);
    auditTarget(c, mobileNo);
    // SPEC §7 keys this by number: the account's first box, or kept for it until it has one.
    const saved = await changeAccountMotorConfig(c.env, {
      mobileNo,
      config,
      admin: c.var.user,
      confirmedWeaker: confirmWeakerProtection === true,
    });
    return configSavedAnswer(c, "Configuration updated!", saved);
  })
  .get("/motor-config-history/:mobileNo", requireAuth("admin"), async (c) => {
    const mobileNo = parseInput(mobileNoSchema, c.req.param("mobileNo"));
    const db = getDb(c.env.DB);
    const owner = await findUserByMobileNo(db, mobileNo);
    if (!owner) throw apiError(404, "userNotFound");
    return respond(c, configHistoryResponseSchema, {
      success: true,
      history: await configHistoryForAdmin(db, owner.id),
    });
  });
