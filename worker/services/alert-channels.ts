// How each alert reaches a farmer besides the app, read and saved the same way by the API
// (PUT /api/alerts/channels) and the /alerts page's form (docs/telephony.md, "Alerts by SMS and
// call"). SMS and calls need a verified number: until then choosing them is refused, and what is
// stored stays in the app (worker/alerts/phone-alerts.ts sends nothing to an unverified number).
import type { SaveAlertChannels } from "../../common/alert-channel-schemas.ts";
import { DAILY_ALERT_CAPS } from "../../common/alert-channels.ts";
import {
  type AlertSettings,
  alertSettingsOf,
  isNumberVerified,
  phoneAlertsToday,
  saveAlertSettings,
} from "../db/alert-deliveries.ts";
import type { Db } from "../db/client.ts";
import { apiError } from "../http/http-error.ts";

/** An account's alert channels, whether its number may get SMS and calls, and today's count against the caps. */
export async function alertChannelsView(db: Db, userId: number, settings?: AlertSettings) {
  const [current, numberVerified, today] = await Promise.all([
    settings ?? alertSettingsOf(db, userId),
    isNumberVerified(db, userId),
    phoneAlertsToday(db, userId),
  ]);
  return { ...current, numberVerified, today, caps: { ...DAILY_ALERT_CAPS } };
}

/** Saves the choices; 409 alertsNeedVerifiedNumber when one is SMS or call and the number is not verified. */
export async function saveAlertChannels(db: Db, userId: number, input: SaveAlertChannels) {
  const byPhone = Object.values(input.channels).some((channel) => channel === "sms" || channel === "call");
  if (byPhone && !(await isNumberVerified(db, userId))) throw apiError(409, "alertsNeedVerifiedNumber");
  return alertChannelsView(db, userId, await saveAlertSettings(db, userId, input));
}
