// Accounts for admins (SPEC §7): the list, live device statuses, one user, role changes and
// deletion. Deleting ends the account's sessions and unbinds its device at once.
import { Hono } from "hono";
import { deleteUserRequestSchema, updateUserRoleRequestSchema, userIdSchema } from "../../../common/admin-schemas.ts";
import {
  adminUserResponseSchema,
  deviceStatusesResponseSchema,
  userListResponseSchema,
  userRoleResponseSchema,
} from "../../../common/api-responses/admin.ts";
import { messageResponseSchema } from "../../../common/api-responses/refusals.ts";
import { closeSessionSockets } from "../../auth/session-sockets.ts";
import {
  deleteUserAccount,
  deviceStatuses,
  findAdminUserView,
  listUsersForAdmin,
  setUserRole,
} from "../../db/admin-users.ts";
import { getDb } from "../../db/client.ts";
import { deleteMembershipsOf } from "../../db/device-members.ts";
import { apiError } from "../../http/http-error.ts";
import { deviceHub } from "../../hubs/device-hubs.ts";
import { auditTarget } from "../admin-audit-middleware.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput, readJsonBody } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminUserRoutes = new Hono<ApiEnv>()
  .get("/users", requireAuth("admin"), async (c) => {
    return respond(c, userListResponseSchema, { success: true, users: await listUsersForAdmin(getDb(c.env.DB)) });
  })
  .get("/device-statuses", requireAuth("admin"), async (c) => {
    return respond(c, deviceStatusesResponseSchema, { success: true, statuses: await deviceStatuses(getDb(c.env.DB)) });
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
    const db = getDb(c.env.DB);
    const deletion = await deleteUserAccount(db, mobileNo);
    if (deletion.outcome !== "deleted") {
      throw deletion.outcome === "notFound" ? apiError(404, "userNotFound") : apiError(409, "lastAdmin");
    }
    await closeSessionSockets(c.env, { userId: deletion.userId }, "accessRemoved");
    // D1 has unbound the boxes (ON DELETE SET NULL); their hubs must forget the owner too, so
    // nobody watches or switches them under the old number.
    // The boxes shared with the number forget it too: whoever registers it next starts with none.
    const sharedWith = await deleteMembershipsOf(db, mobileNo);
    await Promise.all(
      [...deletion.deviceIds, ...sharedWith].map((deviceId) => deviceHub(c.env, deviceId).refreshAccess()),
    );
    return respond(c, messageResponseSchema, { success: true, message: "User deleted successfully!" });
  });
