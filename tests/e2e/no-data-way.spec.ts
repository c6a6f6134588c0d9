/// <reference lib="dom" />
// When the app cannot switch the pump (no internet, the box offline, a command nobody confirmed),
// the switch card offers what a phone can still do: call the stop number, or send "बंद" by SMS,
// with the environment's numbers (wrangler.toml's PHONE_* vars, local mode's values); the
// dashboard and the settings list all three and the printable card has them filled in. A lost
// answer can be asked again from the switch card. Hindi, 360 px; each test its own farmer and box.
import { expect, type Page, test } from "@playwright/test";
import { devicesStoppedAfterEach, farmerWithSetPump, openOwnPump, signedIn } from "./admin-support.ts";
import { hi } from "./support.ts";

const devices = devicesStoppedAfterEach();
const SHOTS = process.env.SHOT_TAG;

/** Local mode's numbers (wrangler.toml's top-level [vars]). */
const SMS = "+918000000001";
const STOP = "+918000000002";
const START = "+918000000003";

async function stopByPhoneOffered(page: Page) {
  const ways = page.getByTestId("stop-by-phone");
  await expect(ways).toBeVisible();
  await expect(ways.getByTestId("call-stop")).toHaveAttribute("href", `tel:${STOP}`);
  await expect(ways.getByTestId("call-stop")).toContainText(hi["phoneWays.callStop"]);
  await expect(ways.getByTestId("sms-stop")).toHaveAttribute("href", `sms:${SMS}?body=${encodeURIComponent("बंद")}`);
}

test("offline, the switch card offers the stop number and an SMS with बंद (Hindi, 360 px)", async ({
  context,
  page,
  request,
}) => {
  const { farmer } = await farmerWithSetPump(request, devices);
  await signedIn(context, farmer.token);
  await page.goto("/motor-control");
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  // Online, with a box that answers, the switch works: no call-to-stop on the card, but the numbers are listed.
  await expect(page.getByTestId("stop-by-phone")).toHaveCount(0);
  const numbers = page.getByTestId("phone-numbers");
  await expect(numbers.getByTestId("number-sms")).toHaveAttribute("href", `sms:${SMS}`);
  await expect(numbers.getByTestId("number-stop")).toHaveAttribute("href", `tel:${STOP}`);
  await expect(numbers.getByTestId("number-start")).toHaveAttribute("href", `tel:${START}`);
  await expect(numbers.getByTestId("number-stop")).toHaveText("+91 80000 00002");
  await expect
    .poll(() =>
      page.evaluate(async () => (await (await caches.open("sinchai-account")).match("/motor-control")) !== undefined),
    )
    .toBe(true);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await context.setOffline(true);
  await expect(page.getByTestId("offline-banner")).toBeVisible();
  await stopByPhoneOffered(page);
  if (SHOTS) await page.locator(".toggle-card").screenshot({ path: `docs/screens/trust2-item1-after.png` });
});

test("with the box offline the switch card offers the stop number and the SMS (Hindi, 360 px)", async ({
  page,
  request,
}) => {
  const { device } = await openOwnPump(page, request, devices, {
    device: { reconnectBaseMs: 120_000, reconnectMaxMs: 120_000 },
  });
  device.inject("goSilent");
  await expect(page.getByTestId("device-status")).toHaveText(hi["motor.offline"]);
  await stopByPhoneOffered(page);
});

test("not sure after a lost OFF answer: the current as a hint, and anyone who may switch asks the device again (Hindi, 360 px)", async ({
  page,
  request,
}) => {
  const { device } = await openOwnPump(page, request, devices);
  const status = page.getByTestId("motor-status");
  await page.getByTestId("motor-on").click();
  await expect(status).toHaveAttribute("data-state", "on");
  // The relay opens, but its answer never comes back.
  device.inject("noAck");
  await page.getByTestId("motor-off").click();
  await expect(status).toHaveAttribute("data-state", "unknown");
  await expect.poll(() => device.relay).toBe("off");
  await stopByPhoneOffered(page);
  const ask = page.getByTestId("ask-again");
  await expect(ask.getByTestId("current-hint")).toHaveText(hi["askAgain.hintOff"].replace("{amps}", "0"));
  if (SHOTS) await page.locator(".toggle-card").screenshot({ path: `docs/screens/trust2-item7-after.png` });

  device.inject("ackNormally");
  await ask.getByRole("button", { name: hi["askAgain.button"] }).click();
  await expect(page.getByTestId("ask-again-answer")).toHaveText(hi["askAgain.answered"]);
  // The box's health report names the relay: the state is settled, OFF.
  await expect(status).toHaveAttribute("data-state", "off");
  await expect(page.getByTestId("ask-again")).toHaveCount(0);
});

test("the settings page lists the numbers and links the printable card, one A5 page with them filled in", async ({
  page,
  request,
}) => {
  await openOwnPump(page, request, devices);
  await page.goto("/pump-settings");
  const numbers = page.getByTestId("phone-numbers");
  await expect(numbers.getByTestId("number-start")).toHaveText("+91 80000 00003");
  await numbers.getByTestId("phone-card-link").click();
  await expect(page).toHaveURL(/\/phone-card$/);
  await expect(page.getByTestId("card-sms")).toHaveText("+91 80000 00001");
  await expect(page.getByTestId("card-stop")).toHaveText("+91 80000 00002");
  await expect(page.getByTestId("card-start")).toHaveText("+91 80000 00003");
  await expect(page.locator("h1")).toHaveCSS("font-family", /Noto Sans Devanagari/);
  const pdf = await page.pdf({ format: "A5", preferCSSPageSize: true });
  // One page: a PDF names each page once as "/Type /Page".
  expect(pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
  if (SHOTS) await page.screenshot({ path: `docs/screens/trust2-item1-card-after.png`, fullPage: true });
});
