/// <reference lib="dom" />
// Shared pumps, end to end in two browsers (docs/decisions/018-shared-pumps.md): an owner
// names their pump and lets a farm hand run it; the farm hand switches it from their own
// phone; the owner sees who did it in the log; removing the farm hand cuts their live page.
// An owner with two boxes switches between them; an admin sees and removes a box's people.
// Every test makes its own farmers and
// boxes, so this file runs beside others.
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { SimulatedDevice } from "../../device-sim/simulated-device.ts";
import {
  adminApiToken,
  adminLogIn,
  bearer,
  type Farmer,
  farmerWithDevice,
  registerFarmer,
  startDevice,
  texts,
} from "./admin-support.ts";
import { apiClient, en, fitsTheScreen, hi, logIn, type Texts, useLanguage } from "./support.ts";

const devices: SimulatedDevice[] = [];

test.afterEach(async () => {
  await Promise.all(devices.splice(0).map((device) => device.stop()));
});

/** A new farmer the owner lets watch their pump, added through the API. */
async function viewerOf(request: APIRequestContext, owner: Farmer, deviceId: string, label: string) {
  const viewer = await registerFarmer(request);
  const invited = await request.post(`/api/pumps/${deviceId}/members`, {
    data: { mobileNo: viewer.mobileNo, role: "viewer", label },
    ...bearer(owner.token),
  });
  expect(invited.status()).toBe(201);
  return viewer;
}

async function invite(page: Page, t: Texts, mobileNo: string, label: string, role: "operator" | "viewer" = "operator") {
  await page.goto("/pump-people");
  await page.getByTestId("invite-mobile").fill(mobileNo);
  await page.getByTestId("invite-label").fill(label);
  await page
    .getByTestId("invite-form")
    .getByRole("radio", { name: t[`people.role.${role}`] })
    .check();
  await page.getByTestId("invite-submit").click();
  await expect(page.getByTestId("people-notice")).toHaveText(t["people.added"].replace("{label}", label));
}

test("three people on one pump: the owner lets राम run it and सीता watch; राम switches it, सीता sees it live, the owner sees who; removal cuts राम's page", async ({
  browser,
  request,
}) => {
  const { farmer: owner, device } = await farmerWithDevice(request);
  devices.push(device);
  const ram = await registerFarmer(request);
  const sita = await registerFarmer(request);

  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await logIn(ownerPage, owner.mobileNo, owner.password);
  await ownerPage.getByTestId("people-link").click();
  await expect(ownerPage).toHaveURL(/\/pump-people$/);
  await ownerPage.getByTestId("pump-name").fill("कुएँ वाला पंप");
  await ownerPage.getByRole("button", { name: hi["people.saveName"] }).click();
  await expect(ownerPage.getByTestId("people-notice")).toHaveText(hi["people.nameSaved"]);
  await invite(ownerPage, hi, ram.mobileNo, "राम");
  await invite(ownerPage, hi, sita.mobileNo, "सीता", "viewer");
  await expect(ownerPage.getByTestId("member")).toHaveCount(2);
  await expect(ownerPage.getByTestId("member").first()).toContainText(ram.mobileNo);
  expect(await fitsTheScreen(ownerPage)).toBe(true);

  // सीता watches on hers: no switch.
  const sitaContext = await browser.newContext();
  const sitaPage = await sitaContext.newPage();
  await logIn(sitaPage, sita.mobileNo, sita.password);
  await expect(sitaPage.locator("[data-live=connected]")).toBeVisible();
  await expect(sitaPage.getByTestId("motor-toggle")).toHaveCount(0);

  // राम, on his own phone: the shared pump is his only one, so no switcher; it says whose it is.
  const ramContext = await browser.newContext();
  const ramPage = await ramContext.newPage();
  await logIn(ramPage, ram.mobileNo, ram.password);
  await expect(ramPage.getByTestId("shared-by")).toContainText(owner.mobileNo);
  await expect(ramPage.locator("[data-live=connected]")).toBeVisible();
  await ramPage.getByTestId("motor-toggle").click();
  await expect(ramPage.getByTestId("motor-toggle")).toHaveText(hi["motor.on"]);
  await expect.poll(() => device.relay).toBe("on");
  await expect(sitaPage.getByTestId("motor-status")).toHaveAttribute("data-state", "on");

  // The owner's log names him.
  await ownerPage.goto("/logs");
  await expect(ownerPage.getByText("राम ने ऐप से").first()).toBeVisible();

  // Removed: his live page stops at once and says so; the pump keeps running (nobody asked it to stop).
  await ownerPage.goto("/pump-people");
  await ownerPage.locator(`[data-testid=member][data-mobile="${ram.mobileNo}"]`).getByTestId("member-remove").click();
  await expect(ownerPage.getByTestId("people-notice")).toHaveText(hi["people.removed"].replace("{label}", "राम"));
  await expect(ramPage.getByTestId("live-ended")).toHaveAttribute("data-reason", "deviceUnlinked");
  await expect(ramPage.getByTestId("device-status")).toHaveText(hi["motor.notLinked"]);
  expect(device.relay).toBe("on");
  await expect(sitaPage.getByTestId("live-ended")).toHaveCount(0);
  await ownerContext.close();
  await ramContext.close();
  await sitaContext.close();
});

test("a viewer watches but gets no switch; the people and plan pages say they are the owner's (English)", async ({
  browser,
  request,
}) => {
  const { farmer: owner, device } = await farmerWithDevice(request);
  devices.push(device);
  const sita = await viewerOf(request, owner, device.deviceId, "Sita");

  const context = await browser.newContext();
  await useLanguage(context, "en");
  const page = await context.newPage();
  await logIn(page, sita.mobileNo, sita.password, en);
  await expect(page.locator("[data-live=connected]")).toBeVisible();
  await expect(page.getByTestId("viewer-note")).toHaveText(en["pumps.viewerNote"]);
  await expect(page.getByTestId("motor-toggle")).toHaveCount(0);
  await page.goto("/pump-people");
  await expect(page.getByTestId("owner-only")).toHaveText(en["people.ownerOnly"]);
  await page.goto("/recharge");
  await expect(page.getByTestId("owner-only")).toHaveText(en["plan.ownerOnly"]);
  expect(await fitsTheScreen(page)).toBe(true);
  await context.close();
});

test("an owner with two boxes switches between them with one tap, and switches the chosen one, without JavaScript", async ({
  browser,
  request,
}) => {
  const { farmer: owner, device: first } = await farmerWithDevice(request);
  devices.push(first);
  const admin = apiClient(request, { token: await adminApiToken(request) });
  const provisioned = await admin.provisionDevice("1phase", owner.mobileNo);
  const second = await startDevice(provisioned.device.id, provisioned.key, "1phase");
  devices.push(second);
  const named = await request.put(`/api/pumps/${provisioned.device.id}/name`, {
    data: { name: "बगीचा" },
    ...bearer(owner.token),
  });
  expect(named.status()).toBe(200);

  // Plain forms all the way: what a tap does before the page's script has arrived on 2G.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await logIn(page, owner.mobileNo, owner.password);
  const secondChip = page.getByTestId(`pump-${provisioned.device.id}`);
  await expect(page.getByTestId(`pump-${first.deviceId}`)).toHaveAttribute("aria-pressed", "true");
  await expect(secondChip).toContainText("बगीचा");
  await secondChip.click();
  await expect(secondChip).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("device-status")).toHaveText(hi["motor.online"]);
  await page.getByTestId("motor-toggle").click();
  await expect.poll(() => second.relay).toBe("on");
  expect(first.relay).toBe("off");
  // The choice holds across pages and a reload.
  await page.goto("/logs");
  await page.goto("/motor-control");
  await expect(secondChip).toHaveAttribute("aria-pressed", "true");
  expect(await fitsTheScreen(page)).toBe(true);
  await context.close();
});

test("an admin sees a box's people and the boxes shared with a number, and removes a member (Hindi)", async ({
  page,
  request,
}) => {
  const t = texts.hi;
  const { farmer: owner, device } = await farmerWithDevice(request);
  devices.push(device);
  const sita = await viewerOf(request, owner, device.deviceId, "सीता");

  await adminLogIn(page, t);
  await page.goto(`/admin/users/${sita.id}`);
  await expect(page.getByTestId("admin-shared")).toContainText(device.deviceId);
  await expect(page.getByTestId("admin-shared")).toContainText(owner.mobileNo);
  await page.goto(`/admin/users/${owner.id}`);
  const members = page.getByTestId("admin-members");
  await expect(members).toContainText("सीता");
  expect(await fitsTheScreen(page)).toBe(true);
  await members.getByRole("button", { name: t["admin.people.remove"] }).click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText(sita.mobileNo);
  await dialog.getByRole("button", { name: t["admin.common.confirm"] }).click();
  await expect(page.getByTestId("toast").filter({ hasText: t["admin.people.removed"] })).toBeVisible();
  await expect(page.getByTestId("people-card")).toHaveCount(0);
});
