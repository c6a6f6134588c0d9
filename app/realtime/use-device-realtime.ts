// The browser's realtime socket (SPEC §4): opened per mobile number, reconnecting 1 s after
// it closes, every message parsed with the shared schema before it touches the page. When the
// hub closes it because the right to watch ended (a close code of common/pump-state.ts), it
// stays closed and the page says why.
import { useEffect, useRef, useState } from "react";
import { LIVE_MOTOR_LOG_LIMIT, SOCKET_RECONNECT_DELAY_MS } from "../../common/constants.ts";
import { browserCloseReason, type BrowserCloseReason, type PumpState } from "../../common/pump-state.ts";
import { realtimeMessageSchema, type RealtimeMessage } from "../../common/realtime-protocol.ts";
import type { HubSnapshot } from "../../common/hub-contract.ts";

export type LiveDeviceState = HubSnapshot & {
  connected: boolean;
  /** Why the hub closed the socket for good (signed out, pump relinked...), else null. */
  ended: BrowserCloseReason | null;
  /** Attempts in a row that never opened: no network, or the server out of reach. */
  failedAttempts: number;
  /** Until when (phone clock, ms) the hub was heard from: its last message, or the drop. Null before. */
  liveUntil: number | null;
};

/** Messages that are news rather than state: toasts, sounds, consoles react to them. */
export type RealtimeEvent = Extract<
  RealtimeMessage,
  {
    type:
      | "dryRunDetected"
      | "overCurrentDetected"
      | "phaseFaultDetected"
      | "phaseOk"
      | "powerLost"
      | "powerRestored"
      | "runningWithoutCommand"
      | "noCurrent"
      | "deviceStatusUpdate"
      | "debugLog"
      | "otaStatus";
  }
>;

/** The snapshot fields a pump state decides, so the two never disagree on the page. */
function withPump(state: LiveDeviceState, pump: PumpState): LiveDeviceState {
  return {
    ...state,
    pump,
    motorStatus: pump.status,
    deviceStatus: pump.deviceStatus,
    phaseFault: pump.faults.some((fault) => fault.kind === "phaseFault"),
  };
}

function applyMessage(state: LiveDeviceState, message: RealtimeMessage): LiveDeviceState {
  switch (message.type) {
    case "initialData":
      return {
        connected: true,
        ended: null,
        failedAttempts: 0,
        liveUntil: state.liveUntil,
        motorStatus: message.motorStatus,
        deviceStatus: message.deviceStatus,
        powerData: message.powerData,
        lastLogs: message.lastLogs,
        phaseFault: message.phaseFault,
        health: message.health,
        debug: message.debug,
        pump: message.pump,
      };
    case "pumpState":
      return withPump(state, message.pump);
    case "motorStatusUpdate":
      return { ...state, motorStatus: message.status };
    case "deviceStatusUpdate":
      return { ...state, deviceStatus: message.deviceStatus };
    case "powerDataUpdate":
      return { ...state, powerData: message.powerData };
    case "motorLogUpdate":
      return {
        ...state,
        lastLogs: [message.log, ...state.lastLogs.filter((log) => log.id !== message.log.id)].slice(
          0,
          LIVE_MOTOR_LOG_LIMIT,
        ),
      };
    case "phaseFaultDetected":
      return { ...state, phaseFault: true };
    case "phaseOk":
      return { ...state, phaseFault: false };
    case "healthData":
      return { ...state, health: message.payload };
    case "debugModeUpdate":
      return { ...state, debug: message.debug };
    case "dryRunDetected":
    case "overCurrentDetected":
    case "powerLost":
    case "powerRestored":
    case "runningWithoutCommand":
    case "noCurrent":
    case "debugLog":
    case "otaStatus":
      return state;
    default: {
      const unreachable: never = message;
      return unreachable;
    }
  }
}

const EVENT_TYPES: ReadonlySet<RealtimeMessage["type"]> = new Set([
  "dryRunDetected",
  "overCurrentDetected",
  "phaseFaultDetected",
  "phaseOk",
  "powerLost",
  "powerRestored",
  "runningWithoutCommand",
  "noCurrent",
  "deviceStatusUpdate",
  "debugLog",
  "otaStatus",
]);

function isEvent(message: RealtimeMessage): message is RealtimeEvent {
  return EVENT_TYPES.has(message.type);
}

export function useDeviceRealtime(
  mobileNo: string | null,
  initial: HubSnapshot,
  onEvent?: (event: RealtimeEvent) => void,
) {
  const [state, setState] = useState<LiveDeviceState>({ ...initial, connected: false, ended: null, failedAttempts: 0, liveUntil: null });
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;

  useEffect(() => {
    if (!mobileNo) return;
    let socket: WebSocket | null = null;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const connect = () => {
      const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
      const opening = new WebSocket(
        `${scheme}//${window.location.host}/api/realtime?mobileNo=${encodeURIComponent(mobileNo)}`,
      );
      socket = opening;
      let opened = false;
      opening.addEventListener("open", () => {
        opened = true;
      });
      opening.addEventListener("message", (event) => {
        if (typeof event.data !== "string") return;
        let json: unknown;
        try {
          json = JSON.parse(event.data);
        } catch {
          return;
        }
        const parsed = realtimeMessageSchema.safeParse(json);
        if (!parsed.success) {
          console.warn("Ignoring an unexpected realtime message", parsed.error.issues[0]);
          return;
        }
        setState((current) => ({ ...applyMessage(current, parsed.data), liveUntil: Date.now() }));
        if (isEvent(parsed.data)) onEventRef.current?.(parsed.data);
      });
      opening.addEventListener("close", (event) => {
        const ended = browserCloseReason(event.code);
        setState((current) => ({
          ...current,
          connected: false,
          ended: ended ?? current.ended,
          failedAttempts: opened ? 0 : current.failedAttempts + 1,
          liveUntil: opened ? Date.now() : current.liveUntil,
        }));
        // Reconnecting after these would only be refused: the session or the link is gone.
        if (!stopped && ended === null) reconnectTimer = setTimeout(connect, SOCKET_RECONNECT_DELAY_MS);
      });
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(reconnectTimer);
      socket?.close(1000, "Page closed");
    };
  }, [mobileNo]);

  return [state, setState] as const;
}
