// Whether the pump is linked, kept true without a reload: a pump relinked to another account
// leaves the page (the loader then shows no device), and without a box, where there is no hub to
// hear from, the page asks again now and then, so the box an admin links while the farmer waits
// shows up by itself.
import { useEffect } from "react";
import { useRevalidator } from "react-router";
import type { LiveDeviceState } from "../../realtime/live-device.ts";

/** How often a page without a box asks whether one has been linked. */
const NO_DEVICE_RECHECK_MS = 5_000;

export function useLinkRecheck(hasDevice: boolean, ended: LiveDeviceState["ended"]) {
  const revalidator = useRevalidator();

  // biome-ignore lint/correctness/useExhaustiveDependencies: only the end of the watch matters; the revalidator is new every render
  useEffect(() => {
    if (ended === "deviceUnlinked") revalidator.revalidate();
  }, [ended]);

  useEffect(() => {
    if (hasDevice) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, NO_DEVICE_RECHECK_MS);
    return () => clearInterval(timer);
  }, [hasDevice, revalidator]);
}
