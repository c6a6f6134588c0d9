// Alerts with the app closed (Web Push): each browser of a farmer saves its subscription with
// the kinds of alerts it wants and the language to word them in; the DeviceHub sends them
// (worker/push/push-alerts.ts). Farmers only: an admin session gets 403.
import { Hono } from "hono";
import { translateApi } from "../../app/i18n/api.ts";
import {
  subscriptionRenewedResponseSchema,
  subscriptionResponseSchema,
  subscriptionSavedResponseSchema,
} from "../../common/api-responses/alerts.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import {
  endpointQuerySchema,
  endpointRequestSchema,
  renewSubscriptionSchema,
  saveSubscriptionSchema,
} from "../../common/push-schemas.ts";
import { getDb } from "../db/client.ts";
import { deleteSubscription, findSubscription, renewSubscription, saveSubscription } from "../db/push-subscriptions.ts";
import type { PushSubscriptionRow } from "../db/schema.ts";
import { apiError } from "../http/http-error.ts";
import { sendAlert } from "../push/push-alerts.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

/** What the settings screen needs to know about a browser's subscription (never its keys). */
function view(row: PushSubscriptionRow) {
  return { endpoint: row.endpoint, kinds: row.kinds, language: row.language, lastSentAt: row.lastSentAt };
}

export const pushRoutes = new Hono<ApiEnv>()
  .get("/subscriptions", requireAuth("user"), async (c) => {
    const { endpoint } = parseInput(endpointQuerySchema, c.req.query());
    const row = await findSubscription(getDb(c.env.DB), c.var.user.id, endpoint);
    return respond(c, subscriptionResponseSchema, { success: true, subscription: row ? view(row) : null });
  })
  .put("/subscriptions", requireAuth("user"), async (c) => {
    const input = await readJsonBody(c, saveSubscriptionSchema);
    const row = await saveSubscription(getDb(c.env.DB), c.var.user.id, {
      ...input.subscription,
      kinds: input.kinds,
      language: input.language,
    });
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
    const row = await renewSubscription(getDb(c.env.DB), c.var.user.id, oldEndpoint, subscription);
    if (!row) throw apiError(404, "notSubscribed");
    return respond(c, subscriptionRenewedResponseSchema, { success: true, subscription: view(row) });
  })
  .post("/test", requireAuth("user"), async (c) => {
    const { endpoint } = await readJsonBody(c, endpointRequestSchema);
    if (!(await findSubscription(getDb(c.env.DB), c.var.user.id, endpoint))) throw apiError(404, "notSubscribed");
    const [delivery] = await sendAlert(c.env, c.var.user.id, { kind: "test" }, { endpoint });
    // 201 from the push service: it took the message; the browser shows it when it gets it.
    const delivered = delivery !== undefined && delivery.status >= 200 && delivery.status < 300;
    if (!delivered) throw apiError(502, "pushNotTaken");
    return respond(c, messageResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.testAlertSent"),
    });
  });
