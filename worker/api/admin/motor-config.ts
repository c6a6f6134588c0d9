// An account's motor configuration for admins (SPEC §7): change it (saved with a history entry
// and pushed to the box) and read its history.
import { Hono } from "hono";
import { adminMotorConfigRequestSchema } from "../../../common/admin-schemas.ts";
import { configHistoryResponseSchema } from "../../../common/api-responses/admin.ts";
import { motorConfigResponseSchema } from "../../../common/api-responses/devices.ts";
import { type MotorConfig, mobileNoSchema } from "../../../common/api-schemas.ts";
import { configHistoryForAdmin } from "../../db/admin-users.ts";
import { getDb } from "../../db/client.ts";
import type { UserRow } from "../../db/schema.ts";
import { findUserByMobileNo } from "../../db/users.ts";
import { apiError } from "../../http/http-error.ts";
import { changeMotorConfig } from "../../services/motor-config.ts";
import { auditTarget } from "../admin-audit-middleware.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput, readJsonBody } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

const FIELDS = [
  ["defaultCurrent", "default current", " A"],
  ["dryRunThreshold", "dry run threshold", " %"],
  ["overCurrentThreshold", "over current threshold", " %"],
] as const satisfies readonly (readonly [keyof MotorConfig, string, string])[];

/** The history's change note: who changed what, e.g. "Admin 9000000001: default current 1 → 8.9 A". */
export function adminChangeNote(adminMobileNo: string, before: MotorConfig, after: MotorConfig): string {
  const changes = FIELDS.filter(([field]) => before[field] !== after[field]).map(
    ([field, label, unit]) => `${label} ${before[field]} → ${after[field]}${unit}`,
  );
  return `Admin ${adminMobileNo}: ${changes.length ? changes.join(", ") : "saved without changes"}`;
}

const configOf = (user: UserRow): MotorConfig => ({
  defaultCurrent: user.defaultCurrent,
  dryRunThreshold: user.dryRunThreshold,
  overCurrentThreshold: user.overCurrentThreshold,
});

export const adminMotorConfigRoutes = new Hono<ApiEnv>()
  .put("/update-motor-config", requireAuth("admin"), async (c) => {
    const { mobileNo, ...config } = await readJsonBody(c, adminMotorConfigRequestSchema);
    auditTarget(c, mobileNo);
    const owner = await findUserByMobileNo(getDb(c.env.DB), mobileNo);
    if (!owner) throw apiError(404, "userNotFound");
    const admin = c.var.user;
    const { deliveredToDevice } = await changeMotorConfig(c.env, {
      userId: owner.id,
      config,
      changedByUserId: admin.id,
      changeNote: adminChangeNote(admin.mobileNo, configOf(owner), config),
    });
    return respond(c, motorConfigResponseSchema, {
      success: true,
      message: "Configuration updated!",
      motorConfig: config,
      deliveredToDevice,
    });
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
