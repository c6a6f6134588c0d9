// Every admin page in Hindi says everything in Hindi, and in English everything in English: only
// a short list of words may cross (page-words.ts). The farmer's pages are checked the same way
// where each is opened for its look (screens.spec.ts).
import { expect, test } from "@playwright/test";
import { adminApiToken, adminLogIn, bearer, farmerWithDevice, texts } from "./admin-support.ts";
import { ADMIN_LATIN_ALLOWED, wrongScript } from "./page-words.ts";
import { useLanguage } from "./support.ts";

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
