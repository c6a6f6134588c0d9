// The browser's realtime socket (SPEC §4): opened per box (by its id), reconnecting 1 s after
// it closes, every message parsed with the shared schema before it touches the page, then
// handed to the page's reducer (./live-device.ts): the state it returns is rendered, its
// effects go to the page in order. When the hub closes the socket because the right to watch
// ended (a close code of common/pump-state.ts), it stays closed and the page says why.
import { useCallback, useEffect, useRef, useState } from "react";
import { SOCKET_RECONNECT_DELAY_MS } from "../../common/constants.ts";
import { browserCloseReason } from "../../common/pump-state.ts";
import { realtimeMessageSchema } from "../../common/realtime-protocol.ts";
import { type LiveDeviceState, type LiveEffect, type LiveSnapshot, liveDeviceReducer } from "./live-device.ts";

export function useDeviceRealtime(
  deviceId: string | null,
  initial: LiveSnapshot,
  onEffect?: (effect: LiveEffect) => void,
) {
  const [state, setRendered] = useState<LiveDeviceState>(() => ({
    ...initial,
    connected: false,
    ended: null,
    failedAttempts: 0,
    liveUntil: null,
  }));
  // The state as of the last change, kept apart from rendering: a message's effects come from
  // the same reducer call as its change, so the reducer needs the state at once.
  const latest = useRef(state);
  const setState = useCallback((change: (current: LiveDeviceState) => LiveDeviceState) => {
    latest.current = change(latest.current);
    setRendered(latest.current);
  }, []);
  const onEffectRef = useRef(onEffect);
  onEffectRef.current = onEffect;

  useEffect(() => {
    if (!deviceId) return;
    let socket: WebSocket | null = null;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const connect = () => {
      const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
      const opening = new WebSocket(
        `${scheme}//${window.location.host}/api/realtime?deviceId=${encodeURIComponent(deviceId)}`,
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
        const [next, effects] = liveDeviceReducer(latest.current, parsed.data);
        setState(() => ({ ...next, liveUntil: Date.now() }));
        for (const effect of effects) onEffectRef.current?.(effect);
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
  }, [deviceId, setState]);

  return [state, setState] as const;
}
