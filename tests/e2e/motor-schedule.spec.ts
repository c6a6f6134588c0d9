// Schedules end to end: the spec's form, its Hindi messages, the list with edit and delete, and
// runs carried out by the device's hub at their time with no page open, or missed while the
// box was offline.
import { expect, type Page, test } from "@playwright/test";
import { readJson } from "../../common/api-client.ts";
import { scheduleListResponseSchema } from "../../common/api-responses/schedules.ts";
import type { ScheduleView } from "../../common/schedule-schemas.ts";
import { clockParts, formatClock, istMinuteOfDay, MINUTES_PER_DAY } from "../../common/schedule-time.ts";
import type { SimulatedDevice } from "../../device-sim/simulated-device.ts";
import {
  apiAs,
  DEMO_USER,
  deleteAllSchedules,
  en,
  hi,
  logIn,
  registerAndLogIn,
  startDemoDevice,
  type Texts,
  useLanguage,
  VIEWPORTS,
} from "./support.ts";

// Whatever a test created, the demo pump must never run it later by surprise.
test.afterEach(async ({ page }) => {
  await deleteAllSchedules(page);
});

async function openSchedules(page: Page, texts: Texts = hi) {
  await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password, texts);
  await deleteAllSchedules(page);
  await page.goto("/motor-schedule");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts["motor.title"]);
}

async function setTime(page: Page, minuteOfDay: number) {
  const { hour, minute, meridiem } = clockParts(minuteOfDay);
  await page.getByTestId("schedule-hour").selectOption(String(hour));
  await page.getByTestId("schedule-minute").selectOption(String(minute));
  await page.getByTestId("schedule-meridiem").selectOption(meridiem);
}

const notice = (page: Page) => page.getByTestId("schedule-notice");

test("a farmer without a device is told so and cannot save", async ({ page }) => {
  await registerAndLogIn(page);
  await page.goto("/motor-schedule");
  await expect(page.getByText(hi["motor.noDevice"])).toBeVisible();
  await expect(page.locator("#schedule-form").getByRole("button", { name: hi["schedule.save"] })).toBeDisabled();
  await expect(page.getByTestId("schedules-empty")).toHaveText(hi["schedule.none"]);
});

test("the form's defaults, saving in Hindi, the cleared time, editing and deleting", async ({ page }) => {
  await openSchedules(page);
  // No clock popup: hour, minute and AM/PM are plain selects, at 10:00 AM, ON, daily.
  await expect(page.locator('input[type="time"]')).toHaveCount(0);
  await expect(page.getByTestId("schedule-hour")).toHaveValue("10");
  await expect(page.getByTestId("schedule-minute")).toHaveValue("0");
  await expect(page.getByTestId("schedule-meridiem")).toHaveValue("AM");
  await expect(page.locator("#schedule-form").getByLabel(hi["schedule.action"])).toHaveValue("ON");
  await expect(page.locator("#schedule-form").getByLabel(hi["schedule.repeat"])).toHaveValue("daily");
  await expect(page.locator("#schedule-form").getByLabel(hi["schedule.duration"])).toHaveValue("");

  await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.save"] }).click();
  await expect(notice(page)).toHaveText(hi["schedule.saved"]);
  // The time is cleared after a save; saving again asks for it (SPEC §5, §8).
  await expect(page.getByTestId("schedule-hour")).toHaveValue("");
  await expect(page.getByTestId("schedule-minute")).toHaveValue("");
  await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.save"] }).click();
  await expect(notice(page)).toHaveText(hi["schedule.setTime"]);

  const items = page.getByTestId("schedule-item");
  await expect(items).toHaveCount(1);
  await expect(items.first().locator(".schedule-time")).toHaveText(timeOfDay(600, "hi"));
  await expect(items.first()).toContainText(hi["schedule.repeat.daily"]);
  await expect(items.first()).toContainText(hi["schedule.next"].replace(" {time}", ""));

  // The same minute twice is refused.
  await setTime(page, 600);
  await page.locator("#schedule-form").getByLabel(hi["schedule.action"]).selectOption("OFF");
  await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.save"] }).click();
  await expect(notice(page)).toHaveText(hi["schedule.conflict"].replace("{time}", "10:00 AM"));

  await items.first().getByRole("link", { name: hi["schedule.edit"] }).click();
  await expect(page.getByRole("heading", { name: hi["schedule.editTitle"] })).toBeVisible();
  await setTime(page, 5 * 60 + 30);
  await page.locator("#schedule-form").getByLabel(hi["schedule.action"]).selectOption("OFF");
  await page.locator("#schedule-form").getByLabel(hi["schedule.repeat"]).selectOption("once");
  await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.update"] }).click();
  await expect(notice(page)).toHaveText(hi["schedule.updated"]);
  await expect(items).toHaveCount(1);
  await expect(items.first().locator(".schedule-time")).toHaveText(timeOfDay(330, "hi"));
  await expect(items.first()).toContainText(hi["motor.off"]);
  await expect(items.first()).toContainText(hi["schedule.repeat.once"]);

  await items.first().getByRole("link", { name: hi["schedule.delete"] }).click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText(hi["schedule.deleteConfirm"].replace("{time}", timeOfDay(330, "hi")));
  await dialog.getByRole("button", { name: hi["dialog.confirm"] }).click();
  await expect(notice(page)).toHaveText(hi["schedule.deleted"]);
  await expect(page.getByTestId("schedules-empty")).toBeVisible();
});

test.describe("in English on a wide screen", () => {
  test.use({ viewport: VIEWPORTS.desktop });

  test("several schedules, one of them ON for 30 minutes", async ({ page, context }) => {
    await useLanguage(context, "en");
    await openSchedules(page, en);
    await setTime(page, 6 * 60);
    await page.locator("#schedule-form").getByLabel(en["schedule.duration"]).selectOption("30");
    await page.locator("#schedule-form").getByRole("button", { name: en["schedule.save"] }).click();
    await expect(notice(page)).toHaveText(en["schedule.saved"]);
    await setTime(page, 18 * 60 + 15);
    await page.locator("#schedule-form").getByLabel(en["schedule.action"]).selectOption("OFF");
    await expect(page.locator("#schedule-form").getByLabel(en["schedule.duration"])).toHaveCount(0); // only for ON
    await page.locator("#schedule-form").getByRole("button", { name: en["schedule.save"] }).click();
    await expect(notice(page)).toHaveText(en["schedule.saved"]);
    const items = page.getByTestId("schedule-item");
    await expect(items).toHaveCount(2);
    await expect(items.nth(0).locator(".schedule-time")).toHaveText(timeOfDay(360, "en"));
    await expect(items.nth(0)).toContainText(en["schedule.forMinutes"].replace("{minutes}", "30"));
    await expect(items.nth(1).locator(".schedule-time")).toHaveText(timeOfDay(18 * 60 + 15, "en"));
  });
});

/** A clock time at least 20 s away, in India time: the next minute, or the one after. */
function nearMinute(): number {
  const now = Date.now();
  const secondsLeft = 60 - new Date(now).getUTCSeconds();
  return (istMinuteOfDay(now) + (secondsLeft > 20 ? 1 : 2)) % MINUTES_PER_DAY;
}

async function schedulesOf(page: Page): Promise<ScheduleView[]> {
  return (await readJson(await apiAs(page).get("/api/schedule"), scheduleListResponseSchema)).schedules;
}

test("the hub runs a schedule at its time with no page open, and logs one missed while the box is offline", async ({
  page,
}) => {
  test.setTimeout(300_000);
  let device: SimulatedDevice = await startDemoDevice();
  try {
    await openSchedules(page);
    const onAt = nearMinute();
    const offAt = (onAt + 1) % MINUTES_PER_DAY;
    await setTime(page, onAt);
    await page.locator("#schedule-form").getByLabel(hi["schedule.repeat"]).selectOption("once");
    await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.save"] }).click();
    await expect(notice(page)).toHaveText(hi["schedule.saved"]);
    await setTime(page, offAt);
    await page.locator("#schedule-form").getByLabel(hi["schedule.action"]).selectOption("OFF");
    await page.locator("#schedule-form").getByLabel(hi["schedule.repeat"]).selectOption("once");
    await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.save"] }).click();
    await expect(notice(page)).toHaveText(hi["schedule.saved"]);

    // Nobody watches: the page is gone.
    await page.goto("about:blank");
    await expect.poll(() => device.relay, { timeout: 150_000, intervals: [1_000] }).toBe("on");

    // The box drops off the network before the OFF schedule's minute.
    await device.stop();
    await page.goto("/motor-schedule");
    await expect
      .poll(
        async () => (await schedulesOf(page)).find((schedule) => schedule.minuteOfDay === offAt)?.lastRun?.outcome,
        {
          timeout: 150_000,
          intervals: [2_000],
        },
      )
      .toBe("missed");
    device = await startDemoDevice(); // a box that restarts comes back with its relay OFF

    await page.reload();
    const items = page.getByTestId("schedule-item");
    const onItem = items.filter({ hasText: formatClock(onAt) });
    const offItem = items.filter({ hasText: formatClock(offAt) });
    await expect(onItem.getByTestId("schedule-last-run")).toHaveAttribute("data-outcome", "done");
    await expect(onItem).toContainText(hi["schedule.finished"]);
    await expect(offItem.getByTestId("schedule-last-run")).toHaveAttribute("data-outcome", "missed");
    await expect(offItem).toContainText(hi["schedule.reason.offline"]);

    await page.goto("/logs");
    const missed = page
      .getByTestId("log-item")
      .filter({ hasText: `${formatClock(offAt)} का शेड्यूल (बंद) छूट गया: डिवाइस ऑफ़लाइन था।` });
    await expect(missed).toHaveAttribute("data-action", "other");
    await expect(page.getByTestId("log-item").filter({ hasText: "मोटर चालू की गई (शेड्यूल से:" }).first()).toHaveAttribute(
      "data-action",
      "on",
    );
    // The hub believes the box that came back: the pump is left OFF.
    await page.goto("/motor-control");
    await expect(page.getByTestId("motor-status")).toHaveAttribute("data-state", "off");
  } finally {
    await device.stop();
  }
});

/**
 * A time of day as the page writes it in `language`: the same Intl style as every other time on
 * the page ("10:00 am" beside "next: 23 Nov 2026, 10:00 am"), never "10:00 AM" beside it.
 */
function timeOfDay(minuteOfDay: number, language: "hi" | "en"): string {
  return new Date(Date.UTC(2000, 0, 1, 0, minuteOfDay)).toLocaleTimeString(language === "hi" ? "hi-IN" : "en-IN", {
    timeZone: "UTC",
    timeStyle: "short",
  });
}
