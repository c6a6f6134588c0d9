// What the dashboard last knew about the pump, kept on the phone for when there is no network:
// the installed app then opens (public/sw.js serves the page it kept) and shows this, with its
// age. It lives in the account's cache, which the service worker deletes at logout, so nothing
// of one account stays readable for the next person on the phone.
import { useEffect, useState } from "react";
import { lastStateCheck } from "../checks/generated.ts";
import type { LastState } from "./last-state-schema.ts";

/** The account's cache; public/sw.js deletes it at logout (same name there). */
export const ACCOUNT_CACHE = "sinchai-account";
const LAST_STATE_PATH = "/__sinchai/last-state";

export async function saveLastState(state: LastState): Promise<void> {
  if (!("caches" in window)) return;
  try {
    const cache = await caches.open(ACCOUNT_CACHE);
    await cache.put(
      LAST_STATE_PATH,
      new Response(JSON.stringify(state), { headers: { "Content-Type": "application/json" } }),
    );
  } catch {
    // storage full or refused: the page works without it
  }
}

export async function readLastState(pumpKey: string): Promise<LastState | null> {
  if (!("caches" in window)) return null;
  try {
    const response = await (await caches.open(ACCOUNT_CACHE)).match(LAST_STATE_PATH);
    if (!response) return null;
    const parsed = lastStateCheck.safeParse(await response.json());
    return parsed.success && parsed.data.pumpKey === pumpKey ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether the phone says it has a network (true on the server and until the page knows). */
export function usePhoneOnline(): boolean {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}

/** The phone's clock, ticking: offline there is no hub clock to count against. */
export function usePhoneClock(tickMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}
