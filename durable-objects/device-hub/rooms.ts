// The rooms of one hub instance, wired in the order they depend on each other: each takes the
// hub's context and the rooms built before it that it works with (room.ts).
import { HubAlerts } from "./alerts.ts";
import { BrowserRequests } from "./browser-requests.ts";
import { Browsers } from "./browsers.ts";
import { MotorCommands } from "./commands.ts";
import { Commissioning } from "./commissioning.ts";
import type { HubContext } from "./context.ts";
import { DebugLines } from "./debug-lines.ts";
import { DeviceFrames } from "./device-frames.ts";
import { DeviceLink } from "./device-link.ts";
import { FreshReadings } from "./fresh-readings.ts";
import { MotorLog } from "./motor-log.ts";
import { OfflineAlert } from "./offline-alert.ts";
import { FirmwareUpdates } from "./ota.ts";
import { takeOvertakenInFlight } from "./overtaken-switches.ts";
import { OwedSwitchOffs } from "./owed-switch-offs.ts";
import { PersonSchedules } from "./person-schedules.ts";
import { PersonSwitch } from "./person-switch.ts";
import { PowerHistory } from "./power-history.ts";
import { Protection } from "./protection.ts";
import { afterRestart } from "./pump-model.ts";
import { PumpView } from "./pump-view.ts";
import { ScheduleBook } from "./schedule-book.ts";
import { Schedules } from "./schedules.ts";
import { Settings } from "./settings.ts";
import type { FrameAllowance } from "./socket-caps.ts";
import { SocketEvents } from "./socket-events.ts";
import { Theft } from "./theft.ts";
import { Usage } from "./usage.ts";
import { WindowRuns } from "./window-runs.ts";

export type HubRooms = ReturnType<typeof openRooms>;

/**
 * What an instance does before any event reaches it (DeviceHub's constructor runs it under
 * blockConcurrencyWhile, its state just loaded): the restart's own consequences, the rooms
 * wired, and what a stopped hub left undone picked up again.
 */
export function startRooms(hub: HubContext, allowance: FrameAllowance): HubRooms {
  // A command in flight when the hub stopped (a deploy, a crash) will never hear its ack in time.
  const restarted = afterRestart(hub.state.current, Date.now());
  if (restarted) hub.state.save(restarted);
  hub.stats.countWake();
  const rooms = openRooms(hub, allowance);
  // ...and its log says so for each, the newest and those it overtook, as for any command left
  // unanswered (commands.ts): never silence.
  const newest = restarted?.pendingSwitch;
  for (const lost of [...takeOvertakenInFlight(hub.ctx.storage), ...(newest ? [newest] : [])])
    rooms.log.record("other", { kind: "unconfirmed", relay: lost.relay, origin: lost.origin, why: "noAnswer" });
  // Schedules are the truth, their wake-up timer only a copy: restore it if a crash lost it.
  hub.timers.syncSchedules();
  // A belief changed by the restart itself (above) is counted from here.
  rooms.usage.follow(Date.now());
  return rooms;
}

/** `allowance`: the box's frame allowance, which the hub object keeps (device-hub.ts says why). */
export function openRooms(hub: HubContext, allowance: FrameAllowance) {
  const usage = new Usage(hub);
  const log = new MotorLog(hub);
  const alerts = new HubAlerts(hub);
  const offs = new OwedSwitchOffs(hub);
  const book = new ScheduleBook(hub, { alerts });
  const view = new PumpView(hub, { log, offs });
  const commands = new MotorCommands(hub, { log, view, usage, offs, book }, allowance);
  const readings = new FreshReadings(hub, { commands });
  const theft = new Theft(hub, { log, alerts, commands });
  const protection = new Protection(hub, { commands, log, view, alerts, theft });
  const power = new PowerHistory(hub, { usage });
  const debug = new DebugLines(hub);
  const ota = new FirmwareUpdates(hub, { commands, log });
  const offlineAlert = new OfflineAlert(hub, { alerts });
  const link = new DeviceLink(hub, { commands, ota, view, offlineAlert, alerts, usage });
  const windows = new WindowRuns(hub, { commands, log, alerts, book });
  const commissioning = new Commissioning(hub, { commands, readings });
  const frames = new DeviceFrames(
    hub,
    { link, commands, protection, power, ota, debug, view, windows, commissioning },
    allowance,
  );
  const browsers = new Browsers(hub, { view, debug, link });
  const person = new PersonSwitch(hub, { commands });
  const requests = new BrowserRequests(hub, { browsers, person });
  const schedules = new Schedules(hub, { commands, log, alerts, windows, view, book, offs });
  const settings = new Settings(hub, { commands, log, browsers, schedules });
  const personSchedules = new PersonSchedules(hub, { schedules });
  const sockets = new SocketEvents(hub, { link, frames, requests, browsers, commissioning });
  // The schedules' wake-up follows the earliest of what the three schedule rooms have due.
  hub.timers.followSchedules(() => earliest(book.nextRunAt(), offs.nextDue(), windows.nextWake()));
  return {
    hub,
    usage,
    log,
    alerts,
    offs,
    book,
    view,
    commands,
    readings,
    protection,
    power,
    debug,
    ota,
    link,
    frames,
    browsers,
    person,
    requests,
    windows,
    schedules,
    settings,
    personSchedules,
    sockets,
    commissioning,
    theft,
    offlineAlert,
  };
}

function earliest(...times: (number | null)[]): number | null {
  const known = times.filter((time) => time !== null);
  return known.length === 0 ? null : Math.min(...known);
}
