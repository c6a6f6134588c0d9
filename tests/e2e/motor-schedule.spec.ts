// Schedules end to end: the list first and one form at a time, the spec's form with its Hindi
// messages, edit and delete, and runs carried out by the device's hub at their time with no page
// open, or missed while the box was offline. Each test has a farmer and a simulated box of its own.
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { readJson } from "../../common/api-client.ts";
import { scheduleListResponseSchema } from "../../common/api-responses/schedules.ts";
import { formatTimeOfDay } from "../../common/i18n/format.ts";
import type { ScheduleView } from "../../common/schedule-schemas.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { devicesStoppedAfterEach, farmerWithDevice, signedIn, startDevice } from "./admin-support.ts";
import { apiAs, en, hi, registerAndLogIn, scheduleSoon, type Texts, useLanguage, VIEWPORTS } from "./support.ts";

const devices = devicesStoppedAfterEach();

/** A farmer of the test's own, with an online box, signed in on the schedules page; their box and its key. */
async function openSchedules(page: Page, request: APIRequestContext, texts: Texts = hi) {
  const { farmer, device, key } = await farmerWithDevice(request);
  devices.push(device);
  await signedIn(page.context(), farmer.token);
  await page.goto("/motor-schedule");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts["schedule.title"]);
  return { device, key };
}

/** The hour (named "सुबह 6", "6 am": 0–23 underneath) and the minute. */
async function setTime(page: Page, minuteOfDay: number) {
  await page.getByTestId("schedule-hour").selectOption(String(Math.floor(minuteOfDay / 60)));
  await page.getByTestId("schedule-minute").selectOption(String(minuteOfDay % 60));
}

/** Opens the form for a new schedule at a time: the page shows one form at a time. */
async function addClockSchedule(page: Page) {
  await page.getByTestId("add-clock").click();
  await expect(page.locator("#schedule-form")).toBeVisible();
}

const notice = (page: Page) => page.getByTestId("schedule-notice");
const done = (page: Page) => page.getByTestId("schedule-done");

type ScheduleChoices = { at?: number; action?: "OFF"; duration?: string; repeat?: "once" };

/** Chooses in the open form: its time, what it does, for how long and how often; what is not given stays as it is. */
async function fillSchedule(page: Page, texts: Texts, choices: ScheduleChoices) {
  const form = page.locator("#schedule-form");
  if (choices.at !== undefined) await setTime(page, choices.at);
  if (choices.action) await form.getByLabel(texts["schedule.action"]).selectOption(choices.action);
  if (choices.duration !== undefined) await form.getByLabel(texts["schedule.duration"]).selectOption(choices.duration);
  if (choices.repeat) await form.getByLabel(texts["schedule.repeat"]).selectOption(choices.repeat);
}

/** Opens the form for a new schedule, chooses `choices`, saves it and sees it saved. */
async function addSchedule(page: Page, texts: Texts, choices: ScheduleChoices) {
  await addClockSchedule(page);
  await fillSchedule(page, texts, choices);
  await page.locator("#schedule-form").getByRole("button", { name: texts["schedule.save"] }).click();
  await expect(done(page)).toHaveText(texts["schedule.saved"]);
}

test("a farmer without a device is told so and is offered no form", async ({ page }) => {
  await registerAndLogIn(page);
  await page.goto("/motor-schedule");
  await expect(page.getByText(hi["motor.noDevice"])).toBeVisible();
  await expect(page.getByTestId("add-schedule")).toHaveCount(0);
  // No form in the page itself (the header keeps its language switch and logout).
  await expect(page.locator("main form")).toHaveCount(0);
  await expect(page.getByTestId("schedules-empty")).toHaveText(hi["schedule.none"]);
});

test("at 360 px the list comes first, one form at a time, a new ON stops after 60 minutes, and the saved schedule is in view", async ({
  page,
  request,
}) => {
  await openSchedules(page, request);
  const api = apiAs(page);
  for (const time of ["5:00 AM", "6:00 AM", "7:00 AM", "8:00 PM"]) {
    expect((await api.post("/api/schedule", { time, action: "OFF", repeat: "daily" })).status()).toBe(201);
  }
  await page.reload();
  // The farmer's schedules are the first thing on the page, and no form is open.
  const listTitle = page.getByRole("heading", { level: 2, name: hi["schedule.listTitle"] });
  await expect(listTitle).toBeInViewport();
  await expect(page.getByTestId("schedule-item")).toHaveCount(4);
  await expect(page.locator("form[data-testid$=-form]")).toHaveCount(0);
  // The list writes times as people say them in Hindi.
  await expect(page.getByTestId("schedule-item").first().locator(".schedule-time")).toHaveText("सुबह 5:00");
  await expect(page.getByTestId("schedule-item").last().locator(".schedule-time")).toHaveText("रात 8:00");

  // One form: the power window's stays closed while the clock one is open.
  await addClockSchedule(page);
  await expect(page.locator("#window-form")).toHaveCount(0);
  await expect(page.getByTestId("add-schedule")).toHaveCount(0);
  await expect(page.locator('input[type="time"]')).toHaveCount(0);
  // SPEC's 10:00 AM, ON, daily; a new ON switches off again after an hour.
  await expect(page.getByTestId("schedule-hour")).toHaveValue("10");
  await expect(page.getByTestId("schedule-hour").locator("option:checked")).toHaveText("सुबह 10");
  await expect(page.getByTestId("schedule-minute")).toHaveValue("0");
  await expect(page.locator("#schedule-form").getByLabel(hi["schedule.action"])).toHaveValue("ON");
  await expect(page.locator("#schedule-form").getByLabel(hi["schedule.repeat"])).toHaveValue("daily");
  await expect(page.locator("#schedule-form").getByLabel(hi["schedule.duration"])).toHaveValue("60");
  await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.save"], exact: true }).click();

  // Saved: the form closes, and the new schedule is shown, in view, with the focus.
  await expect(done(page)).toHaveText(hi["schedule.saved"]);
  await expect(page.locator("#schedule-form")).toHaveCount(0);
  const saved = page.locator(".schedule-item.just-saved");
  await expect(saved).toHaveCount(1);
  await expect(saved).toBeInViewport();
  await expect(saved).toBeFocused();
  await expect(saved.locator(".schedule-time")).toHaveText("सुबह 10:00");
  // For how long, and when it goes OFF: "60 मिनट चालू, सुबह 11:00 पर बंद".
  await expect(saved.getByTestId("schedule-ends")).toHaveText(
    hi["schedule.forMinutesUntil"].replace("{minutes}", "60").replace("{end}", formatTimeOfDay(660, "hi")),
  );
  // Its next run by the day's word as Intl says it (today or tomorrow), not the date.
  const istMinute = Math.floor((Date.now() + 330 * 60_000) / 60_000) % (24 * 60);
  const nextDay = new Intl.RelativeTimeFormat("hi-IN", { numeric: "auto" }).format(istMinute < 600 ? 0 : 1, "day");
  await expect(saved).toContainText(hi["schedule.next"].replace("{time}", `${nextDay} सुबह 10:00`));

  // The power window's form saves with the same word.
  await page.getByTestId("add-window").click();
  await expect(page.locator("#window-form")).toBeVisible();
  await expect(page.locator("#schedule-form")).toHaveCount(0);
  await expect(
    page.locator("#window-form").getByRole("button", { name: hi["schedule.save"], exact: true }),
  ).toBeVisible();
  await page.getByTestId("window-cancel").click();
  await expect(page.locator("#window-form")).toHaveCount(0);
});

test("saving in Hindi, a refusal in the form, editing and deleting", async ({ page, request }) => {
  await openSchedules(page, request);
  await addSchedule(page, hi, { duration: "" });

  const items = page.getByTestId("schedule-item");
  await expect(items).toHaveCount(1);
  await expect(items.first().locator(".schedule-time")).toHaveText(formatTimeOfDay(600, "hi"));
  await expect(items.first()).toContainText(hi["schedule.repeat.daily"]);
  await expect(items.first()).toContainText(hi["schedule.next"].replace(" {time}", ""));
  await expect(items.first().getByTestId("schedule-ends")).toHaveCount(0);

  // The same minute twice is refused, in the form, with the time as the page writes it.
  await addClockSchedule(page);
  await fillSchedule(page, hi, { at: 600, action: "OFF" });
  await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.save"] }).click();
  await expect(notice(page)).toHaveText(hi["schedule.conflict"].replace("{time}", "सुबह 10:00"));
  await expect(page.locator("#schedule-form").getByLabel(hi["schedule.action"])).toHaveValue("OFF");

  await items.first().getByRole("link", { name: hi["schedule.edit"] }).click();
  await expect(page.getByRole("heading", { name: hi["schedule.editTitle"] })).toBeVisible();
  await fillSchedule(page, hi, { at: 5 * 60 + 30, action: "OFF", repeat: "once" });
  await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.update"] }).click();
  await expect(done(page)).toHaveText(hi["schedule.updated"]);
  await expect(items).toHaveCount(1);
  await expect(items.first().locator(".schedule-time")).toHaveText(formatTimeOfDay(330, "hi"));
  await expect(items.first()).toContainText(hi["motor.off"]);
  await expect(items.first()).toContainText(hi["schedule.repeat.once"]);

  await items.first().getByRole("link", { name: hi["schedule.delete"] }).click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText(hi["schedule.deleteConfirm"].replace("{time}", formatTimeOfDay(330, "hi")));
  await dialog.getByRole("button", { name: hi["dialog.confirm"] }).click();
  await expect(done(page)).toHaveText(hi["schedule.deleted"]);
  await expect(page.getByTestId("schedules-empty")).toBeVisible();
});

test.describe("in English on a wide screen", () => {
  test.use({ viewport: VIEWPORTS.desktop });

  test("several schedules, one of them ON for 30 minutes", async ({ page, context, request }) => {
    await useLanguage(context, "en");
    await openSchedules(page, request, en);
    await addSchedule(page, en, { at: 6 * 60, duration: "30" });
    await addClockSchedule(page);
    await fillSchedule(page, en, { at: 18 * 60 + 15, action: "OFF" });
    await expect(page.locator("#schedule-form").getByLabel(en["schedule.duration"])).toHaveCount(0); // only for ON
    await page.locator("#schedule-form").getByRole("button", { name: en["schedule.save"] }).click();
    await expect(done(page)).toHaveText(en["schedule.saved"]);
    const items = page.getByTestId("schedule-item");
    await expect(items).toHaveCount(2);
    await expect(items.nth(0).locator(".schedule-time")).toHaveText("6:00 am");
    await expect(items.nth(0).getByTestId("schedule-ends")).toHaveText("ON for 30 minutes, OFF at 6:30 am");
    await expect(items.nth(1).locator(".schedule-time")).toHaveText("6:15 pm");
  });
});

/** A schedule saved by `scheduleSoon` runs within two minutes; then its outcome is a condition awaited. */
const UNTIL_THE_MINUTE_MS = 2 * 60_000 + CONDITION_LIMIT_MS;

async function schedulesOf(page: Page): Promise<ScheduleView[]> {
  return (await readJson(await apiAs(page).get("/api/schedule"), scheduleListResponseSchema)).schedules;
}

test("the hub runs a schedule at its time with no page open, and logs one missed while the box is offline", async ({
  page,
  request,
}) => {
  const opened = await openSchedules(page, request);
  let device = opened.device;
  const { minute: onAt } = await scheduleSoon(page, { action: "ON" });

  // Nobody watches: the page is gone.
  await page.goto("about:blank");
  await expect.poll(() => device.relay, { timeout: UNTIL_THE_MINUTE_MS, intervals: [1_000] }).toBe("on");

  // The box drops off the network; an OFF is due while it is away.
  await device.stop();
  await page.goto("/motor-schedule");
  const { minute: offAt } = await scheduleSoon(page, { action: "OFF" });
  await expect
    .poll(async () => (await schedulesOf(page)).find((schedule) => schedule.minuteOfDay === offAt)?.lastRun?.outcome, {
      timeout: UNTIL_THE_MINUTE_MS,
      intervals: [2_000],
    })
    .toBe("missed");
  device = await startDevice(device.deviceId, opened.key); // a box that restarts comes back with its relay OFF
  devices.push(device);

  await page.reload();
  const items = page.getByTestId("schedule-item");
  const onItem = items.filter({ hasText: formatTimeOfDay(onAt, "hi") });
  const offItem = items.filter({ hasText: formatTimeOfDay(offAt, "hi") });
  await expect(onItem.getByTestId("schedule-last-run")).toHaveAttribute("data-outcome", "done");
  await expect(onItem).toContainText(hi["schedule.finished"]);
  await expect(offItem.getByTestId("schedule-last-run")).toHaveAttribute("data-outcome", "missed");
  await expect(offItem).toContainText(hi["schedule.reason.offline"]);

  await page.goto("/logs");
  const missed = page
    .getByTestId("log-item")
    .filter({ hasText: `${formatTimeOfDay(offAt, "hi")} का शेड्यूल (बंद) छूट गया: डिवाइस ऑफ़लाइन था।` });
  await expect(missed).toHaveAttribute("data-action", "other");
  await expect(page.getByTestId("log-item").filter({ hasText: "मोटर चालू की गई (शेड्यूल से:" }).first()).toHaveAttribute(
    "data-action",
    "on",
  );
  // The hub believes the box that came back: the pump is left OFF.
  await page.goto("/motor-control");
  await expect(page.getByTestId("motor-status")).toHaveAttribute("data-state", "off");
});
