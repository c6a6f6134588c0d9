// A farmer's first day, in Hindi on a phone: an account without a box is told what to do and
// whom to call; the box an admin links while the page is open shows up there by itself; the
// first ON switches the simulated pump.
import { expect, test } from "@playwright/test";
import { CONTACT } from "../../app/contact.ts";
import { readJson } from "../../common/api-client.ts";
import { provisionResponseSchema } from "../../common/api-responses/admin.ts";
import { localDeviceSocketUrl, type SimulatedDevice, simulateBox } from "../../device-sim/simulated-device.ts";
import { E2E_PORT } from "../../playwright.config.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { adminApiToken, bearer, startDevice } from "./admin-support.ts";
import { hi, registerAndLogIn } from "./support.ts";

let device: SimulatedDevice | undefined;

test.afterEach(async () => {
  await device?.stop();
});

test("register, no box yet, an admin links one, the open page shows it, first ON", async ({ page, request }) => {
  const mobileNo = await registerAndLogIn(page);
  const panel = page.getByTestId("no-device");
  await expect(panel).toBeVisible();
  await expect(page.getByTestId("device-status")).toHaveText(hi["motor.notLinked"]);
  await expect(page.getByTestId("device-status")).not.toHaveClass(/(^|\s)bad(\s|$)/);
  await expect(panel.getByTestId("no-device-call")).toHaveAttribute("href", `tel:${CONTACT.tel}`);
  const whatsapp = await panel.getByTestId("no-device-whatsapp").getAttribute("href");
  expect(whatsapp).toContain(CONTACT.whatsapp);
  expect(decodeURIComponent(whatsapp!)).toContain(mobileNo);
  // The other way a box comes: an installer fitting it, with the code this phone gets by SMS.
  await expect(panel.getByText(hi["noDevice.stepInstaller"])).toBeVisible();

  // Somewhere else, an admin provisions the box for this number and it comes online.
  const provisioned = await request.post("/api/admin/devices", {
    data: { kind: "3phase", ownerMobileNo: mobileNo },
    ...bearer(await adminApiToken(request)),
  });
  expect(provisioned.status()).toBe(201);
  const { device: created, key } = await readJson(provisioned, provisionResponseSchema);
  device = await startDevice(created.id, key);

  // No reload: the page finds the box and goes live.
  await expect(page.getByTestId("device-status")).toHaveText(hi["motor.online"]);
  await expect(panel).toBeHidden();
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  const state = page.getByTestId("motor-status");
  await expect(state).toHaveText(hi["switch.stateOff"]);
  await page.getByRole("button", { name: hi["motor.turnOn"], exact: true }).click();
  await expect(state).toHaveText(hi["switch.stateOn"]);
  expect(device.relay).toBe("on");
});

test("a Wi-Fi box is told up front that no firmware exists for it yet, with nothing to tap", async ({
  page,
  request,
}) => {
  // No Wi-Fi build is ever uploaded in this suite.
  const mobileNo = await registerAndLogIn(page);
  const provisioned = await request.post("/api/admin/devices", {
    data: { kind: "1phase", ownerMobileNo: mobileNo },
    ...bearer(await adminApiToken(request)),
  });
  const { device: created, key } = await readJson(provisioned, provisionResponseSchema);
  device = simulateBox(
    localDeviceSocketUrl(E2E_PORT),
    { deviceId: created.id, key, kind: "1phase", horsePower: 1 },
    { connection: "wifi" },
  );
  device.start();
  await device.waitUntilConnected(CONDITION_LIMIT_MS);
  // The firmware card is on the owner's settings page.
  await page.goto("/pump-settings");
  const status = page.getByTestId("ota-status");
  await expect(status).toHaveAttribute("data-state", "none");
  await expect(status).toHaveText(hi["ota.noneYet"].replace("{type}", hi["ota.wifi"]));
  await expect(page.getByTestId("ota-open")).toHaveCount(0);
});
