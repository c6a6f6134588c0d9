// Every kind of motor log entry with the English sentence the hub wrote for it before entries
// had kinds. The catalogue must still word them so, and migration 0007 must read those
// sentences back into these events (`written: false`: no hub ever wrote that sentence).
import type { HubFailureCode, MotorLogEvent } from "../../common/motor-log-event.ts";

export type MotorLogExample = {
  event: MotorLogEvent;
  english: string;
  action: "on" | "off" | "other";
  written?: false;
};

const app = { by: "app" } as const;

/** A switch from the app that the box confirmed (`confirmed`: when). */
function fromApp(relay: "on" | "off", confirmed: "inTime" | "late" | "onReconnect", english: string): MotorLogExample {
  return { action: relay, english, event: { kind: "switched", relay, origin: app, confirmed } };
}

/** A switch by one of the farmer's schedules (`forMinutes`: how long it runs, if it says). */
function scheduled(
  relay: "on" | "off",
  minuteOfDay: number,
  repeat: "once" | "daily",
  forMinutes: number | null,
  confirmed: "inTime" | "late",
  english: string,
): MotorLogExample {
  const origin = { by: "schedule", minuteOfDay, repeat, forMinutes } as const;
  return { action: relay, english, event: { kind: "switched", relay, origin, confirmed } };
}

/** The box said what its relay did (`how`: on what occasion). */
function stated(
  relay: "on" | "off",
  how: Extract<MotorLogEvent, { kind: "stated" }>["how"],
  english: string,
): MotorLogExample {
  return { action: relay, english, event: { kind: "stated", relay, how } };
}

/** A schedule's switch the hub did not carry out, refused with `code`. */
function notRun(action: "on" | "off", minuteOfDay: number, code: HubFailureCode, english: string): MotorLogExample {
  return {
    action: "other",
    english,
    event: { kind: "scheduleNotRun", action, minuteOfDay, failure: { code, error: null } },
  };
}

export const MOTOR_LOG_EXAMPLES: MotorLogExample[] = [
  fromApp("on", "inTime", "Motor turned ON from the app"),
  fromApp("off", "inTime", "Motor turned OFF from the app"),
  fromApp("on", "late", "Motor turned ON from the app (confirmed late)"),
  fromApp("off", "onReconnect", "Motor turned OFF from the app (confirmed when the box reconnected)"),
  scheduled("on", 360, "daily", null, "inTime", "Motor turned ON by schedule (6:00 AM, daily)"),
  scheduled(
    "on",
    5,
    "once",
    30,
    "late",
    "Motor turned ON by schedule (12:05 AM, once, for 30 minutes) (confirmed late)",
  ),
  scheduled("off", 1260, "daily", null, "inTime", "Motor turned OFF by schedule (9:00 PM, daily)"),
  scheduled("on", 765, "daily", 90, "inTime", "Motor turned ON by schedule (12:45 PM, daily, for 90 minutes)"),
  {
    action: "off",
    english: "Motor turned OFF by schedule (after 30 minutes)",
    event: { kind: "switched", relay: "off", origin: { by: "scheduleOff", afterMinutes: 30 }, confirmed: "inTime" },
  },
  {
    action: "off",
    english: "Motor turned OFF by the server: dry run that the box did not stop.",
    event: {
      kind: "switched",
      relay: "off",
      origin: { by: "server", reason: "dryRunNotStopped" },
      confirmed: "inTime",
    },
  },
  {
    action: "off",
    english: "Motor turned OFF by the server: overcurrent that the box did not stop. (confirmed late)",
    event: {
      kind: "switched",
      relay: "off",
      origin: { by: "server", reason: "overCurrentNotStopped" },
      confirmed: "late",
    },
  },
  {
    action: "off",
    english: "Motor turned OFF by the server: it restarted by itself after a power cut.",
    event: {
      kind: "switched",
      relay: "off",
      origin: { by: "server", reason: "restartedAfterPowerCut" },
      confirmed: "inTime",
    },
  },
  {
    action: "other",
    english: "Motor ON from the app: the box did not confirm it (the motor may be running).",
    event: { kind: "unconfirmed", relay: "on", origin: app, why: "noAnswer" },
  },
  {
    action: "other",
    english: "Motor OFF from the app: the box went offline before confirming it (the motor may still be running).",
    event: { kind: "unconfirmed", relay: "off", origin: app, why: "linkLost" },
  },
  {
    action: "other",
    english:
      "Motor ON by schedule (6:30 AM, daily, for 30 minutes): the box did not confirm it (the motor may be running).",
    event: {
      kind: "unconfirmed",
      relay: "on",
      origin: { by: "schedule", minuteOfDay: 390, repeat: "daily", forMinutes: 30 },
      why: "noAnswer",
    },
  },
  {
    action: "other",
    english:
      "Motor OFF by schedule (after 45 minutes): the box went offline before confirming it (the motor may still be running).",
    event: { kind: "unconfirmed", relay: "off", origin: { by: "scheduleOff", afterMinutes: 45 }, why: "linkLost" },
  },
  {
    action: "other",
    english:
      "Motor OFF by the server: dry run that the box did not stop: the box did not confirm it (the motor may still be running).",
    event: { kind: "unconfirmed", relay: "off", origin: { by: "server", reason: "dryRunNotStopped" }, why: "noAnswer" },
  },
  stated("on", "manual", "Motor turned ON (switched at the box)"),
  stated("off", "boxSchedule", "Motor turned OFF (by the box's schedule)"),
  stated("off", "restart", "Motor turned OFF (box restarted)"),
  stated("on", "reported", "Motor turned ON (reported by the box)"),
  stated("off", "reconnected", "Motor turned OFF (reported by the box when it reconnected)"),
  stated("on", "afterPowerCut", "Motor turned ON (restarted by the box after the power cut)"),
  {
    action: "on",
    english: "Motor is running without a confirmed command (9.1 A).",
    event: { kind: "runningWithoutCommand", current: 9.1 },
  },
  { action: "other", english: "Motor is ON but draws no current.", event: { kind: "noCurrent" } },
  {
    action: "off",
    english: "Dry run detected. Motor turned OFF automatically.",
    event: { kind: "tripDryRun", current: null },
  },
  {
    action: "off",
    english: "Overcurrent detected. Motor turned OFF!",
    event: { kind: "tripOverCurrent", current: null },
  },
  {
    action: "off",
    english: "Low voltage (318 V) below the 340 V limit. Motor turned OFF.",
    event: { kind: "tripUnderVoltage", volts: 318, limit: 340 },
    written: false,
  },
  {
    action: "off",
    english: "High voltage above the 255 V limit. Motor turned OFF.",
    event: { kind: "tripOverVoltage", volts: null, limit: 255 },
    written: false,
  },
  {
    action: "off",
    english: "Unbalanced phases (8.4 %) over the 6 % limit. Motor turned OFF.",
    event: { kind: "tripVoltageUnbalance", percent: 8.4, limit: 6 },
    written: false,
  },
  {
    action: "off",
    english: "Motor turned OFF by the server: low voltage that the box did not stop.",
    event: {
      kind: "switched",
      relay: "off",
      origin: { by: "server", reason: "underVoltageNotStopped" },
      confirmed: "inTime",
    },
    written: false,
  },
  {
    action: "off",
    english: "Phase fault detected: Phase Y missing. Motor operation is disabled.",
    event: { kind: "phaseFault", phase: "Y", detail: "Phase Y missing" },
  },
  {
    action: "off",
    english: "Phase fault detected: R-Y imbalance 12%. Motor operation is disabled.",
    event: { kind: "phaseFault", phase: null, detail: "R-Y imbalance 12%" },
  },
  {
    action: "off",
    english: "Phase fault detected. Motor operation is disabled.",
    event: { kind: "phaseFault", phase: null, detail: null },
  },
  {
    action: "off",
    english: "Phase fault detected on phase B. Motor operation is disabled.",
    event: { kind: "phaseFault", phase: "B", detail: null },
    written: false,
  },
  { action: "other", english: "Phase is OK now.", event: { kind: "phaseOk" } },
  { action: "off", english: "Power cut at the pump. Motor stopped.", event: { kind: "powerLost" } },
  {
    action: "other",
    english: "Power is back at the pump. The motor stays OFF until someone switches it on.",
    event: { kind: "powerRestored" },
  },
  // Kinds newer than the motor log's kinds: no hub ever wrote them as a sentence.
  { action: "other", english: "The box was opened (theft alert sent).", event: { kind: "tamper" }, written: false },
  { action: "other", english: "The box is closed again.", event: { kind: "tamperOk" }, written: false },
  {
    action: "other",
    english: "Power went while the motor ran, but pumps nearby kept theirs: the cable may be cut (theft alert sent).",
    event: { kind: "cableCut" },
    written: false,
  },
  {
    action: "other",
    english: "The server could not switch the motor OFF (dry run that the box did not stop). Check the pump.",
    event: { kind: "serverOffFailed", reason: "dryRunNotStopped" },
  },
  {
    action: "other",
    english: "The server could not switch the motor OFF (it restarted by itself after a power cut). Check the pump.",
    event: { kind: "serverOffFailed", reason: "restartedAfterPowerCut" },
  },
  {
    action: "other",
    english: "Mobile number changed to 9123456780. The box restarts.",
    event: { kind: "mobileNoChanged", mobileNo: "9123456780" },
  },
  {
    action: "other",
    english: "Firmware update to 2.4.0 refused: battery low.",
    event: { kind: "otaRefused", version: "2.4.0", error: "battery low" },
  },
  {
    action: "other",
    english: "Firmware update to 2.4.0 refused: the box refused it.",
    event: { kind: "otaRefused", version: "2.4.0", error: null },
  },
  { action: "other", english: "Firmware update to 2.4.0 started.", event: { kind: "otaStarted", version: "2.4.0" } },
  { action: "other", english: "Firmware updated to 2.4.0.", event: { kind: "otaDone", version: "2.4.0" } },
  {
    action: "other",
    english: "Firmware update to 2.4.0 failed: SHA-256 mismatch.",
    event: { kind: "otaFailed", version: "2.4.0", reason: "box", error: "SHA-256 mismatch", firmware: null },
  },
  {
    action: "other",
    english: "Firmware update to 2.4.0 failed: the box reported a failure.",
    event: { kind: "otaFailed", version: "2.4.0", reason: "box", error: null, firmware: null },
  },
  {
    action: "other",
    english: "Firmware update to 2.4.0 failed: the box restarted with 2.3.0.",
    event: { kind: "otaFailed", version: "2.4.0", reason: "otherVersion", error: null, firmware: "2.3.0" },
  },
  {
    action: "other",
    english: "Firmware update to 2.4.0 failed: no answer from the box within 10 minutes.",
    event: { kind: "otaFailed", version: "2.4.0", reason: "timeout", error: null, firmware: null },
  },
  {
    action: "other",
    english: "Scheduled ON at 5:30 AM was missed: the device was offline.",
    event: { kind: "scheduleMissed", action: "on", minuteOfDay: 330, reason: "offline" },
  },
  {
    action: "other",
    english: "Scheduled OFF at 11:59 PM was missed: the server could not run it on time.",
    event: { kind: "scheduleMissed", action: "off", minuteOfDay: 1439, reason: "late" },
  },
  {
    action: "other",
    english:
      "Scheduled ON at 8:15 PM was not carried out: Phase fault detected. Motor operation is disabled until the phase is OK.",
    event: { kind: "scheduleNotRun", action: "on", minuteOfDay: 1215, failure: { code: "phaseFault", error: null } },
  },
  notRun("on", 420, "noSupply", "Scheduled ON at 7:00 AM was not carried out: There is no mains power at the pump."),
  notRun("on", 420, "cooldown", "Scheduled ON at 7:00 AM was not carried out: Please wait for cooldown."),
  notRun(
    "on",
    420,
    "busy",
    "Scheduled ON at 7:00 AM was not carried out: Another command is in progress. Please wait.",
  ),
  notRun("off", 600, "rejected", "Scheduled OFF at 10:00 AM was not carried out: The device refused the command."),
  {
    action: "other",
    english: "Scheduled ON at 10:00 AM was not carried out: Phase fault: motor held off.",
    event: {
      kind: "scheduleNotRun",
      action: "on",
      minuteOfDay: 600,
      failure: { code: "rejected", error: "Phase fault: motor held off" },
    },
  },
  {
    action: "other",
    english:
      "Scheduled switch-off (after 10 minutes) failed: Device is offline. Check its power and network, then try again. Trying again every minute.",
    event: { kind: "scheduleOffFailed", afterMinutes: 10, failure: { code: "offline", error: null } },
  },
  {
    action: "other",
    english:
      "Scheduled switch-off (after 10 minutes) failed: The device did not confirm the command. Check the motor status and try again. Trying again every minute.",
    event: { kind: "scheduleOffFailed", afterMinutes: 10, failure: { code: "timeout", error: null } },
  },
  {
    action: "other",
    english:
      "Scheduled switch-off (after 20 minutes) failed: The device went offline before confirming the command. The motor may have switched. Trying again every minute.",
    event: { kind: "scheduleOffFailed", afterMinutes: 20, failure: { code: "linkLost", error: null } },
  },
  {
    action: "other",
    english: "Scheduled switch-off (after 60 minutes) was given up after a day of failed attempts. Check the pump.",
    event: { kind: "scheduleOffGivenUp", afterMinutes: 60 },
  },
  {
    action: "on",
    english: "Motor turned ON by the power window (10:00 PM–6:00 AM) with power present, 40 minutes of 120 to run",
    event: {
      kind: "switched",
      relay: "on",
      origin: { by: "powerWindow", fromMinute: 1320, toMinute: 360, runMinutes: 120, leftMinutes: 40 },
      confirmed: "inTime",
    },
    written: false,
  },
  {
    action: "off",
    english: "Motor turned OFF by the power window: run complete, 120 of 120 minutes run",
    event: {
      kind: "switched",
      relay: "off",
      origin: { by: "powerWindowEnd", reason: "complete", ranMinutes: 120, runMinutes: 120 },
      confirmed: "inTime",
    },
    written: false,
  },
  {
    action: "other",
    english:
      "Power-window run paused by a power cut after 80 of 120 minutes; it runs the rest if power returns before 6:00 AM.",
    event: { kind: "powerWindowPaused", reason: "powerCut", ranMinutes: 80, runMinutes: 120, toMinute: 360 },
    written: false,
  },
  {
    action: "other",
    english: "Power-window run (10:00 PM–6:00 AM) ended after 0 of 120 minutes: no power came in the window.",
    event: {
      kind: "powerWindowEnded",
      reason: "noSupply",
      ranMinutes: 0,
      runMinutes: 120,
      fromMinute: 1320,
      toMinute: 360,
    },
    written: false,
  },
  { action: "other", english: "Pump serviced by Ramesh", event: { kind: "legacy", text: "Pump serviced by Ramesh" } },
];
