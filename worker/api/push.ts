// Alerts with the app closed (Web Push): each browser of a farmer saves its subscription with
// the kinds of alerts it wants and the language to word them in; the DeviceHub sends them
// (worker/push/push-alerts.ts). Farmers only: an admin session gets 403. A subscription is the
// session's that saved it and ends with it; its address must be a push service's.
import { Hono } from "hono";
import {
  subscriptionRenewedResponseSchema,
  subscriptionResponseSchema,
  subscriptionSavedResponseSchema,
} from "../../common/api-responses/alerts.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import { translateApi } from "../../common/i18n/api.ts";
import {
  endpointQuerySchema,
  endpointRequestSchema,
  renewSubscriptionSchema,
  saveSubscriptionSchema,
} from "../../common/push-schemas.ts";
import { guardPushTest } from "../auth/throttle.ts";
import { getDb } from "../db/client.ts";
import { deleteSubscription, findSubscription, saveSubscription } from "../db/push-subscriptions.ts";
import type { PushSubscriptionRow } from "../db/schema.ts";
import { apiError } from "../http/http-error.ts";
import { sendTestAlert } from "../push/push-alerts.ts";
import { isAllowedPushEndpoint } from "../push/push-endpoint.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

/** What the settings screen needs to know about a browser's subscription (never its keys). */
function view(row: PushSubscriptionRow) {
  return { endpoint: row.endpoint, kinds: row.kinds, language: row.language, lastSentAt: row.lastSentAt };
}

/** 400 unless the Worker may send to `endpoint` (a push service's own host). */
function requirePushService(env: Env & { PUSH_TEST_HOSTS?: string }, endpoint: string): void {
  if (!isAllowedPushEndpoint(endpoint, env.PUSH_TEST_HOSTS)) throw apiError(400, "pushEndpointNotAllowed");
}

export const pushRoutes = new Hono<ApiEnv>()
  .get("/subscriptions", requireAuth("user"), async (c) => {
    const { endpoint } = parseInput(endpointQuerySchema, c.req.query());
    const row = await findSubscription(getDb(c.env.DB), c.var.user.id, endpoint);
    return respond(c, subscriptionResponseSchema, { success: true, subscription: row ? view(row) : null });
  })
  .put("/subscriptions", requireAuth("user"), async (c) => {
    const input = await readJsonBody(c, saveSubscriptionSchema);
    requirePushService(c.env, input.subscription.endpoint);
    const { id: userId, sessionId } = c.var.user;
    const row = await saveSubscription(
      getDb(c.env.DB),
      { userId, sessionId },
      { ...input.subscription, kinds: input.kinds, language: input.language },
    );
    if (row === "taken") throw apiError(409, "pushEndpointTaken");
    return respond(c, subscriptionSavedResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.alertsSaved"),
      subscription: view(row),
    });
  })
  .delete("/subscriptions", requireAuth("user"), async (c) => {
    const { endpoint } = await readJsonBody(c, endpointRequestSchema);
    if (!(await deleteSubscription(getDb(c.env.DB), c.var.user.id, endpoint))) throw apiError(404, "notSubscribed");
    return respond(c, messageResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.alertsOff"),
    });
  })
  .post("/subscriptions/renew", requireAuth("user"), async (c) => {
    const { oldEndpoint, subscription } = await readJsonBody(c, renewSubscriptionSchema);
    requirePushService(c.env, subscription.endpoint);
    const db = getDb(c.env.DB);
    const { id: userId, sessionId } = c.var.user;
    const old = await findSubscription(db, userId, oldEndpoint);
    if (!old) throw apiError(404, "notSubscribed");
    const row = await saveSubscription(
      db,
      { userId, sessionId },
      { ...subscription, kinds: old.kinds, language: old.language },
      Date.now(),
      oldEndpoint,
    );
    if (row === "taken") throw apiError(409, "pushEndpointTaken");
    return respond(c, subscriptionRenewedResponseSchema, { success: true, subscription: view(row) });
  })
  .post("/test", requireAuth("user"), async (c) => {
    const { endpoint } = await readJsonBody(c, endpointRequestSchema);
    await guardPushTest(c.env, c.var.user);
    const [delivery] = await sendTestAlert(c.env, c.var.user.id, endpoint);
    if (!delivery) throw apiError(404, "notSubscribed");
    // 201 from the push service: it took the message; the browser shows it when it gets it.
    const delivered = delivery.status >= 200 && delivery.status < 300;
    if (!delivered) throw apiError(502, "pushNotTaken");
    return respond(c, messageResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.testAlertSent"),
    });
  });
