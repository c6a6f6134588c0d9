// Every action of the farmer's and the admin's pages with JavaScript off: each is a plain form
// whose route action does the work, and the page that comes back shows what really happened
// (the box's relay, the schedule in the list, the request on file) or why not, in Hindi. Its
// own farmers and boxes, so it runs beside the other specs.
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { readJson } from "../../common/api-client.ts";
import { motorStatusResponseSchema } from "../../common/api-responses/devices.ts";
import { scheduleListResponseSchema } from "../../common/api-responses/schedules.ts";
import { formatTimeOfDay } from "../../common/i18n/format.ts";
import type { SimulatedDevice } from "../../device-sim/simulated-device.ts";
import { adminHi, DEMO_ADMIN, type Farmer, farmerWithDevice, registerFarmer } from "./admin-support.ts";
import { BASE_URL, en, hi, logOut, sendRegistration, uniqueMobileNo } from "./support.ts";

test.use({ javaScriptEnabled: false, serviceWorkers: "block" });

async function logInAs(page: Page, farmer: Farmer) {
  await page.goto("/login");
  await page.getByLabel(hi["auth.mobileNo"]).fill(farmer.mobileNo);
  await page.getByLabel(hi["auth.password"]).fill(farmer.password);
  await page.getByRole("button", { name: hi["login.button"] }).click();
  await expect(page).toHaveURL(/\/motor-control$/);
}

/** A fresh farmer with a running box, logged in; the box stops however `body` ends. */
async function asFarmerWithBox(
  page: Page,
  request: APIRequestContext,
  body: (made: { farmer: Farmer; device: SimulatedDevice }) => Promise<void>,
) {
  const made = await farmerWithDevice(request);
  try {
    await logInAs(page, made.farmer);
    await body(made);
  } finally {
    await made.device.stop();
  }
}

/** The pump's state as the hub tells the API (what the page's loader reads too). */
async function pumpStatus(request: APIRequestContext, farmer: Farmer) {
  const response = await request.get(`/api/devices/motor/status/${farmer.mobileNo}`, {
    headers: { Authorization: `Bearer ${farmer.token}` },
  });
  return readJson(response, motorStatusResponseSchema);
}

test("a page with script still gets its Hindi font at once when script is off", async ({ page }) => {
  // Pages with script ask for the font after hydrating (app/root.tsx); without script the
  // <noscript> style gives it back. This machine's chromium has no Noto Sans Devanagari of its
  // own, so a page that uses the font downloads it.
  const fonts: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith(".woff2")) fonts.push(request.url());
  });
  await page.goto("/login");
  await expect(page.getByRole("button", { name: hi["login.button"] })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(fonts).toHaveLength(1);
});

test("register, login and the language switch, with their errors in Hindi", async ({ page }) => {
  const mobileNo = uniqueMobileNo();
  await page.goto("/register");
  await page.getByLabel(hi["auth.mobileNo"]).fill("12345");
  await page.getByLabel(hi["auth.password"]).fill("farmer-password");
  await page.getByRole("button", { name: hi["register.button"] }).click();
  await expect(page.getByRole("alert")).toHaveText(hi["auth.mobileInvalid"]);

  await sendRegistration(page, mobileNo);
  // Registering signs the farmer in and asks for the code sent to the number, with a welcome.
  await expect(page).toHaveURL(/\/verify-number\?sent=1&welcome=1$/);
  await expect(page.getByTestId("welcome")).toHaveText(hi["register.success"]);
  await logOut(page);
  await expect(page).toHaveURL(/\/\?loggedOut=1$/);

  await page.goto("/login");
  await page.getByLabel(hi["auth.mobileNo"]).fill(mobileNo);
  await page.getByLabel(hi["auth.password"]).fill("not-the-password");
  await page.getByRole("button", { name: hi["login.button"] }).click();
  await expect(page.getByRole("alert")).toHaveText(hi["login.invalid"]);

  // The language switch is a form too: to English and back, remembered across pages.
  await page.getByRole("button", { name: hi["language.label"] }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: en["login.title"] })).toBeVisible();
  await page.getByLabel(en["auth.mobileNo"]).fill(mobileNo);
  await page.getByLabel(en["auth.password"]).fill("farmer-password");
  await page.getByRole("button", { name: en["login.button"] }).click();
  await expect(page).toHaveURL(/\/motor-control$/);
  await expect(page.getByRole("heading", { name: en["motor.title"] })).toBeVisible();
  await page.getByRole("button", { name: en["language.label"] }).click();
  await expect(page).toHaveURL(/\/motor-control$/);
  await expect(page.getByRole("heading", { name: hi["motor.title"] })).toBeVisible();

  // Logout ends the session: the dashboard is out of reach afterwards.
  await logOut(page);
  await expect(page).toHaveURL(/\/\?loggedOut=1$/);
  await expect(page.getByText(hi["landing.loggedOut"])).toBeVisible();
  await page.goto("/motor-control");
  await expect(page).not.toHaveURL(/\/motor-control$/);
});

test("motor ON and OFF switch the box's relay; a refused ON says why in Hindi", async ({ page, request }) => {
  await asFarmerWithBox(page, request, async ({ farmer, device }) => {
    const start = page.getByRole("button", { name: hi["motor.turnOn"], exact: true });
    await expect(page.getByTestId("motor-status")).toHaveText(hi["switch.stateOff"]);

    // A phase fault arrives after the page was drawn: the page (no script) still offers ON,
    // and the hub refuses it; the page that comes back says so and nothing switched.
    device.inject("phaseLoss");
    await expect
      .poll(async () => (await pumpStatus(request, farmer)).faults.map((fault) => fault.kind))
      .toContain("phaseFault");
    await start.click();
    const failure = page.getByTestId("command-failure");
    await expect(failure).toHaveAttribute("data-code", /^(phaseFault|rejected)$/);
    const code = await failure.getAttribute("data-code");
    await expect(failure).toContainText(code === "phaseFault" ? hi["motor.phaseFaultHint"] : hi["motor.rejected"]);
    expect(device.relay).toBe("off");

    device.inject("phaseRestore");
    await expect.poll(async () => (await pumpStatus(request, farmer)).faults.length).toBe(0);
    await page.goto("/motor-control");
    await start.click();
    // The answer came only once the box had confirmed: the page says ON, and the relay is closed.
    await expect(page.getByTestId("motor-status")).toHaveText(hi["switch.stateOn"]);
    expect(device.relay).toBe("on");
    await expect(page.getByTestId("command-failure")).toHaveCount(0);

    // Stopping is never held back: OFF right after ON, no cooldown.
    await page.getByRole("button", { name: hi["motor.turnOff"], exact: true }).click();
    await expect(page.getByTestId("motor-status")).toHaveText(hi["switch.stateOff"]);
    expect(device.relay).toBe("off");
  });
});

test("motor configuration on the settings page reaches the box once old → new is confirmed; numbers out of range are refused in Hindi", async ({
  page,
  request,
}) => {
  await asFarmerWithBox(page, request, async ({ device }) => {
    await page.getByRole("link", { name: hi["healthLine.settings"] }).click();
    await expect(page).toHaveURL(/\/pump-settings$/);
    await page.getByLabel(hi["config.current"]).selectOption("12");
    await page.getByLabel(hi["config.dryRun"]).fill("25");
    await page.getByLabel(hi["config.overCurrent"]).fill("40");
    // The page comes back with the confirm step, old → new; nothing is saved yet.
    await page.getByRole("button", { name: hi["config.update"] }).click();
    const step = page.getByTestId("config-review");
    await expect(step.getByRole("listitem")).toHaveText([
      `${hi["config.current"]}: 1 → 12`,
      `${hi["config.dryRun"]}: 30 → 25`,
      `${hi["config.overCurrent"]}: 30 → 40`,
    ]);
    expect(device.config.defaultCurrent).toBe(1);
    await step.getByRole("button", { name: hi["dialog.confirm"] }).click();
    await expect(page.getByTestId("config-result")).toHaveText(hi["config.saved"]);
    await expect.poll(() => device.config.defaultCurrent).toBe(12);
    expect(device.config.dryRunThreshold).toBe(25);
    expect(device.config.overCurrentThreshold).toBe(40);
    await expect(page.getByLabel(hi["config.current"])).toHaveValue("12");

    await page.getByLabel(hi["config.dryRun"]).fill("200");
    await page.getByRole("button", { name: hi["config.update"] }).click();
    await expect(page.getByTestId("config-result")).toHaveText(`${hi["config.failed"]} ${hi["config.outOfRange"]}`);
    // What was typed stays, to be corrected; the box keeps the saved settings.
    await expect(page.getByLabel(hi["config.dryRun"])).toHaveValue("200");
    expect(device.config.dryRunThreshold).toBe(25);
  });
});

test("a change that weakens protection comes back as a confirm step saying so; its form saves it", async ({
  page,
  request,
}) => {
  await asFarmerWithBox(page, request, async ({ device }) => {
    await page.goto("/pump-settings");
    await page.getByLabel(hi["config.overCurrent"]).fill("150");
    await page.getByRole("button", { name: hi["config.update"] }).click();
    const step = page.getByTestId("config-review");
    await expect(step).toContainText(hi["config.weakerTitle"]);
    await expect(step.getByRole("listitem")).toHaveText([
      `${hi["config.overCurrent"]}: 30 → 150 (${hi["config.weakens"]})`,
    ]);
    // Held, not saved: what was typed stays in the form.
    await expect(page.getByLabel(hi["config.overCurrent"])).toHaveValue("150");
    expect(device.config.overCurrentThreshold).toBe(30);
    await step.getByRole("button", { name: hi["config.weakerSave"] }).click();
    await expect(page.getByTestId("config-result")).toHaveText(hi["config.saved"]);
    await expect.poll(() => device.config.overCurrentThreshold).toBe(150);
  });
});

test("schedules: create, the errors in Hindi, edit and delete", async ({ page, request }) => {
  await asFarmerWithBox(page, request, async ({ farmer }) => {
    await page.goto("/motor-schedule");
    const notice = page.getByTestId("schedule-notice");
    const done = page.getByTestId("schedule-done");
    const items = page.getByTestId("schedule-item");
    // Times twelve hours away from now, so none of them runs during the test.
    const later = (new Date().getUTCHours() + 5 + 12) % 24;

    // The list first; its button opens the form (a link: no script needed).
    await page.getByTestId("add-clock").click();
    await expect(page).toHaveURL(/\?add=clock#schedule-form$/);
    await page.getByTestId("schedule-hour").selectOption(String(later));
    await page.getByTestId("schedule-minute").selectOption("15");
    await expect(page.locator("#schedule-form").getByLabel(hi["schedule.duration"])).toHaveValue("60");
    await page.locator("#schedule-form").getByLabel(hi["schedule.duration"]).selectOption("30");
    await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.save"] }).click();
    await expect(done).toHaveText(hi["schedule.saved"]);
    await expect(items).toHaveCount(1);
    // The form closes and the address names the new schedule, which the browser scrolls to.
    await expect(page.locator("#schedule-form")).toHaveCount(0);
    await expect(page).toHaveURL(/\?done=saved&saved=\d+#schedule-\d+$/);
    await expect(page.locator(".schedule-item.just-saved")).toBeInViewport();
    // The list writes times as Intl does in the page's language.
    await expect(items.first()).toContainText(formatTimeOfDay(later * 60 + 15, "hi"));
    await expect(items.first()).toContainText(
      hi["schedule.forMinutesUntil"]
        .replace("{minutes}", "30")
        .replace("{end}", formatTimeOfDay((later * 60 + 45) % (24 * 60), "hi")),
    );

    // The same minute twice is refused, worded in Hindi with the time, in the form that posted.
    await page.getByTestId("add-clock").click();
    await page.getByTestId("schedule-hour").selectOption(String(later));
    await page.getByTestId("schedule-minute").selectOption("15");
    await page.locator("#schedule-form").getByLabel(hi["schedule.action"]).selectOption("OFF");
    await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.save"] }).click();
    await expect(notice).toHaveText(hi["schedule.conflict"].replace("{time}", formatTimeOfDay(later * 60 + 15, "hi")));
    await expect(items).toHaveCount(1);

    await items.first().getByRole("link", { name: hi["schedule.edit"] }).click();
    await expect(page.getByRole("heading", { name: hi["schedule.editTitle"] })).toBeVisible();
    await expect(page.getByTestId("schedule-minute")).toHaveValue("15");
    await page.getByTestId("schedule-minute").selectOption("45");
    await page.locator("#schedule-form").getByLabel(hi["schedule.action"]).selectOption("OFF");
    await page.locator("#schedule-form").getByLabel(hi["schedule.repeat"]).selectOption("once");
    await page.locator("#schedule-form").getByRole("button", { name: hi["schedule.update"] }).click();
    await expect(done).toHaveText(hi["schedule.updated"]);
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText(formatTimeOfDay(later * 60 + 45, "hi"));
    await expect(items.first()).toContainText(hi["motor.off"]);
    await expect(items.first()).toContainText(hi["schedule.repeat.once"]);

    await items.first().getByRole("link", { name: hi["schedule.delete"] }).click();
    const confirm = page.getByTestId("delete-confirm");
    await expect(confirm).toContainText(
      hi["schedule.deleteConfirm"].replace("{time}", formatTimeOfDay(later * 60 + 45, "hi")),
    );
    await confirm.getByRole("button", { name: hi["dialog.confirm"] }).click();
    await expect(done).toHaveText(hi["schedule.deleted"]);
    await expect(page.getByTestId("schedules-empty")).toBeVisible();
    const response = await request.get("/api/schedule", { headers: { Authorization: `Bearer ${farmer.token}` } });
    expect((await readJson(response, scheduleListResponseSchema)).schedules).toHaveLength(0);
  });
});

test("a recharge request is filed once; without a device it is refused in Hindi", async ({ page, request }) => {
  await asFarmerWithBox(page, request, async () => {
    await page.goto("/recharge");
    await page.getByTestId("plan-renew").click();
    await page.getByRole("radio", { name: new RegExp(hi["plan.name.3month"]) }).check();
    await page.getByRole("radio", { name: hi["plan.method.cash"] }).check();
    await page.getByRole("button", { name: hi["plan.submit"] }).click();
    // Answered with a redirect: a reload shows the result without filing it again.
    await expect(page).toHaveURL(/\/recharge\?submitted=\d+$/);
    await expect(page.getByTestId("plan-next-steps")).toContainText(hi["plan.contactSoon"]);
    await page.reload();
    const items = page.getByTestId("request-item");
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText(hi["plan.name.3month"]);
    await expect(items.first()).toContainText(hi["plan.method.cash"]);
    await expect(items.first()).toContainText(hi["plan.request.pending"]);
  });

  const withoutDevice = await registerFarmer(request);
  await logOut(page);
  await logInAs(page, withoutDevice);
  await page.goto("/recharge");
  await page.getByTestId("plan-renew").click();
  await page.getByRole("button", { name: hi["plan.submit"] }).click();
  await expect(page.getByTestId("plan-error")).toHaveText(`${hi["plan.submitFailed"]} ${hi["motor.noDevice"]}`);
  await expect(page.getByTestId("request-item")).toHaveCount(0);
});

test("a plan is paid by UPI at the gateway's page and back, and the page shows the validity the server knows", async ({
  page,
  request,
}) => {
  await asFarmerWithBox(page, request, async () => {
    await page.goto("/recharge?renew");
    await page.getByRole("radio", { name: new RegExp(hi["plan.name.3month"]) }).check();
    await page.getByRole("button", { name: hi["plan.submit"] }).click();
    // A plain form, answered with a redirect to the gateway's page; its forms send the browser back.
    await expect(page.getByTestId("gateway-amount")).toHaveText("₹777.00");
    await page.getByTestId("gateway-pay").click();
    await expect(page).toHaveURL(/\/recharge\?payment=\d+/);
    // Until the gateway's webhook is in, the page checks again by itself (a meta refresh).
    await expect(page.getByTestId("plan-payment")).toHaveAttribute("data-status", "paid");
    await expect(page.getByTestId("plan-payment-paid")).toBeVisible();
    await expect(page.getByTestId("plan-upcoming")).toContainText(hi["plan.name.3month"]);
  });
});

test("admin login and logout; a wrong password is refused in Hindi", async ({ page }) => {
  await page.goto("/admin/login");
  await page.getByLabel(hi["auth.mobileNo"]).fill(DEMO_ADMIN.mobileNo);
  await page.getByLabel(hi["auth.password"]).fill("not-the-password");
  await page.getByRole("button", { name: adminHi["admin.login.button"], exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText(adminHi["admin.login.failed"]);

  await page.getByLabel(hi["auth.mobileNo"]).fill(DEMO_ADMIN.mobileNo);
  await page.getByLabel(hi["auth.password"]).fill(DEMO_ADMIN.password);
  await page.getByRole("button", { name: adminHi["admin.login.button"], exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  await page.getByRole("button", { name: adminHi["admin.shell.logout"] }).click();
  await expect(page).toHaveURL(/\/admin\/login\?loggedOut=1$/);
  await expect(page.getByText(adminHi["admin.login.loggedOut"])).toBeVisible();
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/admin\/login/);
});

test("bad form posts are answered 4xx, never 500", async ({ page, request }) => {
  await asFarmerWithBox(page, request, async ({ device }) => {
    const headers = { Origin: BASE_URL };
    for (const [path, form] of [
      ["/motor-control", { command: "sideways" }],
      ["/motor-control", { intent: "config", defaultCurrent: "x", dryRunThreshold: "", overCurrentThreshold: "1e999" }],
      [
        "/pump-settings",
        {
          intent: "config",
          pump: device.deviceId,
          defaultCurrent: "x",
          dryRunThreshold: "",
          overCurrentThreshold: "1e999",
          confirmed: "defaultCurrent:1>x",
        },
      ],
      ["/pump-settings", { intent: "config" }],
      ["/motor-schedule", { intent: "save", hour: "25", minute: "99", action: "ON", repeat: "daily", duration: "abc" }],
      ["/motor-schedule", { intent: "delete", id: "-1" }],
      ["/motor-schedule", { intent: "delete", id: "999999" }],
      ["/recharge", { plan: "forever", paymentMethod: "gold" }],
    ] as const) {
      const response = await page.request.post(path, { headers, form });
      expect(response.status(), `${path} ${JSON.stringify(form)}`).toBeGreaterThanOrEqual(400);
      expect(response.status(), `${path} ${JSON.stringify(form)}`).toBeLessThan(500);
    }
    // Not a form at all.
    const notForm = await page.request.post("/motor-schedule", {
      headers: { ...headers, "Content-Type": "application/json" },
      data: "{",
    });
    expect(notForm.status()).toBe(400);
    expect(device.relay).toBe("off");
  });
});
