// No network (the phone says so, or the socket cannot even open): the page shows the last state
// it knows, with its age on the phone's clock, and sends nothing. What the hub last said is kept
// on the phone for a day without network (app/offline).
import { useEffect, useState } from "react";
import { readLastState, saveLastState, usePhoneClock, usePhoneOnline } from "../../offline/last-state.ts";
import type { useDeviceRealtime } from "../../realtime/use-device-realtime.ts";

type Realtime = ReturnType<typeof useDeviceRealtime>;

/** Whether the page has no connection, the phone's clock, and since when the state shown is known. */
export function useOfflinePump(
  hasDevice: boolean,
  cacheKey: string,
  [live, setLive]: Realtime,
  /** When the server's snapshot of the pump was taken. */
  renderedAt: number,
) {
  const phoneOnline = usePhoneOnline();
  const noConnection = hasDevice && (!phoneOnline || live.failedAttempts >= 3);
  const phoneNow = usePhoneClock(noConnection ? 10_000 : 60_000);
  const [savedKnownAt, setSavedKnownAt] = useState<number | null>(null);
  const knownAt = live.liveUntil ?? savedKnownAt ?? renderedAt;

  // biome-ignore lint/correctness/useExhaustiveDependencies: saved once per message from the hub (liveUntil moves with each), not per render
  useEffect(() => {
    if (!hasDevice || live.liveUntil === null) return;
    void saveLastState({
      pumpKey: cacheKey,
      knownAt: live.liveUntil,
      pump: live.pump,
      powerData: live.powerData,
      lastLogs: live.lastLogs,
    });
  }, [hasDevice, cacheKey, live.liveUntil]);

  // Offline, a page kept by the service worker may be older than the last state this phone saw.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once when the connection is lost, not again as the page re-renders offline
  useEffect(() => {
    if (!noConnection || live.liveUntil !== null) return;
    let cancelled = false;
    void readLastState(cacheKey).then((saved) => {
      if (cancelled || !saved || saved.pump.at <= live.pump.at) return;
      setSavedKnownAt(saved.knownAt);
      setLive((current) => ({ ...current, pump: saved.pump, powerData: saved.powerData, lastLogs: saved.lastLogs }));
    });
    return () => {
      cancelled = true;
    };
  }, [noConnection]);

  return [noConnection, phoneNow, knownAt] as const;
}
