// SPEC §2: pulling the page down by more than 150 px while it is scrolled to the top reloads it.
import { useEffect, useState } from "react";

export const PULL_TO_REFRESH_THRESHOLD_PX = 150;

/** Returns how far the page is being pulled (0 when not), for an indicator. */
export function usePullToRefresh(): number {
  const [pulled, setPulled] = useState(0);
  useEffect(() => {
    let startY: number | null = null;
    let distance = 0;
    const onStart = (event: TouchEvent) => {
      startY = window.scrollY <= 0 && event.touches.length === 1 ? event.touches[0]!.clientY : null;
      distance = 0;
    };
    const onMove = (event: TouchEvent) => {
      if (startY === null) return;
      distance = Math.max(0, event.touches[0]!.clientY - startY);
      setPulled(distance);
    };
    const onEnd = () => {
      if (startY !== null && distance > PULL_TO_REFRESH_THRESHOLD_PX) window.location.reload();
      startY = null;
      distance = 0;
      setPulled(0);
    };
    window.addEventListener("touchstart", onStart, { passive: true });
    window.addEventListener("touchmove", onMove, { passive: true });
    window.addEventListener("touchend", onEnd);
    window.addEventListener("touchcancel", onEnd);
    return () => {
      window.removeEventListener("touchstart", onStart);
      window.removeEventListener("touchmove", onMove);
      window.removeEventListener("touchend", onEnd);
      window.removeEventListener("touchcancel", onEnd);
    };
  }, []);
  return pulled;
}
