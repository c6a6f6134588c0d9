/// <reference lib="dom" />
// The installed app without a network: the service worker (public/sw.js) keeps the farmer's
// dashboard and opens it for any of the farmer's pages; before any script runs it says it is a
// copy and from when, and with its script it shows the last known state of the pump with its age
// and sends nothing. Logout forgets the account; a new deploy's worker takes over. Each test has
// its own farmer and simulated box.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { z } from "../../common/zod.ts";
import { bearer, devicesStoppedAfterEach, farmerWithDevice } from "./admin-support.ts";
import { BASE_URL, en, hi, logOut, useLanguage } from "./support.ts";

const devices = devicesStoppedAfterEach();

async function openDashboard(context: BrowserContext, page: Page, request: Parameters<typeof farmerWithDevice>[0]) {
  const { farmer, device } = await farmerWithDevice(request);
  devices.push(device);
  await context.addCookies([{ name: "sinchai_session", value: farmer.token, url: BASE_URL }]);
  await page.goto("/motor-control");
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  return { farmer, device };
}

/** The worker controls the page and has kept the dashboard for a visit without network. */
async function installed(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(async () => (await (await caches.open("sinchai-account")).match("/motor-control")) !== undefined),
    )
    .toBe(true);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

test("offline, the installed app opens with the last known state and its age, and sends nothing (Hindi)", async ({
  context,
  page,
  request,
}) => {
  const { device } = await openDashboard(context, page, request);
  await installed(page);
  // The dashboard was kept while the motor was OFF; it is switched ON after that.
  await page.getByTestId("motor-on").click();
  await expect(page.getByTestId("motor-status")).toHaveAttribute("data-state", "on");
  expect(device.relay).toBe("on");

  await context.setOffline(true);
  // Three hours later, with no network, the farmer opens the app.
  await page.clock.install({ time: new Date(Date.now() + 3 * 60 * 60 * 1000) });
  await page.reload();
  const banner = page.getByTestId("offline-banner");
  await expect(banner).toContainText(hi["offline.banner"].replace("{age}", "3 घंटे पहले"));
  await expect(banner).toContainText(hi["offline.commands"]);
  await expect(page.getByTestId("motor-status")).toHaveText(
    hi["offline.statusWas"].replace("{status}", hi["motor.on"]),
  );
  // The button still says what it would do, and does nothing without a network.
  const stop = page.getByTestId("motor-off");
  await expect(stop).toBeDisabled();
  await expect(stop).toHaveText(hi["motor.turnOff"]);
  await expect(page.getByTestId("current")).toHaveText("—");
  expect(device.relay).toBe("on");

  // Back online, the kept copy loads the live page by itself (a reload from here would race
  // that one and be aborted by it); the page is live again and the switch works.
  await context.setOffline(false);
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  await expect(page.getByTestId("offline-banner")).toHaveCount(0);
  await expect(page.getByTestId("motor-off")).toBeEnabled();
});

/** What the page shows a reader: its visible text, without what CSS hides. */
async function visibleText(page: Page): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: only the text a reader sees counts, which textContent does not know
  return page.locator("body").evaluate((body: HTMLElement) => body.innerText);
}

/** A Hindi time of day as the pages write it: "26 नव॰ 2026, रात 9:05". */
const HINDI_DATE_TIME = /\d{1,2} \S+ \d{4}, (सुबह|दोपहर|शाम|रात) \d{1,2}:\d\d/;

test("offline, /logs opens the dashboard, which says it is offline and how old it is before any script runs, and never claims ऑनलाइन or OFF (Hindi, 360 px)", async ({
  context,
  page,
  request,
}) => {
  const { farmer, device } = await openDashboard(context, page, request);
  await installed(page);
  // The dashboard was kept while the motor was OFF; the motor is switched ON after that.
  expect((await request.post("/api/devices/motor", { data: { action: "on" }, ...bearer(farmer.token) })).status()).toBe(
    200,
  );
  expect(device.relay).toBe("on");
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const saved = await (await caches.open("sinchai-account")).match("/__sinchai/last-state");
        return saved ? ((await saved.json()) as { pump: { status: string } }).pump.status : null;
      }),
    )
    .toBe("on");

  // No script runs in this page from here on: what the service worker serves must say it all.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setScriptExecutionDisabled", { value: true });
  await context.setOffline(true);
  await page.goto("/logs").catch(() => null);
  await expect(page).toHaveURL(/\/motor-control$/);
  const notice = page.getByTestId("kept-copy-notice");
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(hi["offline.keptCopy"].split("{time}")[0]!);
  await expect(notice).toHaveText(HINDI_DATE_TIME);
  const text = await visibleText(page);
  expect(text).not.toContain(hi["motor.online"]);
  expect(text).not.toContain(hi["switch.stateOff"]);
  await expect(page.getByTestId("motor-status")).toBeHidden();
  await expect(page.getByTestId("current")).toBeHidden();

  // With its script the same page shows what the phone last knew, with its age.
  await cdp.send("Emulation.setScriptExecutionDisabled", { value: false });
  await page.reload().catch(() => null);
  await expect(page.getByTestId("offline-banner")).toContainText(/इंटरनेट नहीं है। यह जानकारी .+ पहले की है।/);
  await expect(page.getByTestId("kept-copy-notice")).toBeHidden();
  await expect(page.getByTestId("motor-status")).toHaveText(
    hi["offline.statusWas"].replace("{status}", hi["motor.on"]),
  );
  // The box's badge says there is no connection, not the "ऑनलाइन" of when the page was kept.
  await expect(page.getByTestId("device-status")).toHaveText(hi["offline.noConnection"]);
  await expect(page.getByTestId("current")).toHaveText("—");

  // A tab tapped offline says why the page did not open, and leads back to what is known.
  await page.locator(".tab-bar").getByRole("link", { name: hi["nav.logs"] }).click();
  const failed = page.getByTestId("offline-page");
  await expect(failed).toContainText(hi["offline.pageNotOpened"]);
  await expect(page.getByText(hi["error.title"])).toHaveCount(0);
  await failed.getByRole("link", { name: hi["offline.openDashboard"] }).click();
  await expect(page).toHaveURL(/\/motor-control$/);
  await expect(page.getByTestId("offline-banner")).toBeVisible();
  await expect(page.getByTestId("device-status")).toHaveText(hi["offline.noConnection"]);

  // Back online, the page is the live one again.
  await context.setOffline(false);
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  await expect(page.locator("html")).not.toHaveAttribute("data-kept-copy");
  await expect(page.getByTestId("device-status")).toHaveText(hi["motor.online"]);
});

test("an open dashboard that loses the network says so at once (English)", async ({ context, page, request }) => {
  await useLanguage(context, "en");
  await openDashboard(context, page, request);
  await context.setOffline(true);
  const banner = page.getByTestId("offline-banner");
  await expect(banner).toContainText(/No connection\. This is what was known \d+ seconds? ago\./);
  await expect(page.getByTestId("motor-status")).toHaveText(
    en["offline.statusWas"].replace("{status}", en["motor.off"]),
  );
  await expect(page.getByTestId("motor-on")).toBeDisabled();
  await context.setOffline(false);
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  await expect(page.getByTestId("offline-banner")).toHaveCount(0);
});

test("after logout nothing of the account is readable: no kept page, no last state, no health cache", async ({
  context,
  page,
  request,
}) => {
  const { farmer } = await openDashboard(context, page, request);
  await installed(page);
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await (await caches.open("sinchai-account")).keys()).map((key) => new URL(key.url).pathname).sort(),
      ),
    )
    .toEqual(["/__sinchai/last-state", "/motor-control"]);
  await expect
    .poll(() => page.evaluate((mobileNo) => localStorage.getItem(`healthData_${mobileNo}`) !== null, farmer.mobileNo))
    .toBe(true);

  await logOut(page);
  await expect(page).toHaveURL(/\/\?loggedOut=1$/);
  expect(await page.evaluate(() => caches.has("sinchai-account"))).toBe(false);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("healthData_")))).toEqual(
    [],
  );

  // Offline, the dashboard's address shows no one's pump.
  await context.setOffline(true);
  await page.goto("/motor-control").catch(() => null);
  await expect(page.locator("body")).toContainText("इंटरनेट नहीं है।");
  await expect(page.locator("body")).not.toContainText(farmer.mobileNo);
  await context.setOffline(false);
});

test("a new deploy's service worker takes over the open page at once, with nothing left waiting", async ({
  context,
  page,
  request,
}) => {
  await openDashboard(context, page, request);
  await installed(page);
  const before = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
  expect(before).toBe(`${BASE_URL}/sw.js`);
  // A deploy that changes the worker: the browser finds a new script at its next check.
  const after = await page.evaluate(async () => {
    const changed = new Promise<void>((resolve) =>
      navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true }),
    );
    const registration = await navigator.serviceWorker.register("/sw.js?deploy=next", {
      scope: "/",
      updateViaCache: "none",
    });
    await changed;
    return {
      controller: navigator.serviceWorker.controller?.scriptURL,
      waiting: registration.waiting !== null,
      installing: registration.installing !== null,
    };
  });
  expect(after).toEqual({ controller: `${BASE_URL}/sw.js?deploy=next`, waiting: false, installing: false });
  // The page keeps working under the new worker, and keeps what the old one kept.
  await page.reload();
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  expect(
    await page.evaluate(
      async () => (await (await caches.open("sinchai-account")).match("/motor-control")) !== undefined,
    ),
  ).toBe(true);
});

/** What this test reads of a web app manifest; the rest is compared as it is. */
const manifestSchema = z.looseObject({
  icons: z.array(z.object({ src: z.string(), sizes: z.string(), purpose: z.string() })),
});

test("the app is installable in Hindi and English: manifests with maskable icons, the dashboard as start", async ({
  page,
  request,
  context,
}) => {
  for (const [language, name, shortName] of [
    ["hi", "सिंचाई: फ़ोन से पंप चालू-बंद", "सिंचाई"],
    ["en", "Sinchai: Motor Control", "Sinchai"],
  ] as const) {
    const response = await request.get(`/manifest.${language}.webmanifest`);
    expect(response.status()).toBe(200);
    const manifest = manifestSchema.parse(await response.json());
    expect(manifest).toMatchObject({
      lang: language,
      name,
      short_name: shortName,
      start_url: "/motor-control",
      display: "standalone",
      theme_color: "#1f6f43",
    });
    expect(
      manifest.icons
        .filter((icon) => icon.purpose === "maskable")
        .map((icon) => icon.sizes)
        .sort(),
    ).toEqual(["192x192", "512x512"]);
    for (const icon of manifest.icons) {
      const image = await request.get(icon.src);
      expect(image.headers()["content-type"]).toBe("image/png");
      const bytes = await image.body();
      // PNG header: width and height in the IHDR chunk.
      expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(icon.sizes);
    }
  }
  await useLanguage(context, "en");
  await page.goto("/login");
  await expect(page.locator("link[rel=manifest]")).toHaveAttribute("href", "/manifest.en.webmanifest");
});
