// Accounts for admins (SPEC §7): the list (or those a search by number or box id finds), live
// device statuses, one user, role changes and deletion. Deleting ends the account's sessions and unbinds its boxes at once
// (worker/services/account-deletion.ts).
import { Hono } from "hono";
import {
  deleteUserRequestSchema,
  fleetSearchQuerySchema,
  updateUserRoleRequestSchema,
  userIdSchema,
} from "../../../common/admin-schemas.ts";
import {
  adminUserResponseSchema,
  deviceStatusesResponseSchema,
  userListResponseSchema,
  userRoleResponseSchema,
} from "../../../common/api-responses/admin.ts";
import { accessChangeResponseSchema } from "../../../common/api-responses/refusals.ts";
import { closeSessionSockets } from "../../auth/session-sockets.ts";
import { deviceStatuses, findAdminUserView, listUsersForAdmin, setUserRole } from "../../db/admin-users.ts";
import { getDb } from "../../db/client.ts";
import { readsThatMayLag } from "../../db/reads-that-may-lag.ts";
import { apiError } from "../../http/http-error.ts";
import { deleteAccount } from "../../services/account-deletion.ts";
import { HUB_NOT_CONFIRMED } from "../../services/hub-notices.ts";
import { auditTarget } from "../admin-audit-middleware.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput, readJsonBody } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminUserRoutes = new Hono<ApiEnv>()
  .get("/users", requireAuth("admin"), async (c) => {
    const { q } = parseInput(fleetSearchQuerySchema, c.req.query());
    return respond(c, userListResponseSchema, {
      success: true,
      users: await listUsersForAdmin(getDb(readsThatMayLag(c.env)), q),
    });
  })
  .get("/device-statuses", requireAuth("admin"), async (c) => {
    return respond(c, deviceStatusesResponseSchema, {
      success: true,
      statuses: await deviceStatuses(getDb(readsThatMayLag(c.env))),
    });
  })
  .get("/user/:id", requireAuth("admin"), async (c) => {
    const id = parseInput(userIdSchema, c.req.param("id"));
    const user = await findAdminUserView(getDb(c.env.DB), { id });
    if (!user) throw apiError(404, "userNotFound");
    return respond(c, adminUserResponseSchema, { success: true, user });
  })
  .put("/update-user-role", requireAuth("admin"), async (c) => {
    const { userId, isAdmin } = await readJsonBody(c, updateUserRoleRequestSchema);
    auditTarget(c, `user:${userId}`);
    const outcome = await setUserRole(getDb(c.env.DB), userId, isAdmin, Date.now());
    if (outcome === "notFound") throw apiError(404, "userNotFound");
    if (outcome === "lastAdmin") throw apiError(409, "lastAdmin");
    // The admin sessions ended with the role; so do the admin consoles they had open.
    if (!isAdmin && outcome === "changed")
      await closeSessionSockets(c.env, { userId, audience: "admin" }, "accessRemoved");
    return respond(c, userRoleResponseSchema, {
      success: true,
      message: isAdmin ? "The account is now an admin." : "The account is no longer an admin.",
      user: { id: userId, isAdmin },
      // The caller removed their own role: their admin session has just ended.
      signedOut: !isAdmin && userId === c.var.user.id && outcome === "changed",
    });
  })
  .delete("/delete-user", requireAuth("admin"), async (c) => {
    const { mobileNo } = await readJsonBody(c, deleteUserRequestSchema);
    auditTarget(c, mobileNo);
    if (mobileNo === c.var.user.mobileNo) {
      throw apiError(409, "deleteSelf");
    }
    const deletion = await deleteAccount(c.env, mobileNo);
    if (deletion.outcome !== "deleted") {
      throw deletion.outcome === "notFound" ? apiError(404, "userNotFound") : apiError(409, "lastAdmin");
    }
    const done = "User deleted successfully!";
    return respond(c, accessChangeResponseSchema, {
      success: true,
      message: deletion.hubConfirmed ? done : `${done} ${HUB_NOT_CONFIRMED}`,
      hubConfirmed: deletion.hubConfirmed,
    });
  });
