/// <reference lib="dom" />
// The screen never says more than the hub can vouch for: boxes that do not confirm, that run
// the motor without a confirmed command, that go silent; and sessions whose end reaches the
// pages they opened. Every test has its own farmer and box, so this file runs beside others.
import { expect, type Page, test } from "@playwright/test";
import { readJson } from "../../common/api-client.ts";
import { motorStatusResponseSchema } from "../../common/api-responses/devices.ts";
import { realtimeMessageSchema } from "../../common/realtime-protocol.ts";
import {
  adminApiToken,
  bearer,
  devicesStoppedAfterEach,
  type Farmer,
  type farmerWithDevice,
  openOwnPump,
  registerFarmer,
} from "./admin-support.ts";
import { hi, logIn, logOut, toast } from "./support.ts";

const devices = devicesStoppedAfterEach();

type Request = Parameters<typeof farmerWithDevice>[0];
/** openOwnPump (admin-support.ts), once the page says the motor is OFF. */
async function openOwnPumpOff(page: Page, request: Request, deviceOptions = {}) {
  const own = await openOwnPump(page, request, devices, { device: deviceOptions });
  await expect(page.getByTestId("motor-status")).toHaveAttribute("data-state", "off");
  return own;
}

async function apiStatus(request: Request, farmer: Farmer) {
  const response = await request.get(`/api/devices/motor/status/${farmer.mobileNo}`, bearer(farmer.token));
  expect(response.status()).toBe(200);
  return readJson(response, motorStatusResponseSchema);
}

const status = (page: Page) => page.getByTestId("motor-status");

test("an ON the box never confirms: a reload shows it unconfirmed, never OFF, with ON and OFF offered", async ({
  page,
  request,
}) => {
  const { farmer, device } = await openOwnPumpOff(page, request);
  // The relay closes but no ack comes back, and nothing flows (a tripped overload relay in the
  // starter): no reading proves the motor runs, and nothing proves it does not.
  device.inject("noAck");
  device.inject("ignoreProtection");
  device.inject("noLoad");

  await page.getByTestId("motor-on").click();
  await expect(status(page)).toHaveAttribute("data-state", "sending");
  // The page says "sending" as the tap goes out; the switch reaches the box a moment later.
  await expect.poll(() => device.relay).toBe("on");
  // While its own tap still waits for an answer, and once the hub has given up on it (5 s after
  // sending; a slow machine may already be past that here), the farmer may stop what it may have
  // started.
  await expect(status(page)).toHaveAttribute("data-state", /sending|unknown/);
  await expect(page.getByTestId("motor-off")).toBeEnabled();
  await page.reload();
  // Right after the reload the command is still awaited; then the hub gives up on the ack.
  await expect(status(page)).toHaveAttribute("data-state", /sending|unknown/);
  await expect(status(page)).toHaveAttribute("data-state", "unknown");
  await expect(status(page)).toHaveText(hi["pump.unknownStatus"]);
  // Nobody can vouch for the relay: both ways are offered, each a verb.
  await expect(page.getByTestId("motor-on")).toHaveText(hi["motor.turnOn"]);
  await expect(page.getByTestId("motor-off")).toBeEnabled();
  expect(await apiStatus(request, farmer)).toMatchObject({
    status: "unknown",
    pendingCommand: { action: "on", state: "unanswered" },
  });

  // It is the hub that remembers, not this page.
  await page.reload();
  await expect(status(page)).toHaveAttribute("data-state", "unknown");

  // OFF is never held back; once the box confirms it, the page may say OFF again.
  device.inject("ackNormally");
  await page.getByTestId("motor-off").click();
  await expect(status(page)).toHaveAttribute("data-state", "off");
  expect(device.relay).toBe("off");
  expect((await apiStatus(request, farmer)).status).toBe("off");
});

test("the farmer's ON whose answer is lost: the current shows it running, said calmly, counted from the tap, no alarm", async ({
  page,
  request,
}) => {
  const { farmer, device } = await openOwnPumpOff(page, request);
  device.inject("noAck");
  const tappedAt = Date.now();
  await page.getByTestId("motor-on").click();
  await expect.poll(() => device.relay).toBe("on");

  // The box never answers, but its readings say the motor runs: the farmer's own tap did it.
  const credited = page.getByTestId("run-line");
  await expect(credited).toContainText("आपका चालू आदेश: मोटर चल रही है (करंट से पता चला), डिवाइस की पुष्टि नहीं आई।");
  await expect(credited).toContainText("किसने: आप, ऐप से");
  // The reading that showed it is the running one, not the start-up surge.
  await expect(page.getByTestId("start-surge")).toBeHidden();
  await expect(status(page)).toHaveAttribute("data-state", "on");
  await expect(page.locator("[data-testid=fault-banner][data-fault=runningWithoutCommand]")).toHaveCount(0);
  await expect(toast(page, hi["realtime.runningWithoutCommand"])).toHaveCount(0);
  const state = await apiStatus(request, farmer);
  expect(state).toMatchObject({ status: "on", statusSource: "currentAfterCommand", faults: [] });
  expect(state.statusSince).toBeGreaterThanOrEqual(tappedAt - 1_000);
  expect(state.statusSince).toBeLessThan(tappedAt + 5_000);

  await page.reload();
  await expect(credited).toBeVisible();

  device.inject("ackNormally");
  await page.getByTestId("motor-off").click();
  await expect(status(page)).toHaveAttribute("data-state", "off");
  await expect(credited).toBeHidden();
});

test("a motor running without a confirmed command: ON, a banner that stays across reloads, gone once stopped", async ({
  page,
  request,
}) => {
  const { farmer, device } = await openOwnPumpOff(page, request);
  // The starter's contactor welds shut: the motor runs though nobody asked and the relay is open.
  device.inject("contactorWelded");

  // Its readings say the motor runs: the page says so, loudly.
  const banner = page.locator("[data-testid=fault-banner][data-fault=runningWithoutCommand]");
  await expect(banner).toBeVisible();
  await expect(toast(page, hi["realtime.runningWithoutCommand"])).toBeVisible();
  await expect(status(page)).toHaveAttribute("data-state", "on");
  await expect(page.getByTestId("run-line")).not.toContainText("किसने");
  expect(await apiStatus(request, farmer)).toMatchObject({ status: "on", statusSource: "readings" });

  await page.reload();
  await expect(banner).toBeVisible();
  await expect(status(page)).toHaveAttribute("data-state", "on");

  device.inject("contactorFreed");
  await page.getByTestId("motor-off").click();
  await expect(status(page)).toHaveAttribute("data-state", "off");
  await expect(banner).toBeHidden();
  expect(device.relay).toBe("off");
});

test("a dry-run trip's banner can be taken down by the farmer, stays down across a reload, and the log keeps it", async ({
  page,
  request,
}) => {
  const { device } = await openOwnPumpOff(page, request);
  await page.getByTestId("motor-on").click();
  await expect(status(page)).toHaveAttribute("data-state", "on");
  device.inject("dryRun");
  const banner = page.locator("[data-testid=fault-banner][data-fault=dryRun]");
  await expect(banner).toBeVisible();
  await expect(status(page)).toHaveAttribute("data-state", "off");
  // Later events (a power cut and its return) leave the trip's banner up until the farmer takes it down.
  device.inject("powerCut");
  device.inject("powerRestore");
  await expect(banner).toBeVisible();
  await banner.getByRole("button", { name: hi["pump.fault.dismiss"] }).click();
  await expect(banner).toBeHidden();
  await page.reload();
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  await expect(banner).toBeHidden();
  await expect(page.getByTestId("recent-logs").getByText(hi["realtime.dryRun"]).first()).toBeVisible();
});

test("a watched box that goes silent is shown offline within 20 s, with its last state as history", async ({
  page,
  request,
}) => {
  // The hub's own clock decides "within 20 s": it stamps the offline state it sends with the
  // time it decided, next to the box's last frame. The page's clock would add this machine's
  // load (a busy CI runner) to what is measured.
  const offlineStates: { at: number; lastSeenAt: number | null }[] = [];
  page.on("websocket", (socket) =>
    socket.on("framereceived", ({ payload }) => {
      const message = realtimeMessageSchema.parse(JSON.parse(String(payload)));
      if (message.type === "pumpState" && message.pump.deviceStatus === "offline") offlineStates.push(message.pump);
    }),
  );
  // Once the hub closes the dead link, this box stays away (a real one would come back after
  // its own timeout): what the page says while it is gone is what is checked.
  const { device } = await openOwnPumpOff(page, request, { reconnectBaseMs: 120_000, reconnectMaxMs: 120_000 });
  device.inject("goSilent");
  await expect(page.getByTestId("device-status")).toHaveText(hi["motor.offline"]);
  const decided = offlineStates[0]!;
  expect(decided.lastSeenAt).not.toBeNull();
  const afterSilence = decided.at - decided.lastSeenAt!;
  test.info().annotations.push({
    type: "offline after the last frame (hub clock)",
    description: `${(afterSilence / 1000).toFixed(1)} s`,
  });
  expect(afterSilence).toBeLessThanOrEqual(20_000);
  await expect(status(page)).toHaveAttribute("data-state", "offline");
  await expect(status(page)).toContainText(hi["motor.off"]);
  await expect(page.getByTestId("motor-on")).toBeDisabled();
  await expect(page.getByTestId("current")).toHaveText("—");
});

test("logging out in one tab ends the other tab's live view within 5 s", async ({ context, request }) => {
  const first = await context.newPage();
  const { device } = await openOwnPumpOff(first, request);
  const second = await context.newPage();
  await second.goto("/motor-control");
  await expect(second.locator("[data-live=connected]")).toBeVisible();

  await logOut(second);
  await expect(second).toHaveURL(/loggedOut/);
  const ended = first.getByTestId("live-ended");
  await expect(ended).toHaveAttribute("data-reason", "signedOut");
  await expect(ended).toContainText(hi["pump.ended.signedOut"]);
  await expect(first.getByTestId("motor-on")).toBeDisabled();

  // Nothing more reaches the signed-out tab.
  device.inject("powerCut");
  await first.waitForTimeout(2_000);
  await expect(toast(first, hi["realtime.powerLost"])).toHaveCount(0);
});

test("a pump relinked to another farmer leaves the old owner's open page within 5 s", async ({
  page,
  browser,
  request,
}) => {
  const { device } = await openOwnPumpOff(page, request);
  const newOwner = await registerFarmer(request);
  const moved = await request.put(`/api/admin/devices/${device.deviceId}/owner`, {
    data: { mobileNo: newOwner.mobileNo },
    ...bearer(await adminApiToken(request)),
  });
  expect(moved.status()).toBe(200);

  const ended = page.getByTestId("live-ended");
  await expect(ended).toHaveAttribute("data-reason", "deviceUnlinked");
  await expect(ended).toContainText(hi["pump.ended.deviceUnlinked"]);
  await expect(page.getByTestId("no-device")).toBeVisible();
  await expect(page.getByTestId("motor-on")).toHaveCount(0);

  // The new owner sees it; the old owner's page hears nothing of it.
  const theirs = await browser.newPage();
  await logIn(theirs, newOwner.mobileNo, newOwner.password);
  await expect(theirs.getByTestId("device-status")).toHaveText(hi["motor.online"]);
  await expect(theirs.locator("[data-live=connected]")).toBeVisible();
  device.inject("powerCut");
  await expect(toast(theirs, hi["realtime.powerLost"])).toBeVisible();
  await expect(toast(page, hi["realtime.powerLost"])).toHaveCount(0);
  await theirs.close();
});
