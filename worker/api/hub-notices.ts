// POST /api/hub-notices: delivers the hub notices pending in D1 (worker/services/hub-notices.ts).
// For `npm run device -- assign`, which changes D1 directly and has no way to reach a hub: it
// calls this after its batch, so the hub hears of the new owner now rather than at the next cron
// run. Anyone may call it (the CLI has no session): it takes no input and can only make hubs
// reload from D1 what D1 already says, and it is throttled per client address.
import { Hono } from "hono";
import { hubNoticeDeliveryResponseSchema } from "../../common/api-responses/hub-notices.ts";
import { authClientOf, guardNoticeDelivery } from "../auth/throttle.ts";
import { deliverPendingHubNotices } from "../services/hub-notices.ts";
import type { ApiEnv } from "./context.ts";
import { respond } from "./respond.ts";

export const hubNoticeRoutes = new Hono<ApiEnv>().post("/", async (c) => {
  await guardNoticeDelivery(c.env, await authClientOf(c.env, c.req.raw));
  const { delivered, pending } = await deliverPendingHubNotices(c.env);
  return respond(c, hubNoticeDeliveryResponseSchema, {
    success: true,
    delivered: delivered.length,
    pending: pending.length,
  });
});
