// The alert for a box gone while its motor ran (docs/telephony.md, "Alerts by SMS and call"):
// held for OFFLINE_ALERT_GRACE_MS, so a link that stalls for seconds calls nobody; raised once
// when the box is still gone then; and, when the box comes back after it went, followed by
// "back online" to the same people. Kept in KV with the timer: a restarted hub still knows.
// Timers and hellos may come twice: the stored record makes each step happen once.
import { OFFLINE_ALERT_GRACE_MS } from "../../common/constants.ts";
import type { HubAlerts } from "./alerts.ts";
import { Room } from "./room.ts";
import { TIMERS } from "./timers.ts";

/** The box went while the motor ran: when it was last heard, and the alert's event once raised. */
const OFFLINE_ALERT_KEY = "offline-alert";
type Held = { lastSeenAt: number | null; eventId: string | null };

export class OfflineAlert extends Room<{ alerts: HubAlerts }> {
  /** The box is gone and the motor was ON: the alert waits for the grace, unless one is already held or out. */
  hold(lastSeenAt: number | null, now: number): void {
    const { kv } = this.hub.ctx.storage;
    if (kv.get<Held>(OFFLINE_ALERT_KEY) !== undefined) return;
    kv.put(OFFLINE_ALERT_KEY, { lastSeenAt, eventId: null } satisfies Held);
    this.hub.timers.set(TIMERS.offlineAlert, now + OFFLINE_ALERT_GRACE_MS);
  }

  /** The grace is over: alert if the box is still gone and nobody was told yet. */
  raiseIfStillGone(): void {
    const { ctx, state } = this.hub;
    const held = ctx.storage.kv.get<Held>(OFFLINE_ALERT_KEY);
    if (held === undefined || held.eventId !== null) return;
    if (state.current.online) {
      ctx.storage.kv.delete(OFFLINE_ALERT_KEY);
      return;
    }
    const eventId = this.rooms.alerts.raise({ kind: "offlineWhileOn", lastSeenAt: held.lastSeenAt });
    ctx.storage.kv.put(OFFLINE_ALERT_KEY, { ...held, eventId } satisfies Held);
  }

  /** The box said hello: within the grace nobody hears of it; after an alert, "back online" follows it. */
  onBack(): void {
    const { ctx, timers } = this.hub;
    const held = ctx.storage.kv.get<Held>(OFFLINE_ALERT_KEY);
    if (held === undefined) return;
    ctx.storage.kv.delete(OFFLINE_ALERT_KEY);
    timers.delete(TIMERS.offlineAlert);
    if (held.eventId !== null)
      this.rooms.alerts.raise({ kind: "offlineWhileOn", lastSeenAt: held.lastSeenAt, backOf: held.eventId });
  }
}
