// The browser's realtime socket (SPEC §4): opened per box (by its id), reconnecting 1 s after
// it closes, every message checked against the shared schema before it touches the page (through
// the reader generated from it, app/checks/generated.ts), then
// handed to the page's reducer (./live-device.ts): the state it returns is rendered, its
// effects go to the page in order. When the hub closes the socket because the right to watch
// ended (a close code of common/pump-state.ts), it stays closed and the page says why.
//
// While it is open the page's taps travel on it too (`ask`): a request with an id, answered by
// the hub on the same socket, with no HTTP request for a slow line to pay
// (docs/decisions/023-commands-over-the-socket.md). A socket that drops before the answer
// leaves the outcome to the pump state the next socket brings: the page never guesses it.
import { useCallback, useEffect, useRef, useState } from "react";
import { SOCKET_RECONNECT_DELAY_MS } from "../../common/constants.ts";
import { browserCloseReason } from "../../common/hub-contract.ts";
import type { BrowserRequest, RealtimeMessage } from "../../common/realtime-protocol.ts";
import { realtimeMessageCheck } from "../checks/generated.ts";
import { type LiveDeviceState, type LiveEffect, type LiveSnapshot, liveDeviceReducer } from "./live-device.ts";

/** What a request on the socket came to: the hub's answer, or `answerLost` when none can come any more. */
export type SocketAnswer =
  | Extract<RealtimeMessage, { type: "commandResult" }>["result"]
  | { ok: false; code: "answerLost" };

/** The hub answers within its wait for the box (5 s); this only ends a wait for a frame that was lost. */
const ANSWER_WAIT_MS = 20_000;

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
  const openSocket = useRef<WebSocket | null>(null);
  /** Requests waiting for their answer, each with the socket it went out on. */
  const waiting = useRef(new Map<string, { socket: WebSocket; settle: (answer: SocketAnswer) => void }>());
  const nextRequestId = useRef(0);

  /** Sends a request on the open socket; null when there is none (the page posts its form instead). */
  const ask = useCallback((request: Omit<BrowserRequest, "requestId">): Promise<SocketAnswer> | null => {
    const socket = openSocket.current;
    if (!socket || socket.readyState !== WebSocket.OPEN) return null;
    nextRequestId.current += 1;
    const requestId = String(nextRequestId.current);
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle({ ok: false, code: "answerLost" }), ANSWER_WAIT_MS);
      const settle = (answer: SocketAnswer) => {
        clearTimeout(timer);
        waiting.current.delete(requestId);
        resolve(answer);
      };
      waiting.current.set(requestId, { socket, settle });
      socket.send(JSON.stringify({ ...request, requestId } satisfies BrowserRequest));
    });
  }, []);

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
        openSocket.current = opening;
      });
      opening.addEventListener("message", (event) => {
        if (typeof event.data !== "string") return;
        let json: unknown;
        try {
          json = JSON.parse(event.data);
        } catch {
          return;
        }
        const parsed = realtimeMessageCheck.safeParse(json);
        if (!parsed.success) {
          console.warn("Ignoring an unexpected realtime message", parsed.error.issues[0]);
          return;
        }
        if (parsed.data.type === "commandResult") {
          const request = waiting.current.get(parsed.data.requestId);
          if (request?.socket === opening) request.settle(parsed.data.result);
        }
        const [next, effects] = liveDeviceReducer(latest.current, parsed.data);
        setState(() => ({ ...next, liveUntil: Date.now() }));
        for (const effect of effects) onEffectRef.current?.(effect);
      });
      opening.addEventListener("close", (event) => {
        if (openSocket.current === opening) openSocket.current = null;
        for (const request of [...waiting.current.values()]) {
          if (request.socket === opening) request.settle({ ok: false, code: "answerLost" });
        }
        // A socket this page let go of (another pump chosen since): the new one's state is not its to change.
        if (stopped) return;
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

  return [state, setState, ask] as const;
}
