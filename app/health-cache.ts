// SPEC §3's health cache: the last health data this browser saw of a pump, for when the
// server cannot be reached ("Using cached device data."). The dashboard writes it as health
// arrives; the dashboard and the pump's settings page read it when a fetch fails. Forgotten at
// logout by app/offline/service-worker.ts, which knows these keys by their prefix.
import type { HealthData } from "../common/realtime-protocol.ts";
import { healthDataCheck } from "./checks/generated.ts";

/**
 * Whose pump: SPEC §3's key (the account's number) for the account's first box; the number and
 * the box's id for any other, so two boxes never share one cache.
 */
export function healthCacheKey(mobileNo: string, deviceId: string | null, firstDeviceId: string | null): string {
  return !deviceId || deviceId === firstDeviceId ? mobileNo : `${mobileNo}_${deviceId}`;
}

const storageKey = (key: string) => `healthData_${key}`;

export function readCachedHealth(key: string): HealthData | null {
  try {
    const parsed = healthDataCheck.safeParse(JSON.parse(window.localStorage.getItem(storageKey(key)) ?? "null"));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveCachedHealth(key: string, health: HealthData): void {
  window.localStorage.setItem(storageKey(key), JSON.stringify(health));
}
