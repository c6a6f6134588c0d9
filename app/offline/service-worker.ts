// The page's side of public/sw.js: register it once the page has loaded (never competing with
// the page's own files on a slow line), and on the first visit ask it to keep this page and
// the files it used, so that the installed app opens offline from the very next start.

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
        worker?.postMessage({ type: "cache-page", url: window.location.pathname, assets });
      })
      .catch((error: unknown) => console.warn("Service worker not registered", error));
  };
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}
