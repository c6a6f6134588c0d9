// The farmer's phone: /motor-control on a slow 3G line (400 kbit/s both ways, 400 ms round
// trip) with a CPU four times slower than this machine's, in Debian's chromium through
// DevTools throttling, with its box online, served by the local production build (which
// gzips HTML, JavaScript and CSS as Cloudflare's edge does).
//
//   first paint      first-contentful-paint of the page
//   working tap      the moment a tap on ON was made, counted only if the box's relay then
//                    closed: the switch is a plain form, so a tap before hydration still works
//   hydrated         React has taken over the switch (its DOM node carries React's props)
//   hydrated floor   the same for /login's button, signed out: React with React Router, the
//                    root and one form, which any page with script pays on this line; taken
//                    right after each dashboard load, so both see the same machine
//   JS per route     every script a cold load of each page fetches, gzip -9 bytes (unthrottled)
//
// Medians of `runs` cold loads (fresh browser context each: no cache, no service worker).
import { gzipSync } from "node:zlib";
import { type Browser, type BrowserContext, chromium } from "@playwright/test";
import { ApiClient } from "../common/api-client.ts";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../scripts/lib/chromium.ts";
import { logInFarmers, startFleet } from "./fleet.ts";

/** What a farmer's cheap phone on a rural 3G/2G line gets: 400 kbit/s down and up, 400 ms latency; 4× CPU. */
export const SLOW_3G = { latencyMs: 400, kbitPerSecond: 400, cpuSlowdown: 4 } as const;
/** The switch's buttons (app/components/motor-switch.tsx): a stopped motor offers ON only. */
const SWITCH_SELECTOR = ".switch-buttons button";
const ON_SELECTOR = "[data-testid=motor-on]";
/** The floor's page: /login's submit button. */
const LOGIN_SELECTOR = "form button[type=submit]";

export type SlowPhoneResult = {
  firstPaintMs: number;
  workingTapMs: number | null;
  /** Whether the median tap landed before React had hydrated the switch. */
  tapBeforeHydration: boolean;
  tapsLost: number;
  hydratedMs: number;
  /** /login, signed out, loaded the same way: the floor under any hydrated page. */
  floorHydratedMs: number;
  jsPerRoute: { route: string; gzipBytes: number }[];
  runs: number;
};

// Runs in the page before any of its own scripts (a DevTools init script, outside the CSP):
// the first-paint time, the moment React hydrated the switch, and taps with their time. Taps
// go to sessionStorage because a tap before hydration submits a form and leaves the page.
const probe = (selector: string) => `(() => {
  const hydrated = (node) => !!node && Object.keys(node).some((key) => key.startsWith("__reactProps$"));
  const timer = setInterval(() => {
    if (hydrated(document.querySelector(${JSON.stringify(selector)}))) {
      window.__hydratedAt = performance.now();
      clearInterval(timer);
    }
  }, 25);
  addEventListener("click", (event) => {
    if (sessionStorage.getItem("bench:tapAt")) return;
    sessionStorage.setItem("bench:tapAt", String(performance.now()));
    sessionStorage.setItem("bench:tapHydrated", String(hydrated(event.target.closest("button"))));
  }, true);
})();`;

async function throttledPage(context: BrowserContext, selector = SWITCH_SELECTOR) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const bytesPerSecond = (SLOW_3G.kbitPerSecond * 1000) / 8;
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: SLOW_3G.latencyMs,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: SLOW_3G.cpuSlowdown });
  await page.addInitScript(probe(selector));
  return page;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function signedInContext(browser: Browser, base: string, token: string) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, serviceWorkers: "block" });
  await context.addCookies([{ name: "sinchai_session", value: token, url: base }]);
  return context;
}

/** Every script a cold load of `route` fetches from our origin, gzip -9 bytes. */
async function scriptBytes(context: BrowserContext, base: string, route: string): Promise<number | null> {
  const page = await context.newPage();
  const bodies: Promise<Buffer>[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    const type = response.headers()["content-type"] ?? "";
    if (url.origin === new URL(base).origin && (type.includes("javascript") || url.pathname.endsWith(".js"))) {
      // A page left early (a redirect, a 404) closes before every body is read.
      bodies.push(response.body().catch(() => Buffer.alloc(0)));
    }
  });
  const answer = await page.goto(`${base}${route}`);
  if (!answer || answer.status() === 404 || new URL(page.url()).pathname !== route) {
    await page.close();
    return null;
  }
  await page.waitForLoadState("networkidle");
  const bytes = (await Promise.all(bodies)).reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
  await page.close();
  return bytes;
}

export async function measureSlowPhone(runs: number, routes: string[]): Promise<SlowPhoneResult> {
  const fleet = await startFleet(1);
  const device = fleet.devices[0]!;
  const base = fleet.worker.url;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  try {
    const [token] = await logInFarmers(fleet.worker, fleet.mobileNos);
    const switchOff = async () => {
      await new ApiClient(fleet.worker.url, { token }).switchMotor("off");
    };

    const firstPaints: number[] = [];
    const hydrations: number[] = [];
    const floorHydrations: number[] = [];
    const loadUntilHydrated = async (context: BrowserContext, route: string, selector: string) => {
      const page = await throttledPage(context, selector);
      await page.goto(`${base}${route}`, { waitUntil: "commit" });
      await page.waitForFunction(
        () => (window as unknown as { __hydratedAt?: number }).__hydratedAt !== undefined,
        null,
        { timeout: 120_000, polling: 250 },
      );
      const timing = await page.evaluate(() => ({
        hydratedAt: (window as unknown as { __hydratedAt: number }).__hydratedAt,
        firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      }));
      await context.close();
      return timing;
    };
    for (let run = 0; run < runs; run++) {
      const timing = await loadUntilHydrated(
        await signedInContext(browser, base, token!),
        "/motor-control",
        SWITCH_SELECTOR,
      );
      firstPaints.push(timing.firstPaint);
      hydrations.push(timing.hydratedAt);
      const signedOut = await browser.newContext({ viewport: { width: 360, height: 740 }, serviceWorkers: "block" });
      floorHydrations.push((await loadUntilHydrated(signedOut, "/login", LOGIN_SELECTOR)).hydratedAt);
    }

    // A tap on ON as early as the switch can be pressed; it counts only if the relay closes.
    const taps: { at: number; beforeHydration: boolean }[] = [];
    let tapsLost = 0;
    for (let run = 0; run < runs; run++) {
      if (device.relay !== "off") await switchOff();
      // An ON is refused for 10 s after any switch (the motor's cooldown).
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      const context = await signedInContext(browser, base, token!);
      const page = await throttledPage(context);
      await page.goto(`${base}/motor-control`, { waitUntil: "commit" });
      await page.locator(ON_SELECTOR).click({ timeout: 120_000, noWaitAfter: true });
      const deadline = Date.now() + 30_000;
      while (device.relay !== "on" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const switched = device.relay === "on";
      // A tap before hydration posted the form: the answer is a new page, maybe still loading.
      let tap: { at: number; hydrated: boolean } | null = null;
      while (tap === null) {
        try {
          await page.waitForLoadState("domcontentloaded", { timeout: 120_000 });
          tap = await page.evaluate(() => ({
            at: Number(sessionStorage.getItem("bench:tapAt")),
            hydrated: sessionStorage.getItem("bench:tapHydrated") === "true",
          }));
        } catch (error) {
          if (!String(error).includes("context was destroyed")) throw error;
        }
      }
      if (switched) taps.push({ at: tap.at, beforeHydration: !tap.hydrated });
      else tapsLost++;
      await context.close();
    }
    await switchOff();

    const jsPerRoute: SlowPhoneResult["jsPerRoute"] = [];
    for (const route of routes) {
      const publicRoute = route === "/" || route === "/login" || route === "/register";
      const context = publicRoute
        ? await browser.newContext({ serviceWorkers: "block" })
        : await signedInContext(browser, base, token!);
      const bytes = await scriptBytes(context, base, route);
      if (bytes !== null) jsPerRoute.push({ route, gzipBytes: bytes });
      await context.close();
    }

    const medianTap = taps.length > 0 ? [...taps].sort((a, b) => a.at - b.at)[Math.floor(taps.length / 2)]! : null;
    return {
      firstPaintMs: Math.round(median(firstPaints)),
      workingTapMs: medianTap ? Math.round(medianTap.at) : null,
      tapBeforeHydration: medianTap?.beforeHydration ?? false,
      tapsLost,
      hydratedMs: Math.round(median(hydrations)),
      floorHydratedMs: Math.round(median(floorHydrations)),
      jsPerRoute,
      runs,
    };
  } finally {
    await browser.close();
    await fleet.stop();
  }
}

/** The user-area routes and the public ones, in the order the table lists them. */
export const PHONE_ROUTES = [
  "/",
  "/login",
  "/register",
  "/motor-control",
  "/motor-schedule",
  "/recharge",
  "/logs",
  "/alerts",
];

if (import.meta.main) {
  const result = await measureSlowPhone(1, PHONE_ROUTES);
  console.log(JSON.stringify(result, null, 2));
}
