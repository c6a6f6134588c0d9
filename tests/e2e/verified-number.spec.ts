// A farmer's number, verified, in chromium at 360 px against the e2e Worker and its local phone
// provider (scripts/start.ts): the codes are read off the phone as a farmer reads the SMS. A new
// farmer is verified by a code; a forgotten password is set anew with one, logging out every
// other phone; the holder of a number takes back an account someone else registered with it;
// a verified farmer signs in with a code; a farmer from before verifies from the dashboard's
// one line; an invitation reaches only a verified number; support sends a farmer a code.
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { CONTACT } from "../../app/contact.ts";
import { formatClockTime, formatMobileNo } from "../../common/i18n/format.ts";
import { adminLogIn, texts as adminTexts, bearer, farmerWithDevice, registerFarmer } from "./admin-support.ts";
import {
  apiClient,
  codeSentTo,
  e2ePhone,
  en,
  fitsTheScreen,
  hi,
  logIn,
  registerAndLogIn,
  sendRegistration,
  type Texts,
  uniqueMobileNo,
  useLanguage,
} from "./support.ts";

/** At least 8 px from either side of the screen, as every card of the app is. */
async function expectOffTheEdges(page: Page, locator: Locator) {
  const box = (await locator.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x).toBeGreaterThanOrEqual(8);
  expect(box.x + box.width).toBeLessThanOrEqual(width - 8);
}

/** A fresh browser, as a second phone is (Hindi, the default), with or without script. */
async function phone(browser: Browser, options: { javaScript?: boolean } = {}) {
  const context = await browser.newContext({ javaScriptEnabled: options.javaScript ?? true });
  return { context, page: await context.newPage() };
}

/** An account registered through the API whose holder never entered the code (or from before codes). */
async function unverifiedFarmer(request: Parameters<typeof registerFarmer>[0]) {
  const mobileNo = uniqueMobileNo();
  const password = `farmer-${mobileNo}`;
  const since = Date.now();
  await apiClient(request).register(mobileNo, password);
  // The code registration sent, which they leave unused: it has arrived before anything else is looked at.
  await codeSentTo(mobileNo, since);
  return { mobileNo, password };
}

/** A code page: asks for the code to `mobileNo` and reads it off the phone. */
async function askForCode(page: Page, t: Texts, mobileNo: string): Promise<string> {
  await page.getByLabel(t["auth.mobileNo"]).fill(mobileNo);
  const since = Date.now();
  await page.getByRole("button", { name: t["code.send"] }).click();
  await expect(page.getByTestId("code-sent")).toContainText(formatMobileNo(mobileNo));
  return codeSentTo(mobileNo, since);
}

function otherThan(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, "0");
}

test("a new farmer is verified by the code sent to the number (Hindi, 360 px)", async ({ page }) => {
  const mobileNo = uniqueMobileNo();
  await page.goto("/register");
  const since = Date.now();
  await sendRegistration(page, mobileNo);
  await expect(page).toHaveURL(/\/verify-number\?sent=1&welcome=1$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(hi["verify.title"]);
  await expect(page.getByTestId("welcome")).toHaveText(hi["register.success"]);
  await expect(page.getByTestId("verify-intro")).toHaveText(
    hi["verify.sent"].replace("{mobileNo}", formatMobileNo(mobileNo)),
  );
  expect(await fitsTheScreen(page)).toBe(true);
  // The page is the screen's main part, its heading and card kept off the screen's edges.
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.getByRole("main")).toContainText(hi["verify.title"]);
  await expectOffTheEdges(page, page.getByRole("heading", { level: 1 }));
  // The SMS, as the farmer's phone got it: Hindi, the code first.
  const sms = await (await e2ePhone()).waitForSms(mobileNo, (candidate) => candidate.at >= since);
  expect(sms.text).toMatch(/^[0-9]{6} आपका सिंचाई कोड है। 5 मिनट चलेगा। किसी को न बताएँ।$/);
  const code = await codeSentTo(mobileNo, since);

  await page.getByLabel(hi["code.label"]).fill(otherThan(code));
  await page.getByRole("button", { name: hi["verify.button"] }).click();
  await expect(page.getByRole("alert")).toHaveText("कोड सही नहीं है। इस कोड से 4 कोशिशें और बची हैं।");
  await page.getByLabel(hi["code.label"]).fill(code);
  await page.getByRole("button", { name: hi["verify.button"] }).click();
  await expect(page).toHaveURL(/\/motor-control\?verified=1&welcome=1$/);
  await expect(page.getByTestId("verified")).toHaveText(hi["verify.done"]);
  await expect(page.getByTestId("verify-notice")).toHaveCount(0);
  // A verified number has nothing more to do there.
  await page.goto("/verify-number");
  await expect(page).toHaveURL(/\/motor-control$/);
});

test("a forgotten password is set anew with a code, and every other phone is logged out (Hindi)", async ({
  page,
  browser,
}) => {
  const mobileNo = await registerAndLogIn(page);
  // The first phone waits on a page that asks the server nothing by itself: the dashboard of a
  // farmer with no box asks again every 5 s, and its own trip to "session expired" (which
  // clears the cookie) would race this test's next page, which then finds no session at all.
  await page.goto("/change-password");
  const other = await phone(browser);
  await other.page.goto("/login");
  await other.page.getByTestId("forgot-password").click();
  await expect(other.page.getByRole("heading", { level: 1 })).toHaveText(hi["forgot.title"]);
  const code = await askForCode(other.page, hi, mobileNo);
  const sms = await (await e2ePhone()).waitForSms(mobileNo, (candidate) => candidate.text.startsWith(code));
  expect(sms.text).toBe(`${code} सिंचाई में नया पासवर्ड रखने का कोड है। किसी को न बताएँ।`);
  await other.page.getByLabel(hi["code.label"]).fill(code);
  await other.page.getByLabel(hi["password.new"], { exact: true }).fill("naya-kuan-2026");
  await other.page.getByLabel(hi["password.confirm"]).fill("naya-kuan-2026");
  await other.page.getByRole("button", { name: hi["forgot.button"] }).click();
  await expect(other.page).toHaveURL(/\/motor-control\?passwordReset=1$/);
  await expect(other.page.getByTestId("passwordReset")).toHaveText(hi["forgot.done"]);
  expect(await fitsTheScreen(other.page)).toBe(true);

  // The first phone's session ended with the old password: its next page is the login page,
  // which says why and what to do (not the landing page, nor a bare "session expired").
  await page.goto("/motor-control");
  await expect(page).toHaveURL(/\/login\?session=passwordChanged$/);
  await expect(page.getByTestId("login-notice")).toHaveText(hi["login.passwordChanged"]);
  expect(await fitsTheScreen(page)).toBe(true);
  await logIn(page, mobileNo, "naya-kuan-2026");
  await other.context.close();
});

test("the holder of a number takes back an account someone else registered with it (Hindi, without JavaScript)", async ({
  browser,
}) => {
  const mobileNo = uniqueMobileNo();
  // Someone registers a number that is not theirs and does not enter the code they never got.
  const stranger = await phone(browser);
  await stranger.page.goto("/register");
  await sendRegistration(stranger.page, mobileNo);
  await expect(stranger.page).toHaveURL(/\/verify-number/);

  const holder = await phone(browser, { javaScript: false });
  await holder.page.goto("/register");
  await sendRegistration(holder.page, mobileNo);
  await expect(holder.page.getByRole("alert")).toHaveText(hi["register.duplicate"]);
  await expect(holder.page.getByTestId("number-taken")).toContainText(hi["register.duplicateHelp"]);
  await holder.page.getByTestId("taken-forgot").click();
  const code = await askForCode(holder.page, hi, mobileNo);
  await holder.page.getByLabel(hi["code.label"]).fill(code);
  await holder.page.getByLabel(hi["password.new"], { exact: true }).fill("mera-apna-kuan-1");
  await holder.page.getByLabel(hi["password.confirm"]).fill("mera-apna-kuan-1");
  await holder.page.getByRole("button", { name: hi["forgot.button"] }).click();
  await expect(holder.page).toHaveURL(/\/motor-control\?passwordReset=1$/);
  await expect(holder.page.getByTestId("verify-notice")).toHaveCount(0);

  // Signed out by the holder's new password: the login page says so (whoever typed the old one).
  await stranger.page.goto("/motor-control");
  await expect(stranger.page).toHaveURL(/\/login\?session=passwordChanged$/);
  await stranger.context.close();
  await holder.context.close();
});

test("a verified farmer signs in with a code (English)", async ({ browser, request }) => {
  const farmer = await registerFarmer(request);
  const { context, page } = await phone(browser);
  await useLanguage(context, "en");
  await page.goto("/login");
  await page.getByTestId("login-with-code").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(en["codeLogin.title"]);
  const code = await askForCode(page, en, farmer.mobileNo);
  await page.getByLabel(en["code.label"]).fill(code);
  await page.getByRole("button", { name: en["codeLogin.button"] }).click();
  await expect(page).toHaveURL(/\/motor-control$/);
  await expect(page.getByTestId("mobile-no")).toHaveText(farmer.mobileNo);
  await context.close();
});

test("a farmer whose number is not verified sees one line on the dashboard, and verifies from it (Hindi, 360 px)", async ({
  page,
  request,
}) => {
  const farmer = await unverifiedFarmer(request);
  await logIn(page, farmer.mobileNo, farmer.password);
  const notice = page.getByTestId("verify-notice");
  await expect(notice).toContainText(hi["verify.notice"]);
  // One line at 360 px: no taller than its button.
  const [line, button] = await Promise.all([notice.boundingBox(), notice.getByRole("button").boundingBox()]);
  expect(line!.height).toBeLessThanOrEqual(button!.height + 1);

  const since = Date.now();
  await notice.getByRole("button", { name: hi["code.send"] }).click();
  await expect(page).toHaveURL(/\/verify-number\?sent=1$/);
  await page.getByLabel(hi["code.label"]).fill(await codeSentTo(farmer.mobileNo, since));
  await page.getByRole("button", { name: hi["verify.button"] }).click();
  await expect(page).toHaveURL(/\/motor-control\?verified=1$/);
  await expect(page.getByTestId("verified")).toHaveText(hi["verify.done"]);
  await expect(page.getByTestId("verify-notice")).toHaveCount(0);
});

test("an invitation reaches only a verified number: no SMS and nothing on the page until it is verified (Hindi)", async ({
  page,
  request,
}) => {
  const { farmer: owner, device } = await farmerWithDevice(request);
  const verified = await registerFarmer(request);
  const unverified = await unverifiedFarmer(request);
  const since = Date.now();
  for (const mobileNo of [unverified.mobileNo, verified.mobileNo]) {
    const invited = await request.post(`/api/pumps/${device.deviceId}/members`, {
      data: { mobileNo, role: "operator", label: "राम" },
      ...bearer(owner.token),
    });
    expect(invited.status()).toBe(201);
  }
  const phoneRecords = await e2ePhone();
  const told = await phoneRecords.waitForSms(verified.mobileNo, (candidate) => candidate.at >= since);
  expect(told.text).toContain(`सिंचाई: ${owner.mobileNo} ने आपको पंप ${device.deviceId} से जोड़ा है।`);
  const { sms } = await phoneRecords.records();
  expect(sms.filter((message) => message.to === unverified.mobileNo && message.at >= since)).toEqual([]);

  await logIn(page, unverified.mobileNo, unverified.password);
  await expect(page.getByTestId("verify-notice")).toBeVisible();
  await expect(page.getByTestId("invitation")).toHaveCount(0);
  const codeSince = Date.now();
  await page.getByTestId("verify-notice").getByRole("button").click();
  await page.getByLabel(hi["code.label"]).fill(await codeSentTo(unverified.mobileNo, codeSince));
  await page.getByRole("button", { name: hi["verify.button"] }).click();
  await expect(page.getByTestId("invitation")).toContainText(owner.mobileNo);
  await device.stop();
});

test("support sends a farmer a sign-in code from the user's page: confirmed, to the farmer's phone only, on the audit trail (English)", async ({
  page,
  context,
  request,
}) => {
  const t = adminTexts.en;
  const farmer = await registerFarmer(request);
  await useLanguage(context, "en");
  await adminLogIn(page, t);
  await page.goto(`/admin/users/${farmer.id}`);
  await expect(page.getByTestId("detail-number-verified")).toHaveAttribute("data-verified", "yes");
  await page.getByTestId("send-sign-in-code").click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText(farmer.mobileNo);
  const since = Date.now();
  await dialog.getByRole("button", { name: t["admin.common.confirm"] }).click();
  await expect(page.getByText(t["admin.user.codeSent"].replace("{mobileNo}", farmer.mobileNo))).toBeVisible();
  const code = await codeSentTo(farmer.mobileNo, since);
  await expect(page.locator("body")).not.toContainText(code);

  await page.goto(`/admin/audit?target=${farmer.mobileNo}`);
  await expect(page.locator("main")).toContainText(t["admin.audit.do.signInCode"]);
  await expect(page.locator("main")).not.toContainText(code);
});

test("a fourth code within the hour is refused with the time the next one can be asked and the support number, without saying a code is on its way (Hindi, 360 px)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  // Any number meets the same throttle, an unregistered one too.
  const mobileNo = uniqueMobileNo();
  await page.goto("/login-code");
  await page.getByLabel(hi["auth.mobileNo"]).fill(mobileNo);
  await page.getByRole("button", { name: hi["code.send"] }).click();
  await expect(page.getByTestId("code-sent")).toBeVisible();
  for (let asked = 2; asked <= 3; asked++) {
    await page.getByRole("button", { name: hi["code.resend"] }).click();
    await expect(page.getByTestId("code-sent")).toBeVisible();
  }
  const asked = Date.now();
  await page.getByRole("button", { name: hi["code.resend"] }).click();

  const limit = page.getByTestId("code-limit");
  await expect(limit).toBeVisible();
  await expect(page.getByTestId("code-sent")).toHaveCount(0);
  await expect(page.getByText(hi["auth.throttled"])).toHaveCount(0);
  await expect(page.getByRole("button", { name: hi["code.resend"] })).toHaveCount(0);
  // The next code's time, India time as Intl writes it (a minute after the third code, here).
  const retryAt = Number(await limit.getAttribute("data-retry-at"));
  expect(retryAt).toBeGreaterThanOrEqual(asked);
  expect(retryAt).toBeLessThanOrEqual(Date.now() + 61_000);
  await expect(limit).toContainText(formatClockTime(retryAt, "hi"));
  await expect(limit.getByRole("link", { name: CONTACT.phone })).toHaveAttribute("href", `tel:${CONTACT.tel}`);
  // A code that came earlier still works: its field stays.
  await expect(page.getByLabel(hi["code.label"])).toBeVisible();
  expect(await fitsTheScreen(page)).toBe(true);
});
