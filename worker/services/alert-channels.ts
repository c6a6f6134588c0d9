// How each alert reaches a farmer besides the app, read and saved the same way by the API
// (PUT /api/alerts/channels) and the /alerts page's form (docs/telephony.md, "Alerts by SMS and
// call"). SMS and calls need a verified number: until then choosing them is refused, and what is
// stored stays in the app (worker/alerts/phone-alerts.ts sends nothing to an unverified number).
import type { SaveAlertChannels } from "../../common/alert-channel-schemas.ts";
import { DAILY_ALERT_CAPS } from "../../common/alert-channels.ts";
import { type AlertSettings, alertSettingsOf, isNumberVerified, saveAlertSettings } from "../db/alert-settings.ts";
import { type Db, getDb } from "../db/client.ts";
import { phoneAlertsToday } from "../db/phone-alert-counts.ts";
import { type Refusal, refuse } from "./refusal.ts";

/** An account's alert channels, whether its number may get SMS and calls, and today's count against the caps. */
export function alertChannelsView(env: Env, userId: number) {
  return channelsView(getDb(env.DB), userId);
}

async function channelsView(db: Db, userId: number, settings?: AlertSettings) {
  const [current, numberVerified, today] = await Promise.all([
    settings ?? alertSettingsOf(db, userId),
    isNumberVerified(db, userId),
    phoneAlertsToday(db, userId),
  ]);
  return { ...current, numberVerified, today, caps: { ...DAILY_ALERT_CAPS } };
}

/** Saves the choices; refused (409 alertsNeedVerifiedNumber) when one is SMS or call and the number is not verified. */
export async function saveAlertChannels(
  env: Env,
  userId: number,
  input: SaveAlertChannels,
): Promise<({ ok: true } & Awaited<ReturnType<typeof channelsView>>) | Refusal> {
  const db = getDb(env.DB);
  const byPhone = Object.values(input.channels).some((channel) => channel === "sms" || channel === "call");
  if (byPhone && !(await isNumberVerified(db, userId))) return refuse(409, "alertsNeedVerifiedNumber");
  return { ok: true, ...(await channelsView(db, userId, await saveAlertSettings(db, userId, input))) };
}
