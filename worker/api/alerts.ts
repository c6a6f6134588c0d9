// Alerts by SMS and call (docs/telephony.md, "Alerts by SMS and call"): a farmer reads and sets,
// per kind, how each alert reaches them (the app only, an SMS, or a call followed by an SMS when
// unanswered) and the language of their SMS and calls. Farmers only: an admin session gets 403.
// SMS and calls need a verified number (worker/services/alert-channels.ts).
import { Hono } from "hono";
import { saveAlertChannelsSchema } from "../../common/alert-channel-schemas.ts";
import { alertChannelsResponseSchema, alertChannelsSavedResponseSchema } from "../../common/api-responses/alerts.ts";
import { translateApi } from "../../common/i18n/api.ts";
import { alertChannelsView, saveAlertChannels } from "../services/alert-channels.ts";
import { refusalError } from "../services/refusal.ts";
import type { ApiEnv } from "./context.ts";
import { readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

export const alertRoutes = new Hono<ApiEnv>()
  .get("/channels", requireAuth("user"), async (c) => {
    const view = await alertChannelsView(c.env, c.var.user.id);
    return respond(c, alertChannelsResponseSchema, { success: true, ...view });
  })
  .put("/channels", requireAuth("user"), async (c) => {
    const input = await readJsonBody(c, saveAlertChannelsSchema);
    const saved = await saveAlertChannels(c.env, c.var.user.id, input);
    if (!saved.ok) throw refusalError(saved);
    const { ok: _ok, ...view } = saved;
    return respond(c, alertChannelsSavedResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.alertsSaved"),
      ...view,
    });
  });
