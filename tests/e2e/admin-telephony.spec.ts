// /admin/telephony: each account's alerts by SMS and call this month and their estimated cost,
// in Hindi at 360 px, from the menu; the month is a plain GET form. Its own farmer, whose claims
// are written straight into the local D1 as the alerts would have left them.
import { expect } from "@playwright/test";
import { istDay } from "../../common/pump-usage.ts";
import { E2E_PERSIST_DIR } from "../../playwright.config.ts";
import { executeLocalSql, sqlText } from "../../scripts/lib/local-d1.ts";
import { adminLogIn, registerFarmer, test, texts } from "./admin-support.ts";
import { fitsTheScreen } from "./support.ts";

test("an admin sees an account's SMS and calls of the month and what they cost (Hindi, phone)", async ({
  page,
  request,
}) => {
  const t = texts.hi;
  const farmer = await registerFarmer(request);
  const now = Date.now();
  const row = (channel: string, status: string, segments: string, seconds: string, offset: number) =>
    `(${sqlText(crypto.randomUUID())}, ${farmer.id}, 'SNC-E2ECOSTS', 'dryRun', ${sqlText(channel)}, 'chosen', 'hi', '{"pumpName":"x"}', ${sqlText(status)}, ${segments}, ${seconds}, ${now - offset}, ${now - offset})`;
  await executeLocalSql(
    E2E_PERSIST_DIR,
    `INSERT INTO alert_deliveries (event_id, user_id, device_id, kind, channel, reason, language, "values", status, segments, duration_seconds, created_at, updated_at)
     VALUES ${[row("sms", "delivered", "2", "NULL", 3), row("sms", "sent", "2", "NULL", 2), row("call", "completed", "NULL", "61", 1)].join(", ")};`,
  );
  await adminLogIn(page, t);
  await page.locator(".admin-bottom-bar").getByRole("link", { name: t["admin.nav.telephony"] }).click();
  await expect(page).toHaveURL(/\/admin\/telephony$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t["admin.telephony.title"]);
  await expect(page.getByTestId("telephony-month")).toHaveValue(istDay(now).slice(0, 7));
  const line = page.getByTestId(`telephony-row-${farmer.mobileNo}`);
  await expect(line).toContainText("2 (4)");
  await expect(line).toContainText("1 (1, 2 मिनट)");
  // 4 parts at 25 paise and 2 minutes at 50 (local mode's example prices): ₹2.
  await expect(line).toContainText("₹2.00");
  await expect(page.getByTestId("telephony-prices")).toContainText("2026-11-26");
  expect(await fitsTheScreen(page)).toBe(true);
  // An earlier month, by the form: this farmer had nothing then.
  await page.getByTestId("telephony-month").fill("2026-01");
  await page.getByRole("button", { name: t["admin.telephony.show"] }).click();
  await expect(page).toHaveURL(/\?month=2026-01$/);
  await expect(page.getByTestId(`telephony-row-${farmer.mobileNo}`)).toHaveCount(0);
});
