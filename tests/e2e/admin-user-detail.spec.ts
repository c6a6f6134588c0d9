// /admin/users/{id}: the account and its device live (status, motor, power, logs, health with
// the admin signal bars), config history, power logs, role changes, and the Device Settings
// modal: debug console, mobile number, provisioning and firmware. Each test has its own farmer
// and simulated box.
import { expect, type Page } from "@playwright/test";
import { readJson } from "../../common/api-client.ts";
import { adminLoginResponseSchema } from "../../common/api-responses/accounts.ts";
import { firmwareListResponseSchema, userListResponseSchema } from "../../common/api-responses/admin.ts";
import { signalBars } from "../../common/signal.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import {
  adminApiToken,
  adminLogIn,
  bearer,
  devicesStoppedAfterEach,
  indianNumber,
  registerFarmer,
  startDevice,
  type Texts,
  test,
  texts,
} from "./admin-support.ts";
import { uniqueMobileNo } from "./support.ts";

const devices = devicesStoppedAfterEach();

async function openDetail(page: Page, userId: number, t: Texts) {
  await adminLogIn(page, t);
  await page.goto(detailOf({ id: userId }));
  await expect(page.getByTestId("detail-mobile")).toBeVisible();
}

function detailOf(user: { id: number }): string {
  return `/admin/users/${user.id}`;
}

function amperes(text: string | null): number {
  return Number((text ?? "").replace(/[^\d.]/g, ""));
}

test("shows the account and its device live: status, motor, power, logs, health, power logs (Hindi)", async ({
  page,
  request,
  adminWithFarmer,
}) => {
  const t = texts.hi;
  const { farmer, device } = await adminWithFarmer(t, detailOf);
  await expect(page.getByTestId("detail-mobile")).toHaveText(farmer.mobileNo);
  await expect(page.getByTestId("detail-device-status")).toHaveText(t["admin.common.online"]);
  await expect(page.getByTestId("detail-motor-status")).toHaveText(t["admin.common.off"]);
  await expect(page.getByTestId("detail-role")).toHaveText(t["admin.common.user"]);
  await expect(page.getByTestId("detail-default-current")).toHaveText(`${indianNumber(1, "hi")} A`);
  await expect(page.getByTestId("detail-dry-run")).toHaveText(`${indianNumber(30, "hi")} %`);
  await expect(page.getByTestId("detail-last-login")).not.toHaveText(t["admin.user.neverLoggedIn"]);
  await expect(page.getByTestId("detail-device-id")).toHaveText(device.deviceId);
  await expect(page.getByText(t["admin.user.logsEmpty"])).toBeVisible();
  await expect(page.getByText(t["admin.user.historyEmpty"])).toBeVisible();

  // Power logs before the motor ever ran.
  await page.getByRole("button", { name: t["admin.user.viewPowerLogs"] }).click();
  const powerDialog = page.getByTestId("power-logs-dialog");
  await expect(powerDialog.getByText(t["admin.power.empty"])).toBeVisible();
  await powerDialog.getByRole("button", { name: t["admin.common.close"] }).click();

  // Health on request: the admin bars of SPEC §9.
  await page.getByTestId("health-card").getByRole("button", { name: t["admin.common.refresh"] }).click();
  const bars = page.getByTestId("health-card").getByTestId("signal-bars");
  await expect(bars).toBeVisible();
  // Text and bars read at one moment: the simulator's signal moves while the page is live.
  const shown = await bars.evaluate((element) => ({
    text: element.textContent ?? "",
    bars: element.getAttribute("data-bars"),
  }));
  expect(shown.bars).toBe(String(signalBars(Number(shown.text.replace(/[^\d-]/g, "")))));

  // The farmer switches the pump on: the admin's page follows without a reload.
  expect((await request.post("/api/devices/motor", { data: { action: "on" }, ...bearer(farmer.token) })).status()).toBe(
    200,
  );
  await expect(page.getByTestId("detail-motor-status")).toHaveText(t["admin.common.on"]);
  await expect.poll(async () => amperes(await page.getByTestId("detail-current").textContent())).toBeGreaterThan(0);
  await expect(page.getByTestId("detail-logs").locator("li")).toHaveCount(1);
  expect(device.relay).toBe("on");

  // The running motor's readings are sampled into the power history.
  await page.getByRole("button", { name: t["admin.user.viewPowerLogs"] }).click();
  await expect(powerDialog.locator("tbody tr").first()).toBeVisible();
  await expect(powerDialog).toContainText(t["admin.power.legend"]);
  await powerDialog.getByRole("button", { name: t["admin.common.close"] }).click();

  // The box's run hours and energy, with the farmer's card and its CSV link, loaded with the page.
  await page.reload();
  const usage = page.getByTestId("usage");
  await expect(usage.getByRole("heading", { name: t["usage.title"] })).toBeVisible();
  await expect(usage.getByTestId("usage-starts")).toHaveText(t["usage.count"].replace("{count}", "1"));
  await expect(usage.getByTestId("usage-chart")).toBeVisible();
  await expect(usage.getByTestId("usage-csv")).toHaveAttribute(
    "href",
    `/api/pumps/${device.deviceId}/usage?days=7&format=csv`,
  );

  await device.stop();
  await expect(page.getByTestId("detail-device-status")).toHaveText(t["admin.common.offline"]);
});

test("the role is given and taken away at once; the last admin keeps theirs (English)", async ({
  page,
  english: t,
  request,
}) => {
  const farmer = await registerFarmer(request);
  await openDetail(page, farmer.id, t);
  const dialog = page.getByTestId("confirm-dialog");
  await page.getByRole("button", { name: t["admin.user.makeAdmin"] }).click();
  await expect(dialog).toContainText(farmer.mobileNo);
  await dialog.getByRole("button", { name: t["admin.common.confirm"] }).click();
  await expect(page.getByTestId("detail-role")).toHaveText(t["admin.common.admin"]);
  const asAdmin = await request.post("/api/admin/login", {
    data: { mobileNo: farmer.mobileNo, password: farmer.password },
  });
  expect(asAdmin.status()).toBe(200);
  const theirAdminToken = (await readJson(asAdmin, adminLoginResponseSchema)).token;

  await page.getByRole("button", { name: t["admin.user.removeAdmin"] }).click();
  await dialog.getByRole("button", { name: t["admin.common.confirm"] }).click();
  await expect(page.getByTestId("detail-role")).toHaveText(t["admin.common.user"]);
  expect((await request.get("/api/admin/users", bearer(theirAdminToken))).status()).toBe(401);

  // The demo admin's own page: removing the role is offered only while another admin exists.
  const users = (
    await readJson(await request.get("/api/admin/users", bearer(await adminApiToken(request))), userListResponseSchema)
  ).users;
  await page.goto("/admin/users/1");
  const remove = page.getByRole("button", { name: t["admin.user.removeAdmin"] });
  if (users.filter((user) => user.isAdmin).length === 1) {
    await expect(remove).toBeDisabled();
    await expect(page.getByText(t["admin.user.lastAdmin"])).toBeVisible();
  } else {
    await expect(remove).toBeEnabled();
  }
});

test("debug mode streams the box's log lines live and turns off when the dialog closes (Hindi)", async ({
  page,
  adminWithFarmer,
}) => {
  const t = texts.hi;
  const { device } = await adminWithFarmer(t, detailOf);
  await expect(page.getByTestId("live-indicator")).toHaveText(t["admin.user.live"]);
  await page.getByRole("button", { name: t["admin.user.deviceSettings"] }).click();
  const settings = page.getByTestId("device-settings-dialog");
  const console = settings.getByTestId("debug-console");
  await expect(console).toContainText(t["admin.settings.consoleEmpty"]);
  const toggle = settings.getByRole("switch", { name: t["admin.settings.debug"] });
  // The switch flips once the box has confirmed debug mode.
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect.poll(() => device.config.debug).toBe(true);
  // The simulator writes a status line every 2 s while debug mode is on.
  await expect(console.locator(".debug-line").filter({ hasText: "relay=OFF current=" }).first()).toBeVisible();
  const before = await console.locator(".debug-line").count();
  await expect.poll(() => console.locator(".debug-line").count()).toBeGreaterThan(before);

  await settings.getByRole("button", { name: t["admin.common.close"] }).click();
  await expect(settings).toBeHidden();
  await expect.poll(() => device.config.debug).toBe(false);
});

test("the device's mobile number: the SPEC §5 checks, a warning, then the box restarts with it (English)", async ({
  page,
  english: t,
  request,
  adminWithFarmer,
}) => {
  const { farmer, device } = await adminWithFarmer(t, detailOf);
  await page.getByRole("button", { name: t["admin.user.deviceSettings"] }).click();
  const settings = page.getByTestId("device-settings-dialog");
  const input = settings.getByLabel(t["admin.settings.newMobile"]);
  const change = settings.getByRole("button", { name: t["admin.settings.changeMobile"] });
  for (const [value, message] of [
    ["12345", "Invalid mobile number"],
    ["0123456789", "Invalid mobile number"],
    [farmer.mobileNo, "New number is same as current number"],
  ] as const) {
    await input.fill(value);
    await change.click();
    await expect(settings.getByRole("alert")).toHaveText(message);
  }
  const newMobile = uniqueMobileNo();
  await input.fill(newMobile);
  await change.click();
  const confirm = page.getByTestId("confirm-dialog");
  await expect(confirm).toContainText(
    t["admin.settings.mobileConfirm"].replace("{from}", farmer.mobileNo).replace("{to}", newMobile),
  );
  const restarting = device.waitFor("restarting", CONDITION_LIMIT_MS);
  await confirm.getByRole("button", { name: t["admin.common.confirm"] }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Mobile number update sent!" })).toBeVisible();
  await expect.poll(() => device.config.mobileNo).toBe(newMobile);
  await expect(page.getByTestId("detail-mobile")).toHaveText(newMobile);
  await restarting; // the hub told the box to restart with its new number
  // The farmer now logs in with the new number.
  expect(
    (await request.post("/api/auth/login", { data: { mobileNo: newMobile, password: farmer.password } })).status(),
  ).toBe(200);
  await expect(page.getByTestId("detail-device-status")).toHaveText(t["admin.common.online"]);
});

test("provisioning: a new device for a farmer, its key shown once and rotated, unassigned and assigned again", async ({
  page,
  english: t,
  request,
}) => {
  const mobileNo = uniqueMobileNo();
  await request.post("/api/auth/register", { data: { mobileNo, password: "farmer-password" } });
  const users = (
    await readJson(await request.get("/api/admin/users", bearer(await adminApiToken(request))), userListResponseSchema)
  ).users;
  const userId = users.find((user) => user.mobileNo === mobileNo)!.id;
  await openDetail(page, userId, t);
  await expect(page.getByTestId("detail-last-login")).toHaveText(t["admin.user.neverLoggedIn"]);
  await expect(page.getByText(t["admin.user.noDevice"])).toBeVisible();

  const settings = page.getByTestId("device-settings-dialog");
  const section = settings.getByTestId("device-section");
  await page.getByRole("button", { name: t["admin.user.deviceSettings"] }).click();
  await section.getByLabel(t["admin.user.kind"]).selectOption("3phase");
  await section.getByRole("button", { name: t["admin.settings.provisionButton"] }).click();
  const deviceId = (await section.getByTestId("issued-device-id").textContent())!;
  const key = (await section.getByTestId("issued-key-value").textContent())!;
  expect(deviceId).toMatch(/^SNC-/);
  let device = await startDevice(deviceId, key);
  devices.push(device);
  await settings.getByRole("button", { name: t["admin.common.close"] }).click();
  await expect(page.getByTestId("detail-device-id")).toHaveText(deviceId);
  await expect(page.getByTestId("detail-device-status")).toHaveText(t["admin.common.online"]);
  await expect.poll(() => device.config.mobileNo).toBe(mobileNo);

  // The key is not shown again when the dialog opens next time.
  await page.getByRole("button", { name: t["admin.user.deviceSettings"] }).click();
  await expect(section.getByTestId("issued-key")).toHaveCount(0);
  await section.getByRole("button", { name: t["admin.settings.rotateKey"] }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: t["admin.common.confirm"] }).click();
  const rotated = (await section.getByTestId("issued-key-value").textContent())!;
  expect(rotated).not.toBe(key);
  await expect(page.getByTestId("detail-device-status")).toHaveText(t["admin.common.offline"]);
  await device.stop();
  device = await startDevice(deviceId, rotated);
  devices.push(device);
  await expect(page.getByTestId("detail-device-status")).toHaveText(t["admin.common.online"]);

  await section.getByRole("button", { name: t["admin.settings.unassign"] }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: t["admin.common.confirm"] }).click();
  await expect(page.getByText(t["admin.user.noDevice"])).toBeVisible();
  await expect.poll(() => device.config.mobileNo).toBeNull();

  // The freed box is offered for assignment and comes back.
  await section.getByLabel(t["admin.settings.chooseDevice"]).selectOption(deviceId);
  await section.getByRole("button", { name: t["admin.settings.assignButton"], exact: true }).click();
  await expect(page.getByTestId("detail-device-id")).toHaveText(deviceId);
  await expect.poll(() => device.config.mobileNo).toBe(mobileNo);
});

test("firmware upload: device type, version and file; a version is refused twice", async ({
  page,
  english: t,
  request,
}) => {
  const farmer = await registerFarmer(request);
  await openDetail(page, farmer.id, t);
  await page.getByRole("button", { name: t["admin.user.deviceSettings"] }).click();
  const section = page.getByTestId("device-settings-dialog").getByTestId("firmware-section");
  const version = `e2e-${Date.now()}`;
  for (const attempt of [1, 2]) {
    // SIM builds only: the farmer's firmware test (motor-control.spec.ts) relies on no Wi-Fi
    // build ever being uploaded in this suite, whatever order the specs run in.
    await section.getByLabel(t["admin.settings.deviceType"]).selectOption("sim");
    await section.getByLabel(t["admin.settings.version"]).fill(version);
    await section.getByLabel(t["admin.settings.file"]).setInputFiles({
      name: "firmware.bin",
      mimeType: "application/octet-stream",
      buffer: Buffer.alloc(2048, attempt),
    });
    await section.getByRole("button", { name: t["admin.settings.upload"] }).click();
    if (attempt === 1) {
      await expect(page.getByTestId("toast").filter({ hasText: t["admin.settings.uploaded"] })).toBeVisible();
      await expect(section.getByTestId("firmware-list")).toContainText(version);
    } else {
      await expect(page.getByTestId("toast").filter({ hasText: t["admin.settings.uploadFailed"] })).toBeVisible();
      await expect(section.getByRole("alert")).toContainText("already exists");
    }
  }
  const listed = (
    await readJson(
      await request.get("/api/admin/firmware", bearer(await adminApiToken(request))),
      firmwareListResponseSchema,
    )
  ).firmware;
  expect(listed.filter((image) => image.version === version)).toEqual([
    expect.objectContaining({ deviceType: "sim", size: 2048 }),
  ]);
});
