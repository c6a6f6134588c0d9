// A pump's alert, raised once by its DeviceHub, to everyone who gets it: Web Push to their
// browsers (worker/push/push-alerts.ts) and SMS and calls to their verified numbers
// (phone-alerts.ts), side by side. The hub's one way out for an alert; it never awaits it.
import type { PumpAlert } from "../../common/alerts.ts";
import type { AlertDeliveryBook } from "../../common/hub-contract.ts";
import { type PushEnv, sendPumpAlert } from "../push/push-alerts.ts";
import { type PhoneAlertEnv, sendPhoneAlert } from "./phone-alerts.ts";

export async function deliverPumpAlert(
  env: PushEnv & PhoneAlertEnv,
  deviceId: string,
  alert: PumpAlert,
  eventId: string,
  deliveries: AlertDeliveryBook,
): Promise<void> {
  await Promise.all([sendPumpAlert(env, deviceId, alert), sendPhoneAlert(env, deviceId, alert, eventId, deliveries)]);
}
