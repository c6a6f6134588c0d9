// /admin/installers in Hindi at 360 px, from the bottom bar (docs/admin-area.md, "Pages"): an
// admin makes a verified account an installer (an unverified one refused in words), gives them a
// box and takes it back, sets their region and tags a box with it; the installer's own page then
// lists that box as their region's. The same forms without JavaScript.
import { type Browser, expect, type Page } from "@playwright/test";
import { adminApiToken, adminLogIn, registerFarmer, test, texts } from "./admin-support.ts";
import { apiClient, fitsTheScreen, hi, logIn, uniqueMobileNo } from "./support.ts";

const t = texts.hi;

async function phone(browser: Browser, javaScript = true) {
  const context = await browser.newContext({ javaScriptEnabled: javaScript });
  return context.newPage();
}

/** On the installer's card: a field filled, its button pressed, and the page's answer in words. */
async function submitOnCard(
  page: Page,
  userId: number,
  form: { field: string; value: string; button: string; said: string },
) {
  const card = page.getByTestId(`installer-${userId}`);
  await card.getByLabel(form.field).fill(form.value);
  await card.getByRole("button", { name: form.button }).click();
  await expect(page.getByTestId("installers-result")).toHaveText(form.said);
}

for (const javaScript of [true, false]) {
  test(`an admin makes an installer, gives and takes back a box and sets a region (Hindi, 360 px${javaScript ? "" : ", no JavaScript"})`, async ({
    browser,
    request,
  }) => {
    const page = await phone(browser, javaScript);
    const admin = apiClient(request, { token: await adminApiToken(request) });
    const region = `बाराबंकी ${crypto.randomUUID().slice(0, 6)}`;
    const stockBox = (await admin.provisionDevice("3phase")).device.id;
    const regionBox = (await admin.provisionDevice("3phase")).device.id;
    const electrician = await registerFarmer(request);

    await adminLogIn(page, t);
    if (javaScript) {
      await page.locator(".admin-bottom-bar").getByRole("link", { name: t["admin.nav.installers"] }).click();
      await expect(page).toHaveURL(/\/admin\/installers$/);
    } else {
      await page.goto("/admin/installers");
    }
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t["admin.installers.title"]);

    // A number nobody verified: refused, in words.
    const make = page.getByTestId("make-installer-form");
    await make.getByLabel(t["admin.installers.make.mobileNo"]).fill(uniqueMobileNo());
    await make.getByLabel(t["admin.installers.make.name"]).fill("कोई");
    await make.getByRole("button", { name: t["admin.installers.make.submit"] }).click();
    await expect(page.getByTestId("installers-result")).toHaveText(t["admin.installers.error.userNotFound"]);

    await page
      .getByTestId("make-installer-form")
      .getByLabel(t["admin.installers.make.mobileNo"])
      .fill(electrician.mobileNo);
    await page.getByTestId("make-installer-form").getByLabel(t["admin.installers.make.name"]).fill("रमेश इलेक्ट्रिकल्स");
    await page
      .getByTestId("make-installer-form")
      .getByRole("button", { name: t["admin.installers.make.submit"] })
      .click();
    await expect(page.getByTestId("installers-result")).toHaveText(
      t["admin.installers.made"].replace("{name}", "रमेश इलेक्ट्रिकल्स"),
    );
    const card = page.getByTestId(`installer-${electrician.id}`);
    await expect(card).toContainText(electrician.mobileNo);
    await expect(card.getByTestId("installer-region")).toHaveText(t["admin.installers.noRegion"]);

    // Boxes typed as on the sticker (lower case), one given, then taken back; a bad id refused.
    await submitOnCard(page, electrician.id, {
      field: t["admin.installers.boxIds"],
      value: `${stockBox.toLowerCase()}\nSNC-1`,
      button: t["admin.installers.give"],
      said: t["admin.installers.error.badBoxIds"].replace("{ids}", "SNC-1"),
    });
    await submitOnCard(page, electrician.id, {
      field: t["admin.installers.boxIds"],
      value: stockBox.toLowerCase(),
      button: t["admin.installers.give"],
      said: t["admin.installers.given"].replace("{ids}", stockBox),
    });
    await expect(page.getByTestId(`installer-${electrician.id}`).getByTestId("installer-stock")).toHaveText(stockBox);
    await expect(page.getByTestId(`installer-${electrician.id}`).getByTestId("installer-stock-count")).toHaveText("1");
    expect(await fitsTheScreen(page)).toBe(true);

    await submitOnCard(page, electrician.id, {
      field: t["admin.installers.boxIds"],
      value: stockBox,
      button: t["admin.installers.takeBack"],
      said: t["admin.installers.takenBack"].replace("{ids}", stockBox),
    });
    await expect(page.getByTestId(`installer-${electrician.id}`).getByTestId("installer-stock-count")).toHaveText("0");

    // A region for the installer, and a box tagged with it.
    await submitOnCard(page, electrician.id, {
      field: t["admin.installers.regionField"],
      value: region,
      button: t["admin.installers.saveRegion"],
      said: t["admin.installers.regionSaved"].replace("{region}", region),
    });
    const tag = page.getByTestId("tag-boxes-form");
    await tag.getByLabel(t["admin.installers.boxIds"]).fill(regionBox);
    await tag.getByLabel(t["admin.installers.regionField"]).fill(region);
    await tag.getByRole("button", { name: t["admin.installers.tag.submit"] }).click();
    await expect(page.getByTestId("installers-result")).toContainText(regionBox);
    await expect(page.getByTestId(`installer-${electrician.id}`).getByTestId("installer-region")).toHaveText(region);
    await expect(page.getByTestId(`installer-${electrician.id}`).getByTestId("installer-region-count")).toHaveText("1");
    expect(await fitsTheScreen(page)).toBe(true);

    // The installer's page lists the region's box as theirs to claim, and not the one taken back.
    const installerPage = await phone(browser, javaScript);
    await logIn(installerPage, electrician.mobileNo, electrician.password);
    await installerPage.goto("/installer");
    const stock = installerPage.getByTestId("stock-list");
    await expect(stock).toContainText(regionBox);
    await expect(stock).toContainText(hi["installer.fromRegion"]);
    await expect(stock).not.toContainText(stockBox);
  });
}
