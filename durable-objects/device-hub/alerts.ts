// Alerts with the app closed: the hub hands each one, as a code with an id of its own, to the
// Worker's senders (worker/alerts/deliver.ts), which find who gets this pump's alerts in D1 (its
// owner and operators) and word it in each one's language with the pump's name: Web Push to
// their browsers, SMS and calls to their verified numbers, each once per event. Each SMS and
// call is kept here, in the hub's `alert_deliveries` (alert-deliveries-table.ts), and the
// provider's webhooks about them come back here by the reference the delivery carried
// (worker/alerts/call-webhooks.ts).
import type { AlertDeliveryStatus } from "../../common/alert-channels.ts";
import type { PumpAlert } from "../../common/alerts.ts";
import type { AlertDelivery, DeliveryWebhook } from "../../common/hub-contract.ts";
import { deliverPumpAlert } from "../../worker/alerts/deliver.ts";
import { countOnce, providerOf, sendAlertSms } from "../../worker/alerts/phone-alerts.ts";
import { phoneRecipientsOf } from "../../worker/db/alert-settings.ts";
import { getDb } from "../../worker/db/client.ts";
import { callDurationCounts } from "../../worker/db/phone-alert-counts.ts";
import { AlertDeliveriesTable } from "./alert-deliveries-table.ts";
import type { HubContext } from "./context.ts";
import { Room } from "./room.ts";

/** A call's final statuses that mean nobody heard it: its SMS goes instead. */
const UNANSWERED: ReadonlySet<AlertDeliveryStatus> = new Set(["noAnswer", "busy", "failed", "canceled"]);

export class HubAlerts extends Room {
  readonly deliveries: AlertDeliveriesTable;

  constructor(hub: HubContext) {
    super(hub);
    this.deliveries = new AlertDeliveriesTable(hub.ctx.storage.sql);
  }

  /**
   * Tells the pump's people. Never awaited: a push service that is slow or down must not hold
   * up a command, a broadcast or an alarm (the sender times out and logs every failure). Who
   * gets it is read from D1 when it is sent, not from the hub's copy of owner and members, so
   * an operator invited a moment ago gets it and one removed a moment ago does not. The id makes
   * the event one: its SMS and calls are claimed here under it, once per person and channel.
   * Returns that id, for an alert that a later one follows up (back online).
   */
  raise(alert: PumpAlert): string {
    const eventId = crypto.randomUUID();
    this.hub.ctx.waitUntil(deliverPumpAlert(this.hub.env, this.hub.deviceId, alert, eventId, this.deliveries));
    return eventId;
  }

  /** The alert call a key is about, if the provider's call id is the one it gave us for it. */
  call(webhook: DeliveryWebhook): AlertDelivery | null {
    return this.deliveries.ours(webhook.id, "call", webhook.provider, webhook.providerId);
  }

  /** What the key did on an alert's call, once; false when it already had an outcome. */
  callOutcome(id: number, outcome: string, now: number): boolean {
    return this.deliveries.outcome(id, outcome, now);
  }

  /**
   * A call's status: kept; its duration added to the month's costs once; a call nobody answered
   * sends the alert's SMS (once per event: its claim). False for a call that is not ours.
   */
  async callStatus(
    webhook: DeliveryWebhook,
    status: AlertDeliveryStatus,
    durationSeconds: number | null,
    now: number,
  ): Promise<boolean> {
    const call = this.call(webhook);
    if (!call) return false;
    const db = getDb(this.hub.env.DB);
    const answered = this.deliveries.status(call.id, status, durationSeconds, now);
    await countOnce(db, answered, callDurationCounts(answered?.durationSeconds ?? 0));
    if (!UNANSWERED.has(status)) return true;
    // Read again: only someone who still gets the pump's alerts, at a number still verified.
    const recipient = (await phoneRecipientsOf(db, this.hub.deviceId)).find(
      (person) => person.userId === call.userId && person.verified,
    );
    const provider = providerOf(this.hub.env);
    if (!recipient || !provider) return true;
    await sendAlertSms(
      { db, provider, now, deviceId: this.hub.deviceId, book: this.deliveries },
      {
        eventId: call.eventId,
        userId: call.userId,
        kind: call.kind,
        reason: "callFallback",
        language: call.language,
        values: call.values,
      },
      recipient.mobileNo,
    );
    return true;
  }

  /** An alert SMS's status, kept; false for an SMS that is not ours. */
  smsStatus(webhook: DeliveryWebhook, status: AlertDeliveryStatus, now: number): boolean {
    const sms = this.deliveries.ours(webhook.id, "sms", webhook.provider, webhook.providerId);
    if (!sms) return false;
    this.deliveries.status(sms.id, status, null, now);
    return true;
  }
}
