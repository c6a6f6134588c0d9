// What a page makes of each realtime message (SPEC §4): the live state it leaves behind, and
// what else the page does about it (a toast with its alert sound, reading its loader again, a
// debug line), as data. One exhaustive switch over the protocol's union, so a new message type
// does not compile until it is handled here. Pure: no clock, no language, no browser, tested in
// Node message by message (tests/app/live-device.test.ts).
import { LIVE_MOTOR_LOG_LIMIT } from "../../common/constants.ts";
import type { BrowserCloseReason } from "../../common/hub-contract.ts";
import type { MotorLogEvent } from "../../common/motor-log-event.ts";
import type { RealtimeMessage } from "../../common/realtime-protocol.ts";
import type { MessageKey, MessageValues } from "../i18n/i18n.ts";

/** What the hub vouches for, as its `initialData` carries it (the page loader's snapshot too). */
export type LiveSnapshot = Omit<Extract<RealtimeMessage, { type: "initialData" }>, "type">;

/**
 * What pages show live. Status, presence and faults are read from the pump state alone, so the
 * snapshot's older fields that repeat them (`motorStatus`, `deviceStatus`, `phaseFault`) are
 * not kept, and the messages that carry only those change nothing here.
 */
export type LiveDeviceState = Pick<LiveSnapshot, "pump" | "powerData" | "lastLogs" | "health" | "debug"> & {
  connected: boolean;
  /** Why the hub closed the socket for good (signed out, pump relinked...), else null. */
  ended: BrowserCloseReason | null;
  /** Attempts in a row that never opened: no network, or the server out of reach. */
  failedAttempts: number;
  /** Until when (phone clock, ms) the hub was heard from: its last message, or the drop. Null before. */
  liveUntil: number | null;
};

/** A toast's words, worded by the page in its reader's language. */
export type LiveText =
  /** `percent`: a firmware update's progress, shown after the key's words. */
  { key: MessageKey; values?: MessageValues; percent?: number | null } | { log: MotorLogEvent };

/** What a page does about a message besides showing the new state, in this order. */
export type LiveEffect =
  /**
   * A toast, with the alert sound of SPEC §8 when it has one. `key`: a later toast with the
   * same key replaces this one (the stages of a firmware update).
   */
  | { type: "toast"; text: LiveText; kind: ToastKind; sound?: Sound; key?: string }
  /** The box runs another firmware: the page's loader reads it again. */
  | { type: "revalidate" }
  /** A line of the box's debug log (the hub sends them to admins only). */
  | { type: "debugLine"; timestamp: string; log: string };

/** The state a message leaves behind, and what the page does about it besides showing it. */
export type LiveUpdate = [state: LiveDeviceState, effects: LiveEffect[]];

type ToastKind = "success" | "error" | "info";
type Sound = "fault" | "notice";

/** Faults and changes the farmer must notice: what the toast says, its colour, the sound. */
const ALERTS = {
  dryRunDetected: ["realtime.dryRun", "error", "fault"],
  overCurrentDetected: ["realtime.overCurrent", "error", "fault"],
  phaseFaultDetected: ["realtime.phaseFault", "error", "fault"],
  phaseOk: ["realtime.phaseOk", "success", "notice"],
  powerLost: ["realtime.powerLost", "error", "fault"],
  powerRestored: ["realtime.powerRestored", "info", "notice"],
  runningWithoutCommand: ["realtime.runningWithoutCommand", "error", "fault"],
  noCurrent: ["realtime.noCurrent", "error", "fault"],
} satisfies Partial<Record<RealtimeMessage["type"], [MessageKey, ToastKind, Sound]>>;

/** One key for every stage of a firmware update, so its toasts take one place. */
const OTA_TOAST = "ota-progress";

export function liveDeviceReducer(state: LiveDeviceState, message: RealtimeMessage): LiveUpdate {
  switch (message.type) {
    case "initialData": {
      const { pump, powerData, lastLogs, health, debug } = message;
      return [
        {
          pump,
          powerData,
          lastLogs,
          health,
          debug,
          connected: true,
          ended: null,
          failedAttempts: 0,
          liveUntil: state.liveUntil,
        },
        [],
      ];
    }
    case "pumpState":
      return [{ ...state, pump: message.pump }, []];
    case "powerDataUpdate":
      return [{ ...state, powerData: message.powerData }, []];
    case "motorLogUpdate":
      return [
        {
          ...state,
          lastLogs: [message.log, ...state.lastLogs.filter((log) => log.id !== message.log.id)].slice(
            0,
            LIVE_MOTOR_LOG_LIMIT,
          ),
        },
        [],
      ];
    case "healthData":
      return [{ ...state, health: message.payload }, []];
    case "debugModeUpdate":
      return [{ ...state, debug: message.debug }, []];
    // Status, presence and faults come with the pump state (see LiveDeviceState).
    case "motorStatusUpdate":
      return [state, []];
    case "deviceStatusUpdate": {
      const online = message.deviceStatus === "online";
      const toast: LiveEffect = {
        type: "toast",
        text: { key: online ? "realtime.online" : "realtime.offline" },
        kind: online ? "success" : "error",
        sound: "notice",
      };
      return [state, [toast]];
    }
    case "dryRunDetected":
    case "overCurrentDetected":
    case "phaseFaultDetected":
    case "phaseOk":
    case "powerLost":
    case "powerRestored":
    case "runningWithoutCommand":
    case "noCurrent": {
      const [key, kind, sound] = ALERTS[message.type];
      return [state, [{ type: "toast", text: { key }, kind, sound }]];
    }
    case "voltageTripDetected":
      return [state, [{ type: "toast", text: { key: `realtime.${message.breach}` }, kind: "error", sound: "fault" }]];
    case "debugLog":
      return [state, [{ type: "debugLine", timestamp: message.timestamp, log: message.log }]];
    case "otaStatus": {
      const { version, stage } = message;
      if (stage === "done") {
        return [
          state,
          [
            {
              type: "toast",
              text: { key: "ota.done", values: { version } },
              kind: "success",
              sound: "notice",
              key: OTA_TOAST,
            },
            { type: "revalidate" },
          ],
        ];
      }
      if (stage === "failed") {
        const failed: MotorLogEvent = {
          kind: "otaFailed",
          version,
          reason: message.reason ?? "box",
          error: message.error,
          firmware: message.firmware,
        };
        return [state, [{ type: "toast", text: { log: failed }, kind: "error", sound: "fault", key: OTA_TOAST }]];
      }
      return [
        state,
        [
          {
            type: "toast",
            text: { key: `ota.stage.${stage}`, percent: message.progress },
            kind: "info",
            key: OTA_TOAST,
          },
        ],
      ];
    }
    // The answer to one page's request: the socket hook hands it to the tap that asked.
    case "commandResult":
      return [state, []];
    default: {
      const unreachable: never = message;
      return unreachable;
    }
  }
}
