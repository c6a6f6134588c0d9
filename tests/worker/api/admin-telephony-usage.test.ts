// GET /api/admin/telephony-usage: each account's alerts by SMS and call in an IST month, as the
// hubs count them into D1's months (SMS parts, calls and their started minutes, what the caps
// held back; device-hub.phone-alerts.test.ts counts real sends) and priced
// at the environment's rates (wrangler.toml's local examples: 25 paise a part, 50 a minute).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { telephonyUsageResponseSchema } from "../../../common/api-responses/admin.ts";
import { getDb } from "../../../worker/db/client.ts";
import { callDurationCounts, countMonth } from "../../../worker/db/phone-alert-counts.ts";
import { istMonth } from "../../../worker/services/telephony-usage.ts";
import { adminToken, createUser } from "../helpers/accounts.ts";
import { getJson } from "../helpers/http.ts";

const NOVEMBER = Date.parse("2026-11-10T10:00:00+05:30");
const OCTOBER_LAST_MINUTE = Date.parse("2026-10-31T23:59:00+05:30");

describe("GET /api/admin/telephony-usage", () => {
  it("counts each account's SMS parts, calls and started minutes in the IST month, and prices them", async () => {
    const [farmer, other] = await Promise.all([createUser(), createUser()]);
    // What the pumps' hubs add as their deliveries go (a refused one adds nothing), each once.
    const db = getDb(env.DB);
    await countMonth(db, farmer.id, NOVEMBER, { sms: 1, smsParts: 2 });
    await countMonth(db, farmer.id, NOVEMBER + 1, { sms: 1, smsParts: 2 });
    await countMonth(db, farmer.id, NOVEMBER + 2, { capped: 1 });
    await countMonth(db, farmer.id, NOVEMBER + 4, { calls: 1 });
    await countMonth(db, farmer.id, NOVEMBER + 4, callDurationCounts(61));
    await countMonth(db, farmer.id, NOVEMBER + 5, { calls: 1 });
    await countMonth(db, farmer.id, NOVEMBER + 5, callDurationCounts(0));
    // A claim at 23:59 on 31 October IST is October's, whenever its status comes.
    await countMonth(db, other.id, OCTOBER_LAST_MINUTE, { sms: 1, smsParts: 1 });
    const token = await adminToken();
    const november = await readJson(
      await getJson("/api/admin/telephony-usage?month=2026-11", token),
      telephonyUsageResponseSchema,
    );
    expect(november.prices).toEqual({ smsPartPaise: 25, callMinutePaise: 50, asOf: "2026-11-26" });
    expect(november.accounts.find((row) => row.userId === farmer.id)).toEqual({
      userId: farmer.id,
      mobileNo: farmer.mobileNo,
      sms: 2,
      smsParts: 4,
      calls: 2,
      answeredCalls: 1,
      callSeconds: 61,
      callMinutes: 2,
      capped: 1,
      estimatedPaise: 4 * 25 + 2 * 50,
    });
    expect(november.accounts.find((row) => row.userId === other.id)).toBeUndefined();
    const october = await readJson(
      await getJson("/api/admin/telephony-usage?month=2026-10", token),
      telephonyUsageResponseSchema,
    );
    expect(october.accounts.find((row) => row.userId === other.id)).toMatchObject({ sms: 1, estimatedPaise: 25 });
    expect(october.totals.smsParts).toBeGreaterThanOrEqual(1);
  });

  it("is this month without one, and refuses a month that is not one", async () => {
    const token = await adminToken();
    const now = await readJson(await getJson("/api/admin/telephony-usage", token), telephonyUsageResponseSchema);
    expect(now.month).toBe(istMonth(Date.now()));
    for (const month of ["2026-13", "2026-1", "november", "2026-11-01"]) {
      expect((await getJson(`/api/admin/telephony-usage?month=${month}`, token)).status, month).toBe(400);
    }
  });
});
