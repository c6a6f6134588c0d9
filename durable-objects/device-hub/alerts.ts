// Alerts with the app closed: the hub hands each one, as a code, to the Web Push sender, which
// finds the phones that get this pump's alerts in D1 (its owner's and operators') and words it
// in each phone's language with the pump's name (worker/push/push-alerts.ts).
import type { PumpAlert } from "../../common/alerts.ts";
import type { RelayState } from "../../common/device-protocol.ts";
import { sendPumpAlert } from "../../worker/push/push-alerts.ts";
import { Room } from "./room.ts";

export class HubAlerts extends Room {
  /**
   * Tells the pump's people. Never awaited: a push service that is slow or down must not hold
   * up a command, a broadcast or an alarm (the sender times out and logs every failure). Who
   * gets it is read from D1 when it is sent, not from the hub's copy of owner and members, so
   * an operator invited a moment ago gets it and one removed a moment ago does not.
   */
  raise(alert: PumpAlert): void {
    this.hub.ctx.waitUntil(sendPumpAlert(this.hub.env, this.hub.deviceId, alert));
  }

  /** A scheduled run the box confirmed late: its alert replaces the "not carried out" one. */
  scheduleDone(scheduleId: number, action: RelayState): void {
    const schedule = this.hub.sql.schedule(scheduleId);
    if (schedule)
      this.raise({ kind: "schedule", outcome: "done", action, minuteOfDay: schedule.minuteOfDay, reason: null });
  }
}
