// The hub's one alarm, multiplexed over named timers (timers.ts). Alarms are at-least-once:
// every timer handler must be safe to run twice.
import type { HubRooms } from "./rooms.ts";
import { isTimerName, TIMERS } from "./timers.ts";

/** A timer whose handler threw runs again this much later (runAlarm). */
export const TIMER_RETRY_MS = 30_000;

/**
 * Runs the timers due by `now`, each on its own: one that throws is logged and set again
 * TIMER_RETRY_MS later, and the others of the same delivery still run (a throw out of alarm()
 * would have the runtime retry all of them). Then the schedules due.
 */
export async function runAlarm(rooms: HubRooms, now: number): Promise<void> {
  const { hub, schedules, view } = rooms;
  for (const name of hub.timers.takeDue(now)) {
    try {
      await runTimer(rooms, name, now);
    } catch (error) {
      hub.logError(`timer ${name} failed; set again in ${TIMER_RETRY_MS / 1000} s`, error);
      if (isTimerName(name)) hub.timers.set(name, now + TIMER_RETRY_MS);
    }
  }
  try {
    await schedules.runDue();
  } catch (error) {
    hub.logError("running due schedules failed", error);
  }
  hub.timers.syncAlarm();
  view.publish();
}

async function runTimer(rooms: HubRooms, name: string, now: number): Promise<void> {
  const { hub, link, ota, settings, power, browsers, theft, offlineAlert, log } = rooms;
  switch (name) {
    case TIMERS.liveness:
      await link.checkLiveness(now);
      return;
    case TIMERS.otaTimeout:
      await ota.onTimeout(now);
      return;
    case TIMERS.debugOff:
      await settings.debugOff();
      return;
    case TIMERS.prunePower:
      power.prune(now);
      return;
    case TIMERS.schedules:
      return; // only a wake-up: due schedules run after the timers, whatever woke the hub
    case TIMERS.sessionExpiry:
      browsers.closeExpiredSessions(now);
      return;
    case TIMERS.supplyCut:
      await theft.compareWithFeeder();
      return;
    case TIMERS.activityCopy:
      await log.activity.copy();
      return;
    case TIMERS.flushLogs:
      return; // left by a hub that wrote its log to D1: the log lives here now, nothing waits
    case TIMERS.offlineAlert:
      offlineAlert.raiseIfStillGone();
      return;
    default:
      hub.logError(`unknown timer ${name}`);
  }
}
