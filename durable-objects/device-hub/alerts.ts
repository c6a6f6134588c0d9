// Alerts with the app closed: the hub hands each one, as a code with an id of its own, to the
// Worker's senders (worker/alerts/deliver.ts), which find who gets this pump's alerts in D1 (its
// owner and operators) and word it in each one's language with the pump's name: Web Push to
// their browsers, SMS and calls to their verified numbers, each once per event.
import type { PumpAlert } from "../../common/alerts.ts";
import { deliverPumpAlert } from "../../worker/alerts/deliver.ts";
import { Room } from "./room.ts";

export class HubAlerts extends Room {
  /**
   * Tells the pump's people. Never awaited: a push service that is slow or down must not hold
   * up a command, a broadcast or an alarm (the sender times out and logs every failure). Who
   * gets it is read from D1 when it is sent, not from the hub's copy of owner and members, so
   * an operator invited a moment ago gets it and one removed a moment ago does not. The id makes
   * the event one: its SMS and calls are claimed in D1 under it, once per person and channel.
   * Returns that id, for an alert that a later one follows up (back online).
   */
  raise(alert: PumpAlert): string {
    const eventId = crypto.randomUUID();
    this.hub.ctx.waitUntil(deliverPumpAlert(this.hub.env, this.hub.deviceId, alert, eventId));
    return eventId;
  }
}
