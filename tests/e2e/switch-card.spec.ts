/// <reference lib="dom" />
// The dashboard's switch card at 360 px, as a farmer reads it: a line that says whether the
// motor runs and buttons that say what they do (never the state), how long it has run and when
// a timed run stops, a start-up surge never shown as the running reading, and no message that
// contradicts what the page already knows. Every test has its own farmer and box.
import { expect, type Page, test } from "@playwright/test";
import { formatSince } from "../../common/i18n/format.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { devicesStoppedAfterEach, openOwnPump, RATED_CONFIG } from "./admin-support.ts";
import { DICTIONARIES, en, hi, scheduleSoon, toast, useLanguage } from "./support.ts";

const devices = devicesStoppedAfterEach();

const stateLine = (page: Page) => page.getByTestId("motor-status");
const switchCard = (page: Page) => page.locator(".toggle-card");

/** The names of the switch card's buttons that switch the motor. */
async function switchButtonNames(page: Page): Promise<string[]> {
  return switchCard(page)
    .locator("button[name=command]")
    .evaluateAll((buttons) => buttons.map((button) => button.textContent?.trim() ?? ""));
}

for (const language of ["hi", "en"] as const) {
  test(`the switch says in words whether the motor runs, and each button says what it will do (${language})`, async ({
    page,
    context,
    request,
  }) => {
    const texts = DICTIONARIES[language];
    await useLanguage(context, language);
    const { device } = await openOwnPump(page, request, devices, { texts });
    // OFF: the line says so, the one button starts the motor, and no button is named after a state.
    await expect(stateLine(page)).toHaveText(texts["switch.stateOff"]);
    const start = switchCard(page).getByRole("button", { name: texts["motor.turnOn"], exact: true });
    await expect(start).toBeEnabled();
    expect(await switchButtonNames(page)).toEqual([texts["motor.turnOn"]]);
    for (const word of [texts["motor.on"], texts["motor.off"]])
      await expect(page.getByRole("button", { name: word, exact: true })).toHaveCount(0);

    await start.click();
    await expect(stateLine(page)).toHaveText(texts["switch.stateOn"]);
    expect(device.relay).toBe("on");
    const stop = switchCard(page).getByRole("button", { name: texts["motor.turnOff"], exact: true });
    await expect(stop).toBeEnabled();
    expect(await switchButtonNames(page)).toEqual([texts["motor.turnOff"]]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // Stopping is never held back: the stop button works at once, and the line follows the box.
    await stop.click();
    await expect(stateLine(page)).toHaveText(texts["switch.stateOff"]);
    expect(device.relay).toBe("off");
    expect(await switchButtonNames(page)).toEqual([texts["motor.turnOn"]]);
  });
}

test("the late answer to the status the page asked for on opening never contradicts the farmer's confirmed ON", async ({
  page,
  request,
}) => {
  // A slow line: the answer to the status request sent on opening (the motor was OFF then)
  // arrives only after the farmer's ON has been confirmed.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const answered: string[] = [];
  await page.route("**/api/pumps/*/status", async (route) => {
    const response = await route.fetch();
    answered.push(JSON.parse(await response.text()).status);
    await held;
    await route.fulfill({ response });
  });
  const { device } = await openOwnPump(page, request, devices);
  await expect.poll(() => answered).toEqual(["off"]);
  await switchCard(page).getByRole("button", { name: hi["motor.turnOn"], exact: true }).click();
  await expect(stateLine(page)).toHaveText(hi["switch.stateOn"]);
  expect(device.relay).toBe("on");

  // Every toast shown from now on, however briefly.
  await page.evaluate(() => {
    const shown: string[] = [];
    Object.assign(window, { toastsShown: shown });
    new MutationObserver((changes) => {
      for (const change of changes)
        for (const node of change.addedNodes)
          if (node instanceof HTMLElement && node.dataset.testid === "toast") shown.push(node.textContent ?? "");
    }).observe(document.body, { subtree: true, childList: true });
  });
  const delivered = page.waitForResponse("**/api/pumps/*/status");
  release();
  await delivered;
  // The page has had the answer: nothing it says now may be "OFF".
  await page.waitForTimeout(1_000);
  const shown = await page.evaluate(() => (window as unknown as { toastsShown: string[] }).toastsShown);
  expect(shown).not.toContain(hi["status.current"].replace("{status}", hi["motor.off"]));
  await expect(stateLine(page)).toHaveText(hi["switch.stateOn"]);
});

test("the opening answer's word on the motor is withdrawn the moment the farmer switches it", async ({
  page,
  request,
}) => {
  const { device } = await openOwnPump(page, request, devices);
  const saidOff = hi["status.current"].replace("{status}", hi["motor.off"]);
  await expect(toast(page, saidOff)).toBeVisible();
  // Whether "the motor is currently OFF" was ever on the screen beside a running motor, checked
  // after every change to the page, however brief.
  await page.evaluate(
    ({ off, running }) => {
      const state = { both: false };
      Object.assign(window, { offBesideRunning: state });
      new MutationObserver(() => {
        const toasts = [...document.querySelectorAll("[data-testid=toast]")].map((node) => node.textContent);
        const line = document.querySelector("[data-testid=motor-status]")?.textContent;
        if (line === running && toasts.includes(off)) state.both = true;
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    { off: saidOff, running: hi["switch.stateOn"] },
  );
  await switchCard(page).getByRole("button", { name: hi["motor.turnOn"], exact: true }).click();
  await expect(stateLine(page)).toHaveText(hi["switch.stateOn"]);
  expect(device.relay).toBe("on");
  expect(await toast(page, saidOff).count()).toBe(0);
  expect(
    await page.evaluate(() => (window as unknown as { offBesideRunning: { both: boolean } }).offBesideRunning.both),
  ).toBe(false);
});

test("the start-up surge is labelled as such, never shown as the running reading", async ({ page, request }) => {
  await openOwnPump(page, request, devices);
  // Every reading the page shows, with whether the surge label stood beside it.
  await page.evaluate(() => {
    const seen: { current: string; labelled: boolean }[] = [];
    Object.assign(window, { seenReadings: seen });
    const record = () => {
      const current = document.querySelector("[data-testid=current]")?.textContent ?? "";
      const labelled = document.querySelector("[data-testid=start-surge]") !== null;
      const last = seen.at(-1);
      if (!last || last.current !== current || last.labelled !== labelled) seen.push({ current, labelled });
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await switchCard(page).getByRole("button", { name: hi["motor.turnOn"], exact: true }).click();
  await expect(stateLine(page)).toHaveText(hi["switch.stateOn"]);
  // After the hub's start-up grace the box's next reading is the running current, unlabelled.
  await expect
    .poll(async () => {
      const amperes = Number(((await page.getByTestId("current").textContent()) ?? "").replace(/[^\d.]/g, ""));
      return (
        amperes > 0 &&
        amperes < RATED_CONFIG.defaultCurrent * 1.2 &&
        (await page.getByTestId("start-surge").count()) === 0
      );
    })
    .toBe(true);
  const seen = (await page.evaluate(() => (window as unknown as { seenReadings: unknown }).seenReadings)) as {
    current: string;
    labelled: boolean;
  }[];
  const amperes = (text: string) => Number(text.replace(/[^\d.]/g, ""));
  // The box reported the surge (several times the running current) and the page showed it...
  const surges = seen.filter((reading) => amperes(reading.current) > RATED_CONFIG.defaultCurrent * 2);
  expect(surges.length).toBeGreaterThan(0);
  // ...each time labelled as the start-up surge.
  expect(surges.filter((reading) => !reading.labelled)).toEqual([]);
});

test("the switch card says how long the motor has run, who started it and, for a timed run, when it stops", async ({
  page,
  request,
}) => {
  const { device } = await openOwnPump(page, request, devices);
  const runLine = page.getByTestId("run-line");
  // A farmer's own start: how long it has run, and no stop time (nothing will stop it).
  await switchCard(page).getByRole("button", { name: hi["motor.turnOn"], exact: true }).click();
  // ...and, on its own line, who started it: the reader, in the app.
  await expect(runLine).toHaveText(
    new RegExp(`^${hi["switch.runningFor"].replace("{duration}", "\\d+ सेकंड")}\\s*किसने: आप, ऐप से$`),
  );
  await expect(runLine).not.toHaveAttribute("data-stops-at");
  await switchCard(page).getByRole("button", { name: hi["motor.turnOff"], exact: true }).click();
  await expect(stateLine(page)).toHaveText(hi["switch.stateOff"]);
  await expect(runLine).toHaveCount(0);

  // A schedule's "ON for 30 minutes", due within the next two minutes (India time).
  const { savedFrom: now } = await scheduleSoon(page, { action: "ON", durationMinutes: 30 });
  await expect.poll(() => device.relay, { timeout: 2 * 60_000 + CONDITION_LIMIT_MS, intervals: [1_000] }).toBe("on");
  await expect(stateLine(page)).toHaveText(hi["switch.stateOn"]);
  const stopsAt = Number(await runLine.getAttribute("data-stops-at"));
  // Due 30 minutes after the ON left for the box, within the minute it was scheduled for.
  const sentBetween = [now, Date.now()];
  expect(stopsAt).toBeGreaterThanOrEqual(sentBetween[0]! + 30 * 60_000);
  expect(stopsAt).toBeLessThanOrEqual(sentBetween[1]! + 30 * 60_000);
  await expect(runLine).toContainText(hi["switch.stopsAt"].replace("{time}", formatSince(stopsAt, "hi")));
  await expect(runLine).toContainText(hi["switch.runningFor"].replace("{duration}", ""));
  await expect(runLine).toContainText("किसने: शेड्यूल");
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // In English, the same line in English words.
  await useLanguage(page.context(), "en");
  await page.reload();
  await expect(runLine).toContainText(en["switch.stopsAt"].replace("{time}", formatSince(stopsAt, "en")));
});
