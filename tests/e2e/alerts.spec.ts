/// <reference lib="dom" />
// Alerts with the app closed (Web Push), end to end: the DeviceHub's pushes for every kind of
// alert reach a local push service (push-service/push-service.ts), which checks the VAPID
// signature, decrypts each payload with the subscription's private key and hands it to the
// test: kind, language, the pump's name, tag and page. An operator of a shared pump gets its
// alerts and a viewer does not. The settings screen in a real browser, and logout ending the
// phone's alerts. How each kind reaches the farmer (app, SMS or call), in Hindi and English, with
// and without the page's script, before any permission prompt, at 360 px; a phone that cannot
// take app alerts pointed to SMS and calls. Own farmers and boxes.
import { type APIRequestContext, type Browser, type BrowserContext, expect, test } from "@playwright/test";
import { PHONE_ALERT_KINDS } from "../../common/alert-channels.ts";
import { ALERT_KINDS, alertTag, type PushKind } from "../../common/alerts.ts";
import { readJson } from "../../common/api-client.ts";
import { alertChannelsResponseSchema, subscriptionResponseSchema } from "../../common/api-responses/alerts.ts";
import { istMinuteOfDay, MINUTES_PER_DAY } from "../../common/schedule-time.ts";
import { E2E_PERSIST_DIR } from "../../playwright.config.ts";
import { executeLocalSql, sqlText } from "../../scripts/lib/local-d1.ts";
import {
  bearer,
  devicesStoppedAfterEach,
  type Farmer,
  farmerWithDevice,
  farmerWithSetPump,
  registerFarmer,
} from "./admin-support.ts";
import { type ReceivedPush, TestPushService, type TestSubscription } from "./push-service/push-service.ts";
import { checkScreen, seriousAxeViolations } from "./screen-checks.ts";
import { BASE_URL, DICTIONARIES, fitsTheScreen, logOut, type Texts, VIEWPORTS } from "./support.ts";
import { smallTargets } from "./touch-targets.ts";

let service: TestPushService;
const devices = devicesStoppedAfterEach();

test.beforeAll(async () => {
  service = await TestPushService.start();
});
test.afterAll(async () => {
  await service.stop();
});

async function ownPump(request: APIRequestContext) {
  // Short protection timing: a dry run trips in about 3 s instead of 13.
  const { farmer, device } = await farmerWithSetPump(request, devices, {
    protectionGraceMs: 2_000,
    protectionSustainMs: 1_000,
  });
  return { farmer, device, pump: { deviceId: device.deviceId, name: null as string | null } };
}

/**
 * A 360 px phone signed in with `token`: Hindi unless `language` says otherwise, with the page's
 * script unless `javaScriptEnabled` is false.
 */
async function phoneSignedIn(
  browser: Browser,
  token: string,
  options: { language?: "en"; javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<BrowserContext> {
  const { language, ...contextOptions } = options;
  const context = await browser.newContext({ viewport: VIEWPORTS.phone, ...contextOptions });
  await context.addCookies([
    { name: "sinchai_session", value: token, url: BASE_URL },
    ...(language ? [{ name: "sinchai_lang", value: language, url: BASE_URL }] : []),
  ]);
  return context;
}

/** The pump an alert is about, as its title names it (null: the test alert). */
type AlertPump = { deviceId: string; name: string | null } | null;

/** A push's title as the phone shows it: the pump's name (or "Pump" and its id's end), then what happened. */
function titleOf(texts: Texts, titleKey: keyof Texts, pump: AlertPump): string {
  if (!pump) return texts[titleKey];
  const name = pump.name ?? texts["pumps.unnamed"].replace("{id}", pump.deviceId);
  return texts["push.pumpTitle"].replace("{pump}", name).replace("{title}", texts[titleKey]);
}

async function subscribe(
  request: APIRequestContext,
  farmer: Farmer,
  language: "hi" | "en",
  kinds: readonly string[] = ALERT_KINDS,
) {
  const subscription = service.subscribe();
  const response = await request.put("/api/push/subscriptions", {
    data: { subscription: { endpoint: subscription.endpoint, keys: subscription.keys }, kinds, language },
    ...bearer(farmer.token),
  });
  expect(response.status()).toBe(200);
  return subscription;
}

/** A new session of `farmer` (another phone logging in). */
async function registerFarmerLogin(request: APIRequestContext, farmer: Farmer): Promise<string> {
  const response = await request.post("/api/auth/login", {
    data: { mobileNo: farmer.mobileNo, password: farmer.password },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** Switches the farmer's motor, waiting out the 10 s cooldown an ON may still be in. */
async function switchMotor(request: APIRequestContext, farmer: Farmer, action: "on" | "off", expected = 200) {
  await expect
    .poll(
      async () => (await request.post("/api/devices/motor", { data: { action }, ...bearer(farmer.token) })).status(),
      { intervals: [1_000] },
    )
    .toBe(expected);
}

/** The push of `kind` this subscription got after `since`, checked for language, pump, tag and page. */
async function expectPush(
  subscription: TestSubscription,
  pump: AlertPump,
  kind: PushKind,
  language: "hi" | "en",
  since: number,
  titleKey: keyof Texts,
  timeoutMs = 20_000,
) {
  const texts = DICTIONARIES[language];
  const title = titleOf(texts, titleKey, pump);
  // Two alerts of a kind (a phase fault, then the phase back) may arrive in either order.
  const push = await service.waitFor(
    subscription,
    (candidate) => candidate.payload.kind === kind && candidate.payload.title === title,
    timeoutMs,
    since,
  );
  const deviceId = pump?.deviceId ?? null;
  expect(push.payload).toMatchObject({ kind, lang: language, deviceId, tag: alertTag(kind, deviceId), title });
  if (pump) expect(push.payload.url).toMatch(new RegExp(`^/motor-(control|schedule)\\?pump=${pump.deviceId}$`));
  // The push service sees the Topic in the clear: a digest, no box id.
  expect(push.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
  expect(push.vapid.sub).toMatch(/^(mailto|https):/);
  return push;
}

function expectNone(subscription: TestSubscription, kind: PushKind, since: number) {
  expect(
    service.received(subscription).filter((push: ReceivedPush) => push.at >= since && push.payload.kind === kind),
  ).toEqual([]);
}

test("the hub alerts the farmer's phones for every kind, each in its own language, one tag per kind", async ({
  request,
}) => {
  const { farmer, device, pump } = await ownPump(request);
  const hindi = await subscribe(request, farmer, "hi");
  const english = await subscribe(
    request,
    farmer,
    "en",
    ALERT_KINDS.filter((kind) => kind !== "power"),
  );

  // Dry run: the box trips and reports it.
  await switchMotor(request, farmer, "on");
  let since = Date.now();
  device.inject("dryRun");
  const dryRun = await expectPush(hindi, pump, "dryRun", "hi", since, "push.dryRun.title");
  expect(dryRun.urgency).toBe("high");
  expect(dryRun.ttl).toBe(12 * 3600);
  await expectPush(english, pump, "dryRun", "en", since, "push.dryRun.title");
  device.inject("normal");

  // Overcurrent.
  await switchMotor(request, farmer, "on");
  since = Date.now();
  device.inject("overCurrent");
  await expectPush(hindi, pump, "overCurrent", "hi", since, "push.overCurrent.title");
  await expectPush(english, pump, "overCurrent", "en", since, "push.overCurrent.title");
  device.inject("normal");

  // A phase fault, then the phase back: the same tag, so the second replaces the first.
  since = Date.now();
  device.inject("phaseLoss");
  const fault = await expectPush(hindi, pump, "phase", "hi", since, "push.phaseFault.title");
  expect(fault.payload.alert).toMatchObject({ kind: "phase", state: "fault", detail: "Phase Y missing" });
  since = Date.now();
  device.inject("phaseRestore");
  const back = await expectPush(hindi, pump, "phase", "hi", since, "push.phaseOk.title");
  expect(back.payload.tag).toBe(fault.payload.tag);
  expect(back.topic).toBe(fault.topic);
  await expectPush(english, pump, "phase", "en", since, "push.phaseOk.title");

  // Power lost and back: the English phone chose not to get these.
  since = Date.now();
  device.inject("powerCut");
  const lost = await expectPush(hindi, pump, "power", "hi", since, "push.powerLost.title");
  device.inject("powerRestore");
  await expectPush(hindi, pump, "power", "hi", lost.at + 1, "push.powerBack.title");
  expectNone(english, "power", since);

  // Running without a confirmed command: the starter's contactor welds shut and the motor runs
  // with nobody's command (a lost answer to the farmer's own ON is no alarm: pump-truth.spec.ts).
  since = Date.now();
  device.inject("contactorWelded");
  await expectPush(hindi, pump, "runningWithoutCommand", "hi", since, "push.runningWithoutCommand.title");
  await expectPush(english, pump, "runningWithoutCommand", "en", since, "push.runningWithoutCommand.title");
  device.inject("contactorFreed");
  await switchMotor(request, farmer, "off");
  // A box gone while the motor runs alerts only after OFFLINE_ALERT_GRACE_MS (90 s), and its
  // reconnect a second later is no news: tests/durable-objects/device-hub.push.test.ts fires
  // the grace's timer instead of waiting it out.
});

test("a scheduled run carried out, and one missed while the box is offline, alert the farmer", async ({ request }) => {
  const { farmer, device, pump } = await ownPump(request);
  const phone = await subscribe(request, farmer, "en", ["schedule"]);
  // The next IST minute at least 20 s away, and the one after it.
  const now = Date.now();
  const first = (istMinuteOfDay(now) + (60 - new Date(now).getUTCSeconds() > 20 ? 1 : 2)) % MINUTES_PER_DAY;
  const second = (first + 1) % MINUTES_PER_DAY;
  const clock = (minute: number) => `${Math.floor(minute / 60)}:${String(minute % 60).padStart(2, "0")}`;
  for (const [minute, action] of [
    [first, "ON"],
    [second, "OFF"],
  ] as const) {
    const saved = await request.post("/api/schedule", {
      data: { time: clock(minute), action, repeat: "once" },
      ...bearer(farmer.token),
    });
    expect(saved.status()).toBe(201);
  }
  const done = await expectPush(phone, pump, "schedule", "en", now, "push.scheduleDone.title", 100_000);
  expect(done.payload.alert).toMatchObject({ kind: "schedule", outcome: "done", action: "on", minuteOfDay: first });
  expect(done.payload.url).toBe(`/motor-schedule?pump=${device.deviceId}`);
  await device.stop();
  const missed = await service.waitFor(
    phone,
    (push) =>
      push.payload.kind === "schedule" &&
      push.payload.alert.kind === "schedule" &&
      push.payload.alert.outcome === "missed",
    90_000,
  );
  expect(missed.payload).toMatchObject({
    lang: "en",
    tag: alertTag("schedule", device.deviceId),
    title: titleOf(DICTIONARIES.en, "push.scheduleMissed.title", pump),
  });
  expect(missed.payload.body).toContain(DICTIONARIES.en["push.reason.offline"]);
});

test("a subscription the push service says is gone (410, 404) is deleted", async ({ request }) => {
  const { farmer, device, pump } = await ownPump(request);
  const gone = await subscribe(request, farmer, "hi");
  const unknown = await subscribe(request, farmer, "hi");
  const kept = await subscribe(request, farmer, "hi");
  const stored = async (subscription: TestSubscription) =>
    (
      await readJson(
        await request.get(
          `/api/push/subscriptions?endpoint=${encodeURIComponent(subscription.endpoint)}`,
          bearer(farmer.token),
        ),
        subscriptionResponseSchema,
      )
    ).subscription;

  // The test button: the push service refuses, the farmer is told, the address is forgotten.
  service.answerWith(gone, 410);
  const test410 = await request.post("/api/push/test", { data: { endpoint: gone.endpoint }, ...bearer(farmer.token) });
  expect(test410.status()).toBe(502);
  expect(await stored(gone)).toBeNull();

  // An alert from the hub: the 404 address is forgotten, the others get it.
  service.answerWith(unknown, 404);
  const since = Date.now();
  device.inject("phaseLoss");
  await expectPush(kept, pump, "phase", "hi", since, "push.phaseFault.title");
  await expect.poll(() => stored(unknown)).toBeNull();
  expect(await stored(kept)).not.toBeNull();
});

// Every user screen's checks (screens.spec.ts), here because they need the full browser.
test("the alerts screen in Hindi and English at 360×740 and 1280×800: its language, fits the screen, passes axe, ready to turn on, and at 360 px no control under 44 px", async ({
  browser,
  request,
}) => {
  const { farmer } = await ownPump(request);
  const problems: string[] = [];
  for (const language of ["hi", "en"] as const) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const context = await phoneSignedIn(browser, farmer.token, {
        viewport,
        ...(language === "en" ? { language } : {}),
      });
      const page = await context.newPage();
      try {
        await page.goto("/alerts");
        const where = `/alerts (${language}, ${size})`;
        await checkScreen(page, where, DICTIONARIES[language]["alerts.title"], language, problems);
        // Once the page knows what this browser can do: alerts off, ready to turn on.
        await expect(page.getByTestId("alerts")).toHaveAttribute("data-status", "off");
        for (const violation of await seriousAxeViolations(page)) problems.push(`${where} (revealed): ${violation}`);
        if (size === "phone") {
          for (const target of await smallTargets(page)) problems.push(`${where}: control under 44 px: ${target}`);
        }
      } finally {
        await context.close();
      }
    }
  }
  expect(problems).toEqual([]);
});

test("the alerts screen: turn on for this phone, choose kinds, a test alert in Hindi, turn off", async ({
  browser,
  request,
}) => {
  const { farmer, device, pump } = await ownPump(request);
  // Another phone of the farmer, its own session: it keeps getting the pump's alerts.
  const kept = await subscribe(request, { ...farmer, token: await registerFarmerLogin(request, farmer) }, "hi");
  const phone = service.subscribe();
  const context = await phoneSignedIn(browser, farmer.token);
  await context.grantPermissions(["notifications"], { origin: BASE_URL });
  // Chromium here cannot reach a real push service (no network): PushManager hands out the
  // test service's subscription instead, kept for the tab like a real one.
  await context.addInitScript(
    (fake) => {
      const make = () => ({
        endpoint: fake.endpoint,
        expirationTime: null,
        options: {},
        toJSON: () => ({ endpoint: fake.endpoint, expirationTime: null, keys: fake.keys }),
        unsubscribe: async () => {
          sessionStorage.removeItem("fake-push");
          return true;
        },
      });
      PushManager.prototype.subscribe = async () => {
        sessionStorage.setItem("fake-push", "1");
        return make() as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () =>
        (sessionStorage.getItem("fake-push") ? make() : null) as unknown as PushSubscription | null;
    },
    { endpoint: phone.endpoint, keys: phone.keys },
  );
  const page = await context.newPage();
  const hi = DICTIONARIES.hi;
  try {
    await page.goto("/alerts");
    const card = page.getByTestId("alerts");
    await expect(card).toHaveAttribute("data-status", "off");
    await expect(card).toContainText(hi["alerts.off"]);
    await expect(page.getByTestId("alerts-pumps")).toHaveText(
      hi["alerts.pumps"].replace("{pumps}", hi["pumps.unnamed"].replace("{id}", pump.deviceId)),
    );
    expect(await fitsTheScreen(page)).toBe(true);
    await page.getByRole("button", { name: hi["alerts.turnOn"] }).click();
    await expect(card).toHaveAttribute("data-status", "on");
    await expect(card).toContainText(hi["alerts.on"]);

    // Schedules are not wanted on this phone.
    await page.getByLabel(hi["alerts.kind.schedule"]).uncheck();
    // The phone channels' card above has a save button of its own.
    await page
      .getByRole("region", { name: hi["alerts.choose"] })
      .getByRole("button", { name: hi["alerts.save"] })
      .click();
    // Turning on said the same words a moment ago; that toast may still be up beside this one.
    await expect(page.getByTestId("toast").filter({ hasText: hi["alerts.saved"] }).last()).toBeVisible();
    await expect
      .poll(async () => {
        const saved = await request.get(
          `/api/push/subscriptions?endpoint=${encodeURIComponent(phone.endpoint)}`,
          bearer(farmer.token),
        );
        return (await readJson(saved, subscriptionResponseSchema)).subscription;
      })
      .toMatchObject({ kinds: ALERT_KINDS.filter((kind) => kind !== "schedule"), language: "hi" });

    const since = Date.now();
    await page.getByRole("button", { name: hi["alerts.test"] }).click();
    await expect(page.getByTestId("toast").filter({ hasText: hi["alerts.testSent"] })).toBeVisible();
    const push = await expectPush(phone, null, "test", "hi", since, "push.test.title");
    expect(push.payload.body).toBe(hi["push.test.body"]);

    // A reload finds it on, with the kinds saved.
    await page.reload();
    await expect(card).toHaveAttribute("data-status", "on");
    await expect(page.getByLabel(hi["alerts.kind.schedule"])).not.toBeChecked();
    await expect(page.getByLabel(hi["alerts.kind.dryRun"])).toBeChecked();

    await page.getByRole("button", { name: hi["alerts.turnOff"] }).click();
    await expect(card).toHaveAttribute("data-status", "off");
    const after = await request.get(
      `/api/push/subscriptions?endpoint=${encodeURIComponent(phone.endpoint)}`,
      bearer(farmer.token),
    );
    expect((await readJson(after, subscriptionResponseSchema)).subscription).toBeNull();

    // On again, then the farmer logs out: the server forgets this phone with the session.
    await page.getByRole("button", { name: hi["alerts.turnOn"] }).click();
    await expect(card).toHaveAttribute("data-status", "on");
    await logOut(page);
    await expect(page).toHaveURL(/\/\?loggedOut=1$/);
    const again = await registerFarmerLogin(request, farmer);
    const gone = await request.get(
      `/api/push/subscriptions?endpoint=${encodeURIComponent(phone.endpoint)}`,
      bearer(again),
    );
    expect((await readJson(gone, subscriptionResponseSchema)).subscription).toBeNull();
    const since2 = Date.now();
    device.inject("phaseLoss");
    await expectPush(kept, pump, "phase", "hi", since2, "push.phaseFault.title");
    expectNone(phone, "phase", since2);
  } finally {
    await context.close();
  }
});

test("an operator's phone gets the shared pump's alerts by its name and opens that pump; a viewer's does not", async ({
  browser,
  request,
}) => {
  const { farmer: owner, device } = await ownPump(request);
  const pump = { deviceId: device.deviceId, name: "कुएँ वाला पंप" };
  expect(
    (
      await request.put(`/api/pumps/${pump.deviceId}/name`, { data: { name: pump.name }, ...bearer(owner.token) })
    ).status(),
  ).toBe(200);
  // The operator has a pump of their own too, which their pages show unless told otherwise.
  const { farmer: operator, device: ownBox } = await farmerWithDevice(request);
  devices.push(ownBox);
  const viewer = await registerFarmer(request);
  for (const [person, role, label] of [
    [operator, "operator", "राम"],
    [viewer, "viewer", "सीता"],
  ] as const) {
    const invited = await request.post(`/api/pumps/${pump.deviceId}/members`, {
      data: { mobileNo: person.mobileNo, role, label },
      ...bearer(owner.token),
    });
    expect(invited.status()).toBe(201);
    // An invitation gives nothing, alerts included, until it is accepted.
    const accepted = await request.post(`/api/pumps/${pump.deviceId}/invitation`, {
      data: { answer: "accept" },
      ...bearer(person.token),
    });
    expect(accepted.status()).toBe(200);
  }
  const operatorPhone = await subscribe(request, operator, "en");
  const viewerPhone = await subscribe(request, viewer, "hi");

  const since = Date.now();
  device.inject("phaseLoss");
  const push = await expectPush(operatorPhone, pump, "phase", "en", since, "push.phaseFault.title");
  expect(push.payload.title).toBe(`कुएँ वाला पंप · ${DICTIONARIES.en["push.phaseFault.title"]}`);
  expectNone(viewerPhone, "phase", since);

  // The tap: the operator's browser opens the alert's page, which shows that pump, and keeps it.
  const en = DICTIONARIES.en;
  const context = await phoneSignedIn(browser, operator.token, { language: "en" });
  const page = await context.newPage();
  try {
    await page.goto("/motor-control");
    await expect(page.getByTestId(`pump-${ownBox.deviceId}`)).toHaveAttribute("aria-pressed", "true");
    await page.goto(push.payload.url);
    await expect(page.getByTestId(`pump-${pump.deviceId}`)).toHaveAttribute("aria-pressed", "true");
    await page.goto("/motor-schedule");
    await expect(page.getByTestId(`pump-${pump.deviceId}`)).toHaveAttribute("aria-pressed", "true");

    // The alerts screen names the pumps whose alerts come to this phone.
    await page.goto("/alerts");
    const ownName = en["pumps.unnamed"].replace("{id}", ownBox.deviceId);
    await expect(page.getByTestId("alerts-pumps")).toHaveText(
      en["alerts.pumps"].replace("{pumps}", `${ownName}, कुएँ वाला पंप`),
    );
    expect(await fitsTheScreen(page)).toBe(true);
  } finally {
    await context.close();
  }

  // The viewer's screen, in Hindi, says whose alerts the pump they watch sends.
  const viewerContext = await phoneSignedIn(browser, viewer.token);
  const viewerPage = await viewerContext.newPage();
  try {
    await viewerPage.goto("/alerts");
    await expect(viewerPage.getByTestId("alerts-watched")).toHaveText(
      DICTIONARIES.hi["alerts.watchedPumps"].replace("{pumps}", "कुएँ वाला पंप"),
    );
    await expect(viewerPage.getByTestId("alerts-pumps")).toHaveCount(0);
    expect(await fitsTheScreen(viewerPage)).toBe(true);
  } finally {
    await viewerContext.close();
  }
});

/**
 * A farmer registered here verified the number by the code registration sent; this one is an
 * account from before verification, or one whose holder never entered the code.
 */
async function unverifyNumber(farmer: Farmer) {
  await executeLocalSql(
    E2E_PERSIST_DIR,
    `UPDATE users SET number_verified_at = NULL WHERE mobile_no = ${sqlText(farmer.mobileNo)};`,
  );
}

async function channelsOf(request: APIRequestContext, farmer: Farmer) {
  return readJson(await request.get("/api/alerts/channels", bearer(farmer.token)), alertChannelsResponseSchema);
}

test("the alerts screen lists every kind with app, SMS or call before any permission prompt, in Hindi at 360 px; an unverified number is told why and where to verify", async ({
  browser,
  request,
}) => {
  const { farmer } = await ownPump(request);
  await unverifyNumber(farmer);
  const context = await phoneSignedIn(browser, farmer.token);
  const page = await context.newPage();
  const hi = DICTIONARIES.hi;
  try {
    await page.goto("/alerts");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(hi["alerts.title"]);
    const channels = page.getByTestId("alert-channels");
    for (const kind of PHONE_ALERT_KINDS) {
      const group = page.getByRole("group", { name: hi[`alerts.phoneKind.${kind}`] });
      await expect(group.getByRole("radio", { name: hi["alerts.channel.app"] })).toBeChecked();
      await expect(group.getByRole("radio", { name: hi["alerts.channel.sms"] })).toBeDisabled();
      await expect(group.getByRole("radio", { name: hi["alerts.channel.call"] })).toBeDisabled();
    }
    await expect(page.getByTestId("alert-channels-unverified")).toContainText(hi["alerts.channels.unverified"]);
    await expect(page.getByRole("link", { name: hi["alerts.channels.verify"] })).toHaveAttribute(
      "href",
      "/verify-number",
    );
    // The kinds come first, and nothing asked for the notification permission to show them.
    const order = await page.evaluate(() => {
      const kinds = document.querySelector('[data-testid="alert-channels"]');
      const app = document.querySelector('[data-testid="alerts"]');
      return kinds && app ? kinds.compareDocumentPosition(app) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
    });
    expect(order).toBeTruthy();
    expect(await page.evaluate(() => Notification.permission)).toBe("default");
    await expect(channels).toBeVisible();
    expect(await fitsTheScreen(page)).toBe(true);
  } finally {
    await context.close();
  }
});

test("a verified farmer chooses per kind and saves, in Hindi with the page's script and in English without it, at 360 px", async ({
  browser,
  request,
}) => {
  // Registration verified the number by its code.
  const { farmer } = await ownPump(request);
  const hi = DICTIONARIES.hi;
  const en = DICTIONARIES.en;
  const context = await phoneSignedIn(browser, farmer.token);
  const page = await context.newPage();
  try {
    await page.goto("/alerts");
    // The defaults: a call for what may need the farmer now, an SMS for the rest.
    const group = (kind: (typeof PHONE_ALERT_KINDS)[number], texts: Texts) =>
      page.getByRole("group", { name: texts[`alerts.phoneKind.${kind}`] });
    await expect(group("dryRun", hi).getByRole("radio", { name: hi["alerts.channel.call"] })).toBeChecked();
    await expect(group("powerBack", hi).getByRole("radio", { name: hi["alerts.channel.sms"] })).toBeChecked();
    await expect(page.getByTestId("alert-channels-today")).toHaveText(
      hi["alerts.channels.today"]
        .replace("{smsCap}", "10")
        .replace("{sms}", "0")
        .replace("{callCap}", "5")
        .replace("{call}", "0"),
    );
    expect(await fitsTheScreen(page)).toBe(true);
    await group("powerBack", hi).getByText(hi["alerts.channel.call"]).click();
    await group("scheduleMissed", hi).getByText(hi["alerts.channel.app"]).click();
    const save = page.getByTestId("alert-channels").getByRole("button", { name: hi["alerts.save"] });
    await save.click();
    await expect(page.getByTestId("alert-channels-notice")).toHaveText(hi["alerts.saved"]);
    // The confirmation is where the farmer pressed, not a screen's height above it.
    await expect(page.getByTestId("alert-channels-notice")).toBeInViewport();
    await expect(save).toBeInViewport();
    expect(await channelsOf(request, farmer)).toMatchObject({
      channels: { dryRun: "call", powerBack: "call", scheduleMissed: "app" },
      language: "hi",
    });
  } finally {
    await context.close();
  }

  const noScript = await phoneSignedIn(browser, farmer.token, { language: "en", javaScriptEnabled: false });
  const plain = await noScript.newPage();
  try {
    await plain.goto("/alerts");
    await expect(plain.getByRole("heading", { level: 1 })).toHaveText(en["alerts.title"]);
    await expect(plain.getByTestId("alert-channels-language")).toHaveText(
      en["alerts.channels.language"].replace("{language, select, hi {Hindi} other {English}}", "Hindi"),
    );
    const dryRun = plain.getByRole("group", { name: en["alerts.phoneKind.dryRun"] });
    await dryRun.getByText(en["alerts.channel.sms"]).click();
    await plain.getByTestId("alert-channels").getByRole("button", { name: en["alerts.save"] }).click();
    await expect(plain.getByTestId("alert-channels-notice")).toHaveText(en["alerts.saved"]);
    // Without script the answer is a new page: it opens at the confirmation, beside the button.
    await expect(plain.getByTestId("alert-channels-notice")).toBeInViewport();
    await expect(dryRun.getByRole("radio", { name: en["alerts.channel.sms"] })).toBeChecked();
    // Saved from an English page: the SMS and calls now come in English.
    await expect(plain.getByTestId("alert-channels-language")).toHaveText(
      en["alerts.channels.language"].replace("{language, select, hi {Hindi} other {English}}", "English"),
    );
    expect(await fitsTheScreen(plain)).toBe(true);
    expect(await channelsOf(request, farmer)).toMatchObject({
      channels: { dryRun: "sms", powerBack: "call", scheduleMissed: "app" },
      language: "en",
    });
  } finally {
    await noScript.close();
  }
});

test("a phone that cannot take app alerts is told to choose SMS or a call instead of trying again", async ({
  browser,
  request,
}) => {
  const { farmer } = await ownPump(request);
  const hi = DICTIONARIES.hi;
  // A browser without Web Push (an old phone, a private window).
  const without = await phoneSignedIn(browser, farmer.token);
  await without.addInitScript(() => {
    delete (window as { PushManager?: unknown }).PushManager;
  });
  const page = await without.newPage();
  try {
    await page.goto("/alerts");
    await expect(page.getByTestId("alerts")).toHaveAttribute("data-status", "unsupported");
    await expect(page.getByTestId("alerts")).toContainText(hi["alerts.unsupported"]);
    expect(hi["alerts.unsupported"]).toContain("SMS या कॉल");
  } finally {
    await without.close();
  }
  // A browser whose push service refuses the subscription (a battery saver, no Google services).
  const refusing = await phoneSignedIn(browser, farmer.token);
  await refusing.grantPermissions(["notifications"], { origin: BASE_URL });
  await refusing.addInitScript(() => {
    PushManager.prototype.getSubscription = async () => null;
    PushManager.prototype.subscribe = async () => {
      throw new DOMException("Registration failed - push service not available", "AbortError");
    };
  });
  const refused = await refusing.newPage();
  try {
    await refused.goto("/alerts");
    await expect(refused.getByTestId("alerts")).toHaveAttribute("data-status", "off");
    await refused.getByRole("button", { name: hi["alerts.turnOn"] }).click();
    await expect(refused.getByTestId("toast").filter({ hasText: hi["alerts.subscribeFailed"] })).toBeVisible();
  } finally {
    await refusing.close();
  }
});
