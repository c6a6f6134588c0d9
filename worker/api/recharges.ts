// Connectivity recharges (SPEC §7): farmers request, admins mark paid or failed, or delete.
// A paid request extends the device's plan by the plan's length.
import { Hono } from "hono";
import {
  planResponseSchema,
  rechargeListResponseSchema,
  rechargeRequestResponseSchema,
} from "../../common/api-responses/recharges.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import { rechargeRequestSchema, rechargeStatusRequestSchema } from "../../common/api-schemas.ts";
import { z } from "../../common/zod.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwner } from "../db/devices.ts";
import { listPlanPeriods, markRechargePaid, planCard } from "../db/plans.ts";
import { readsThatMayLag } from "../db/reads-that-may-lag.ts";
import {
  deleteRechargeRequest,
  findRechargeRequest,
  listRechargeRequestsOfUser,
  markRechargeFailed,
  toRechargeView,
} from "../db/recharges.ts";
import { apiError } from "../http/http-error.ts";
import { noDeviceError } from "../hubs/hub-failures.ts";
import { requestOwnRecharge } from "../services/recharge-requests.ts";
import { refusalError } from "../services/refusal.ts";
import { auditTarget } from "./admin-audit-middleware.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

export const rechargeIdSchema = z.coerce
  .number({ error: "Not a request id." })
  .int()
  .positive({ error: "Not a request id." });

export const rechargeRoutes = new Hono<ApiEnv>()
  .post("/request", requireAuth("user"), async (c) => {
    const input = await readJsonBody(c, rechargeRequestSchema);
    const result = await requestOwnRecharge(c.env, c.var.user, input);
    if (!result.ok) throw refusalError(result);
    return respond(
      c,
      rechargeRequestResponseSchema,
      {
        success: true,
        message: "Recharge request submitted successfully!",
        request: toRechargeView(result.request),
        upiLink: result.upiLink,
      },
      201,
    );
  })
  .get("/requests", requireAuth("user"), async (c) => {
    const rows = await listRechargeRequestsOfUser(getDb(c.env.DB), c.var.user.id);
    return respond(c, rechargeListResponseSchema, { success: true, data: rows.map(toRechargeView) });
  })
  .get("/plan", requireAuth("user"), async (c) => {
    // Which box is theirs from the primary (a hand-over is an access change); its plan, which
    // only an admin or a payment changes, may be a few seconds behind.
    const device = await findDeviceByOwner(getDb(c.env.DB), c.var.user.id);
    if (!device) throw noDeviceError();
    return respond(c, planResponseSchema, {
      success: true,
      plan: planCard(await listPlanPeriods(getDb(readsThatMayLag(c.env)), device.id), Date.now()),
    });
  })
  .put("/status/:id", requireAuth("admin"), async (c) => {
    const id = parseInput(rechargeIdSchema, c.req.param("id"));
    auditTarget(c, `recharge:${id}`);
    const { status } = await readJsonBody(c, rechargeStatusRequestSchema);
    const db = getDb(c.env.DB);
    const request = await findRechargeRequest(db, id);
    if (!request) throw apiError(404, "rechargeNotFound");
    if (request.status !== "pending") {
      throw apiError(409, "rechargeNotPending", { status: request.status });
    }
    const now = Date.now();
    if (status === "paid" && !request.deviceId) {
      throw apiError(409, "rechargeNoDevice");
    }
    const changed =
      status === "paid"
        ? await markRechargePaid(db, request, c.var.user.id, now)
        : await markRechargeFailed(db, id, c.var.user.id, now);
    if (!changed) throw apiError(409, "rechargeChanged");
    return respond(c, messageResponseSchema, { success: true, message: "Status updated" });
  })
  .delete("/:id", requireAuth("admin"), async (c) => {
    const id = parseInput(rechargeIdSchema, c.req.param("id"));
    auditTarget(c, `recharge:${id}`);
    if (!(await deleteRechargeRequest(getDb(c.env.DB), id))) throw apiError(404, "rechargeNotFound");
    return respond(c, messageResponseSchema, { success: true, message: "Request deleted" });
  });
