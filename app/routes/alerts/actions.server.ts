// The channels form on the server: each kind's channel, saved through the same service as
// PUT /api/alerts/channels, in the page's language for the SMS and calls.
import { data } from "react-router";
import { saveAlertChannelsSchema } from "../../../common/alert-channel-schemas.ts";
import { PHONE_ALERT_KINDS } from "../../../common/alert-channels.ts";
import type { AuthenticatedUser } from "../../../worker/auth/sessions.ts";
import { getDb } from "../../../worker/db/client.ts";
import { HttpError } from "../../../worker/http/http-error.ts";
import { languageOf } from "../../../worker/http/request-language.ts";
import { saveAlertChannels } from "../../../worker/services/alert-channels.ts";
import { field } from "../../form-field.ts";
import type { MessageKey } from "../../i18n/i18n.ts";
import type { Notice } from "./phone-channels.tsx";

export const refused = (key: MessageKey, status: number) =>
  data<{ notice: Notice }>({ notice: { key, tone: "error" } }, { status });

export async function saveChannels(request: Request, env: Env, user: AuthenticatedUser, form: FormData) {
  const channels = Object.fromEntries(
    PHONE_ALERT_KINDS.flatMap((kind) => (form.has(`channel.${kind}`) ? [[kind, field(form, `channel.${kind}`)]] : [])),
  );
  const parsed = saveAlertChannelsSchema.safeParse({ channels, language: languageOf(request) });
  if (!parsed.success) return refused("alerts.failed", 400);
  try {
    await saveAlertChannels(getDb(env.DB), user.id, parsed.data);
    return { notice: { key: "alerts.saved", tone: "success" } satisfies Notice };
  } catch (error) {
    if (error instanceof HttpError && error.code === "alertsNeedVerifiedNumber")
      return refused("alerts.channels.unverified", 409);
    throw error;
  }
}
