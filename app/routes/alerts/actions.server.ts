// The channels form on the server: each kind's channel, saved through the same service as
// PUT /api/alerts/channels, in the page's language for the SMS and calls.
import { data } from "react-router";
import { saveAlertChannelsSchema } from "../../../common/alert-channel-schemas.ts";
import { PHONE_ALERT_KINDS } from "../../../common/alert-channels.ts";
import { saveAlertChannels } from "../../../worker/services/alert-channels.ts";
import { languageOf } from "../../../worker/services/page-request.ts";
import type { AuthenticatedUser } from "../../../worker/services/page-session.ts";
import { refusalError } from "../../../worker/services/refusal.ts";
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
  const saved = await saveAlertChannels(env, user.id, parsed.data);
  if (saved.ok) return { notice: { key: "alerts.saved", tone: "success" } satisfies Notice };
  if (saved.code === "alertsNeedVerifiedNumber") return refused("alerts.channels.unverified", 409);
  throw refusalError(saved);
}
