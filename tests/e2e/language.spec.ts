// Every user page in Hindi says everything in Hindi, and in English everything in English:
// only a short list of words may cross (the brand, units, ids, numbers).
import { expect, type Page, test } from "@playwright/test";
import { adminApiToken, adminLogIn, bearer, farmerWithDevice, texts } from "./admin-support.ts";
import { apiClient, DICTIONARIES, logIn, uniqueMobileNo, useLanguage } from "./support.ts";

const USER_PAGES = [
  "/motor-control",
  "/pump-settings",
  "/motor-schedule",
  // Each schedule form, opened: their hour lists name every hour of the day.
  "/motor-schedule?add=clock",
  "/motor-schedule?add=window",
  "/recharge",
  "/logs",
  "/pump-people",
];
const ADMIN_PAGES = (userId: number) => [
  "/admin/dashboard",
  "/admin/users",
  `/admin/users/${userId}`,
  `/admin/users/${userId}/update-config`,
  "/admin/logs",
  "/admin/recharges",
  "/admin/audit",
  "/admin/telephony",
];

/**
 * Latin words a Hindi farmer's page may show: units, the box's build types and identifiers as
 * printed on it, the starters' names as their plates print them (DOL, MSB), UPI, WhatsApp and
 * SMS, and a supply's phases as electricians label them (R, Y, B: the Hindi catalogue names a
 * phase fault's phase so, "Y फेज़ में", and the admin logs list every box's newest entries, such
 * as another spec's simulated phase fault), and SMS, as Hindi speakers write it (the admin's SMS
 * and call costs). Never "am" or "pm": Hindi times say सुबह, दोपहर, शाम or रात.
 */
const LATIN_ALLOWED = new Set([
  "A",
  "W",
  "V",
  "kWh",
  "HP",
  "SIM",
  "Wi-Fi",
  "UPI",
  "M2M",
  "IMEI",
  "DOL",
  "MSB",
  "WhatsApp",
  // What phones call a text message, as they print it.
  "SMS",
  "R",
  "Y",
  "B",
]);

/** The admin pages show a box's signal in dBm, as installers read it; a farmer's page says it in words. */
const ADMIN_LATIN_ALLOWED = new Set([...LATIN_ALLOWED, "dBm"]);

/** Visible words in the wrong script, with the element they are in. */
async function wrongScript(page: Page, language: "hi" | "en", allowed = LATIN_ALLOWED): Promise<string[]> {
  const text = await page.locator("body").evaluate((body: HTMLElement) => {
    // The language switch names both languages on purpose; `translate="no"` marks ids as
    // printed on the box; `code` holds data as sent (an audit entry's request fields), not words.
    const skipped = [...body.querySelectorAll<HTMLElement>(".language-switch, [translate=no], code")];
    for (const node of skipped) node.style.display = "none";
    // biome-ignore lint/performance/useDomNodeTextContent: only the text a reader sees counts, which textContent does not know
    const visible = body.innerText;
    for (const node of skipped) node.style.display = "";
    return visible;
  });
  const words = text.split(/[\s,.;:!?()"'“”‘’/|+=<>…–—·•₹%]+/u).filter((word) => word && !/^[\d०-९-]+$/.test(word));
  return words.filter((word) => {
    // device ids (and their printed prefix, "SNC-"), firmware versions
    if (/^SNC-[A-Z0-9]*$/.test(word) || /^(sim|e2e|screens)-/.test(word)) return false;
    if (language === "hi") return /[A-Za-z]/.test(word) && !allowed.has(word);
    return /[\u0900-\u097F]/.test(word) && word !== "हिन्दी"; // the language switch names itself
  });
}

const PUBLIC_PAGES = ["/", "/login", "/register", "/login-code", "/forgot-password", "/admin/login"];

for (const language of ["hi", "en"] as const) {
  test(`every public page is in ${language === "hi" ? "Hindi" : "English"} only, and so is a refused form`, async ({
    page,
    context,
  }) => {
    await useLanguage(context, language);
    const found: string[] = [];
    for (const path of PUBLIC_PAGES) {
      await page.goto(path);
      found.push(...(await wrongScript(page, language)).map((word) => `${path}: ${word}`));
    }
    // A form sent empty: the server's answer, in the page's language, not the browser's bubble.
    await page.goto("/register");
    await page.getByRole("button", { name: DICTIONARIES[language]["register.button"] }).click();
    await expect(page.getByRole("alert")).toHaveText(DICTIONARIES[language]["auth.required"]);
    found.push(...(await wrongScript(page, language)).map((word) => `/register (refused): ${word}`));
    // The code pages' second step, and a wrong code's refusal with the tries left.
    for (const path of ["/login-code", "/forgot-password"]) {
      await page.goto(path);
      await page.locator("input[name=mobileNo]").fill(uniqueMobileNo());
      await page.getByTestId("send-code").click();
      await page.locator("input[name=code]").fill("123456");
      await page.getByTestId("code-submit").click();
      await expect(page.getByRole("alert")).toBeVisible();
      found.push(...(await wrongScript(page, language)).map((word) => `${path} (code): ${word}`));
    }
    expect(found).toEqual([]);
  });
}

for (const language of ["hi", "en"] as const) {
  test(`every user page is in ${language === "hi" ? "Hindi" : "English"} only`, async ({ page, context, request }) => {
    const { farmer, device } = await farmerWithDevice(request);
    await useLanguage(context, language);
    await logIn(page, farmer.mobileNo, farmer.password, DICTIONARIES[language]);
    // Something in every block: motor logs, health, a schedule ON for a while, a recharge request.
    await page.getByTestId("motor-on").click();
    await expect(page.getByTestId("motor-status")).toHaveText(DICTIONARIES[language]["switch.stateOn"]);
    await page.goto("/pump-settings");
    await page.getByTestId("health-refresh").click();
    const asFarmer = { headers: { Authorization: `Bearer ${farmer.token}` } };
    const schedule = await request.post("/api/schedule", {
      data: { time: "6:30 AM", action: "ON", repeat: "daily", durationMinutes: 45 },
      ...asFarmer,
    });
    expect(schedule.status()).toBe(201);
    const recharge = await request.post("/api/recharge/request", {
      data: { plan: "1year", paymentMethod: "upi" },
      ...asFarmer,
    });
    expect(recharge.ok()).toBe(true);
    const found: string[] = [];
    for (const path of USER_PAGES) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      found.push(...(await wrongScript(page, language)).map((word) => `${path}: ${word}`));
    }
    expect(found).toEqual([]);
    // The invite form sent empty, then without a name: the server's answers in the page's
    // language, never the browser's English "Please fill out this field".
    const texts = DICTIONARIES[language];
    await page.goto("/pump-people");
    await page.getByTestId("invite-submit").click();
    await expect(page.getByTestId("people-notice")).toHaveText(texts["auth.mobileInvalid"]);
    found.push(...(await wrongScript(page, language)).map((word) => `/pump-people (refused): ${word}`));
    await page.getByTestId("invite-mobile").fill(uniqueMobileNo());
    await page.getByTestId("invite-submit").click();
    await expect(page.getByTestId("people-notice")).toHaveText(texts["people.error.labelRequired"]);
    await device.stop();
    expect(found).toEqual([]);
  });
}

for (const language of ["hi", "en"] as const) {
  test(`a number not verified yet: its dashboard line and the code's page are in ${language === "hi" ? "Hindi" : "English"} only`, async ({
    page,
    context,
    request,
  }) => {
    const mobileNo = uniqueMobileNo();
    await apiClient(request).register(mobileNo, "language-farmer-password");
    await useLanguage(context, language);
    await logIn(page, mobileNo, "language-farmer-password", DICTIONARIES[language]);
    await expect(page.getByTestId("verify-notice")).toBeVisible();
    const found = (await wrongScript(page, language)).map((word) => `/motor-control: ${word}`);
    await page.getByTestId("verify-notice").getByRole("button").click();
    await page.locator("input[name=code]").fill("000000");
    await page.getByTestId("code-submit").click();
    await expect(page.getByRole("alert")).toBeVisible();
    found.push(...(await wrongScript(page, language)).map((word) => `/verify-number: ${word}`));
    expect(found).toEqual([]);
  });
}

for (const language of ["hi", "en"] as const) {
  test(`every admin page is in ${language === "hi" ? "Hindi" : "English"} only`, async ({ page, context, request }) => {
    const { farmer, device } = await farmerWithDevice(request);
    const asFarmer = bearer(farmer.token);
    // Something in every block: the farmer's logs and health, a recharge request, and on the
    // audit trail an accepted and a refused admin write.
    expect((await request.post("/api/devices/motor", { data: { action: "on" }, ...asFarmer })).ok()).toBe(true);
    expect(
      (
        await request.post("/api/recharge/request", { data: { plan: "1year", paymentMethod: "upi" }, ...asFarmer })
      ).ok(),
    ).toBe(true);
    const admin = bearer(await adminApiToken(request));
    const refused = await request.put("/api/admin/update-user-role", {
      data: { userId: 999_999_999, isAdmin: true },
      ...admin,
    });
    expect(refused.status()).toBe(404);
    await useLanguage(context, language);
    await adminLogIn(page, texts[language]);
    const found: string[] = [];
    for (const path of ADMIN_PAGES(farmer.id)) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      found.push(...(await wrongScript(page, language, ADMIN_LATIN_ALLOWED)).map((word) => `${path}: ${word}`));
    }
    await device.stop();
    expect(found).toEqual([]);
  });
}
