// The page's side of public/sw.js: register it once the page has loaded (never competing with
// the page's own files on a slow line), and on the first visit ask it to keep the files this
// page used and the dashboard, so that the installed app opens offline from the very next start.
// A page the worker served from its copy (no network) is replaced by the real one as soon as the
// phone is online again.

/**
 * SPEC §3's health cache (`healthData_{mobileNo}`, written by the dashboard) is account data
 * too: gone at logout. Kept here rather than in ./last-state.ts: the root loads this module on
 * every page, the login too, and last-state's schemas would bring zod and the realtime
 * protocol with it (9 KB of gzip script the login never uses).
 */
function forgetHealthCache(): void {
  for (const key of Object.keys(window.localStorage)) {
    if (key.startsWith("healthData_")) window.localStorage.removeItem(key);
  }
}

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.addEventListener("message", (event: MessageEvent<unknown>) => {
    const data = event.data as { type?: unknown } | null;
    if (data?.type === "signed-out") forgetHealthCache();
  });
  const start = () => {
    const firstVisit = navigator.serviceWorker.controller === null;
    navigator.serviceWorker
      .register("/sw.js", { scope: "/", updateViaCache: "none" })
      .then(async () => {
        if (!firstVisit) return; // a controlled page came through it: kept already
        const worker = (await navigator.serviceWorker.ready).active;
        const assets = performance
          .getEntriesByType("resource")
          .map((entry) => entry.name)
          .filter((name) => new URL(name).pathname.startsWith("/assets/"));
        worker?.postMessage({ type: "cache-page", assets });
      })
      .catch((error: unknown) => console.warn("Service worker not registered", error));
  };
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}

/** How often a kept copy shown on a network the phone calls online checks whether the site answers. */
const KEPT_COPY_RECHECK_MS = 10_000;

/**
 * The service worker marks a page it served from its copy (`data-kept-copy` on <html>): what it
 * shows is as old as the copy, so once the site answers again (the phone says it is online, or a
 * check every few seconds gets through a poor network) the page loads afresh.
 */
export function reloadKeptCopyWhenOnline(): void {
  if (!document.documentElement.hasAttribute("data-kept-copy")) return;
  const reloadIfReachable = async () => {
    try {
      // Any answer at all (a redirect too) means the real page can load now.
      await fetch(window.location.href, { method: "HEAD", cache: "no-store", redirect: "manual" });
      window.location.reload();
    } catch {
      // still no network
    }
  };
  window.addEventListener("online", () => void reloadIfReachable());
  window.setInterval(() => {
    if (navigator.onLine) void reloadIfReachable();
  }, KEPT_COPY_RECHECK_MS);
}
