// Alerts with the app closed: the hub hands each one, as a code, to the Web Push sender for the
// owner's phones (worker/push/push-alerts.ts words it in each phone's language).
import type { Alert } from "../../common/alerts.ts";
import type { RelayState } from "../../common/device-protocol.ts";
import { sendAlert } from "../../worker/push/push-alerts.ts";
import { Room } from "./room.ts";

export class HubAlerts extends Room {
  /**
   * Tells the owner's phones. Never awaited: a push service that is slow or down must not hold
   * up a command, a broadcast or an alarm (the sender times out and logs every failure).
   */
  raise(alert: Alert): void {
    const owner = this.hub.state.current.owner;
    if (!owner) return;
    this.hub.ctx.waitUntil(sendAlert(this.hub.env, owner.userId, alert));
  }

  /** A scheduled run the box confirmed late: its alert replaces the "not carried out" one. */
  scheduleDone(scheduleId: number, action: RelayState): void {
    const schedule = this.hub.sql.schedule(scheduleId);
    if (schedule)
      this.raise({ kind: "schedule", outcome: "done", action, minuteOfDay: schedule.minuteOfDay, reason: null });
  }
}
