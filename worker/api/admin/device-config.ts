// PUT /api/admin/device-config (SPEC §7): debug mode, or a new mobile number for a device.

import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { deviceConfigResponseSchema } from "../../../common/api-responses/admin.ts";
import { deviceConfigRequestSchema } from "../../../common/api-schemas.ts";
import { MOBILE_NO_PATTERN } from "../../../common/constants.ts";
import { getDb } from "../../db/client.ts";
import { findDeviceByOwnerMobileNo } from "../../db/devices.ts";
import { deviceMembers, users } from "../../db/schema.ts";
import { findUserByMobileNo } from "../../db/users.ts";
import { apiError } from "../../http/http-error.ts";
import { deviceHub } from "../../hubs/device-hubs.ts";
import { hubFailureError } from "../../hubs/hub-failures.ts";
import { auditTarget } from "../admin-audit-middleware.ts";
import type { ApiEnv } from "../context.ts";
import { readJsonBody } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminDeviceConfigRoutes = new Hono<ApiEnv>().put("/device-config", requireAuth("admin"), async (c) => {
  const body = await readJsonBody(c, deviceConfigRequestSchema);
  auditTarget(c, body.mobileNo);
  const db = getDb(c.env.DB);
  const found = await findDeviceByOwnerMobileNo(db, body.mobileNo);
  if (!found) throw apiError(404, "noDeviceForNumber");
  const hub = deviceHub(c.env, found.device.id);

  if ("debug" in body) {
    const result = await hub.setDebug(body.debug);
    if (!result.ok) throw hubFailureError(result);
    return respond(c, deviceConfigResponseSchema, {
      success: true,
      message: body.debug ? "Debug mode on." : "Debug mode off.",
      debug: body.debug,
    });
  }

  // SPEC §5: 10 digits, first 1-9; different from the current number.
  const newMobile = body.newMobile.trim();
  if (!MOBILE_NO_PATTERN.test(newMobile)) throw apiError(400, "invalidMobile");
  if (newMobile === body.mobileNo) throw apiError(400, "sameNumber");
  if (await findUserByMobileNo(db, newMobile)) {
    throw apiError(409, "numberTaken");
  }
  // The account keeps its id, sessions and logs; only its number (its login) changes, and
  // nobody has proved yet that they hold the new one (docs/decisions/027-verified-numbers.md).
  await db.batch([
    db.update(users).set({ mobileNo: newMobile, numberVerifiedAt: null }).where(eq(users.id, found.ownerUserId)),
    // Memberships are kept by number: they follow the person to the new one.
    db.update(deviceMembers).set({ mobileNo: newMobile }).where(eq(deviceMembers.mobileNo, body.mobileNo)),
  ]);
  const result = await hub.changeMobileNo(newMobile);
  if (!result.ok) throw hubFailureError(result);
  return respond(c, deviceConfigResponseSchema, {
    success: true,
    message: "Mobile number update sent!",
    mobileNo: newMobile,
    deliveredToDevice: result.delivered,
  });
});
