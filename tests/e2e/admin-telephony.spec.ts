// /admin/telephony: each account's alerts by SMS and call this month and their estimated cost,
// in Hindi at 360 px, from the menu; the month is a plain GET form. Its own farmer, whose month
// is written straight into the local D1 as the pumps' hubs would have counted it.
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
  // Two SMS of 2 parts each, one call answered for 61 seconds.
  await executeLocalSql(
    E2E_PERSIST_DIR,
    `INSERT INTO phone_alert_months (user_id, month, sms, sms_parts, calls, answered_calls, call_seconds, call_minutes, capped)
     VALUES (${farmer.id}, ${sqlText(istDay(now).slice(0, 7))}, 2, 4, 1, 1, 61, 2, 0);`,
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
