// Sinchai's service worker, written by hand (docs/decisions/014-service-worker-by-hand.md).
// It does four things:
//   1. Built assets (/assets/*, content-hashed, never change) and icons: from its cache first.
//   2. The farmer's pages: always from the network when there is one, so nothing is ever stale.
//      A copy of the dashboard is kept; without a network every page of the farmer's opens it
//      (another page's copy would show a pump as it was, with nothing to say how old). The copy
//      is marked as one (`data-kept-copy` on <html>): before any script runs, the page then says
//      it is offline and from when, and shows nothing of what it said then; its script shows the
//      last known state of the pump with its age and disables commands.
//   3. Nothing of an account stays after logout: the account's cache is deleted and this
//      browser's push subscription dropped when it logs out, or when the server shows it a
//      signed-out page (the server deleted the subscription when the session ended).
//   4. Web Push: shows the hub's alerts with the app closed, one notification per pump and kind
//      (tag); a tap opens that pump.
// A new version takes over at once (skipWaiting + clients.claim): pages come from the network
// anyway, so there is nothing an old version could keep stale.

const ASSET_CACHE = "sinchai-assets";
const ACCOUNT_CACHE = "sinchai-account";
// The dashboard keeps the last pump state it saw in the account's cache too
// (app/offline/last-state.ts), so deleting that cache forgets it as well.
/** Hashed assets of a few deploys at most; the oldest go first. */
const MAX_ASSETS = 150;
const USER_PAGES = new Set(["/motor-control", "/motor-schedule", "/recharge", "/logs", "/alerts"]);
/** The one page kept for a visit without network: the one that says what is known offline. */
const KEPT_PAGE = "/motor-control";
/** Pages of a signed-in farmer that open the kept dashboard without a network. */
const OFFLINE_TO_DASHBOARD = new Set([...USER_PAGES, "/change-password", "/verify-number", "/pump-people"]);
/** Pages the server shows only to a browser that is not signed in (or redirects away from). */
const SIGNED_OUT_PAGES = new Set(["/", "/login", "/register"]);
const LOGOUT_PATHS = new Set(["/logout", "/logout.data", "/api/auth/logout"]);

self.addEventListener("install", (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // Caches of earlier designs of this worker.
      for (const name of await caches.keys()) {
        if (name.startsWith("sinchai-") && name !== ASSET_CACHE && name !== ACCOUNT_CACHE) await caches.delete(name);
      }
      // Copies of other pages an earlier version kept: never shown again.
      const account = await caches.open(ACCOUNT_CACHE);
      for (const key of await account.keys()) {
        const { pathname } = new URL(key.url);
        if (USER_PAGES.has(pathname) && pathname !== KEPT_PAGE) await account.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && LOGOUT_PATHS.has(url.pathname)) {
    event.respondWith(forgetAccountThen(request));
    return;
  }
  if (request.method === "POST" && request.mode === "navigate" && USER_PAGES.has(url.pathname)) {
    event.respondWith(postPage(request));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith("/assets/") || url.pathname.startsWith("/icons/")) {
    event.respondWith(cacheFirst(event, request));
    return;
  }
  if (request.mode === "navigate") event.respondWith(navigate(event, request, url));
});

/**
 * The page asks, on its first visit (not yet controlled), to keep its files, and the dashboard
 * with the files it needs: whichever page came first, the app opens offline from the next start.
 */
self.addEventListener("message", (event) => {
  const message = event.data;
  if (message?.type !== "cache-page") return;
  event.waitUntil(cachePage(Array.isArray(message.assets) ? message.assets : []));
});

async function cachePage(assets) {
  await keepAssets(assets);
  try {
    const response = await fetch(KEPT_PAGE, { credentials: "same-origin", redirect: "manual" });
    // Not signed in: a redirect, nothing to keep.
    if (!response.ok || !isHtml(response)) return;
    const html = await response.clone().text();
    await keepPage(response);
    await keepAssets(html.match(/\/assets\/[\w.-]+/g) ?? []);
  } catch {
    // no network: nothing to keep
  }
}

/** Files of this origin's /assets/, fetched unless kept already. */
async function keepAssets(assets) {
  const assetCache = await caches.open(ASSET_CACHE);
  for (const asset of assets) {
    if (typeof asset !== "string") continue;
    const url = new URL(asset, self.location.origin);
    if (url.origin !== self.location.origin || !url.pathname.startsWith("/assets/")) continue;
    if (await assetCache.match(url.pathname)) continue;
    try {
      const response = await fetch(url.pathname);
      if (response.ok) await assetCache.put(url.pathname, response);
    } catch {
      // offline again: the next visit caches it
    }
  }
}

async function keepPage(response) {
  await (await caches.open(ACCOUNT_CACHE)).put(KEPT_PAGE, response);
}

async function cacheFirst(event, request) {
  const cache = await caches.open(ASSET_CACHE);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) event.waitUntil(cache.put(request, response.clone()).then(() => pruneAssets(cache)));
  return response;
}

async function pruneAssets(cache) {
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - MAX_ASSETS))) await cache.delete(key);
}

async function navigate(event, request, url) {
  let response;
  try {
    response = await fetch(request);
  } catch {
    return offlineNavigation(url);
  }
  if (USER_PAGES.has(url.pathname)) {
    // A user page that sends the browser elsewhere: this browser is no longer signed in.
    if (response.type === "opaqueredirect" || response.redirected) event.waitUntil(forgetAccount());
    else if (url.pathname === KEPT_PAGE && response.ok && isHtml(response)) event.waitUntil(keepPage(response.clone()));
  } else if (SIGNED_OUT_PAGES.has(url.pathname) && response.ok) {
    event.waitUntil(forgetAccount());
  }
  return response;
}

/**
 * No network: the farmer's pages open the kept dashboard, at its own address (its script knows
 * only the page it was made for), marked as a kept copy; anything else says there is no network.
 */
async function offlineNavigation(url) {
  const kept = OFFLINE_TO_DASHBOARD.has(url.pathname)
    ? await (await caches.open(ACCOUNT_CACHE)).match(KEPT_PAGE)
    : undefined;
  if (!kept) return offlinePage("page");
  if (url.pathname !== KEPT_PAGE) return Response.redirect(new URL(KEPT_PAGE, self.location.origin).href, 302);
  const html = (await kept.text()).replace(/<html\b/i, "<html data-kept-copy");
  const headers = new Headers(kept.headers);
  headers.delete("Content-Length");
  return new Response(html, { status: 200, headers });
}

/** A form posted without a network (a tap before the page's script ran): say nothing was sent. */
async function postPage(request) {
  try {
    return await fetch(request);
  } catch {
    return offlinePage("command");
  }
}

/** Logout: forget the account here first, then log out (which ends its alerts on the server). */
async function forgetAccountThen(request) {
  await forgetAccount();
  return fetch(request);
}

/**
 * The session is over: its subscription ended with it on the server, so the browser drops the
 * address too (the next account on this phone subscribes afresh), and the account's cache goes.
 */
async function forgetAccount() {
  const subscription = self.registration.pushManager
    ? await self.registration.pushManager.getSubscription().catch(() => null)
    : null;
  if (subscription) await subscription.unsubscribe().catch(() => false);
  await caches.delete(ACCOUNT_CACHE);
  for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
    client.postMessage({ type: "signed-out" });
  }
}

function isHtml(response) {
  return (response.headers.get("Content-Type") ?? "").includes("text/html");
}

/** Shown when there is no network and nothing kept: both languages, no script, its own styles. */
function offlinePage(what) {
  const lines =
    what === "command"
      ? ["इंटरनेट नहीं है: मोटर को कुछ नहीं भेजा गया।", "No connection: nothing was sent to the pump."]
      : ["इंटरनेट नहीं है।", "No connection."];
  const style =
    "body{font-family:system-ui,sans-serif;margin:0;padding:1rem;color:#1c2520;background:#f5f7f5;line-height:1.5}" +
    "h1{font-size:1.35rem}a{display:inline-flex;align-items:center;min-height:48px;padding:0 1rem;" +
    "border-radius:8px;background:#1f6f43;color:#fff;text-decoration:none;font-weight:600}";
  const body = `<!doctype html><html lang="hi"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sinchai</title><style>${style}</style></head><body><h1>${lines[0]}</h1><p lang="en">${lines[1]}</p><p><a href="/motor-control">होम / Home</a></p></body></html>`;
  return new Response(body, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      // Its one style sheet is written here, with no reader's words in it.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    },
  });
}

// ---- Web Push ---------------------------------------------------------------------------

self.addEventListener("push", (event) => {
  let payload = null;
  try {
    payload = event.data ? event.data.json() : null;
  } catch {
    payload = null;
  }
  if (!payload || typeof payload.title !== "string" || typeof payload.tag !== "string") return;
  event.waitUntil(
    self.registration.showNotification(payload.title, {
      body: typeof payload.body === "string" ? payload.body : "",
      // One notification per pump and kind: a new one replaces that pump's last, and still rings.
      tag: payload.tag,
      renotify: true,
      lang: payload.lang === "en" ? "en" : "hi",
      icon: "/icons/icon-192.png",
      badge: "/icons/maskable-192.png",
      timestamp: typeof payload.at === "number" ? payload.at : Date.now(),
      data: {
        url: typeof payload.url === "string" && payload.url.startsWith("/") ? payload.url : "/motor-control",
        kind: payload.kind,
      },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // The alert's pump (`?pump=`): an open window goes there, else a new one opens it.
  const target = new URL(event.notification.data?.url ?? "/motor-control", self.location.origin);
  event.waitUntil(
    (async () => {
      for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
        if (new URL(client.url).origin !== target.origin || !("focus" in client)) continue;
        const focused = await client.focus();
        return client.url === target.href || !("navigate" in focused) ? focused : focused.navigate(target.href);
      }
      return self.clients.openWindow(target.href);
    })(),
  );
});

// The push service replaced this browser's address: tell the server, keeping the settings.
self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil(
    (async () => {
      const old = event.oldSubscription ?? null;
      const fresh =
        event.newSubscription ??
        (old ? await self.registration.pushManager.subscribe(old.options).catch(() => null) : null);
      if (!fresh || !old) return;
      await fetch("/api/push/subscriptions/renew", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ oldEndpoint: old.endpoint, subscription: fresh.toJSON() }),
        credentials: "same-origin",
      }).catch(() => null);
    })(),
  );
});
