// Renewal reminders (worker/payments/messages.ts): an SMS 7 days and 1 day before a box's plan
// ends, with the recharge link, each once for that end however often the cron runs; a plan
// extended since has a new end and its own two; a plan further off, or ended, gets none.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../worker/db/client.ts";
import { alertSettings, planPeriods } from "../../../worker/db/schema.ts";
import { sendPlanReminders } from "../../../worker/payments/messages.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { smsTo, waitForSms } from "../telephony-support.ts";

const DAY = 24 * 60 * 60 * 1000;

async function boxWithPlanEnding(endsAt: number) {
  const { user, device } = await farmerWithDevice();
  await getDb(env.DB)
    .insert(planPeriods)
    .values({
      deviceId: device.deviceId,
      plan: "free",
      amount: 0,
      startsAt: endsAt - 365 * DAY,
      endsAt,
      createdAt: Date.now(),
    });
  return { user, device };
}

describe("renewal reminders", () => {
  it("go 7 days and 1 day before the plan ends, never more than those two, with the recharge link", async () => {
    const now = Date.now();
    const endsAt = now + 6.5 * DAY;
    const { user, device } = await boxWithPlanEnding(endsAt);
    await sendPlanReminders(env, now);
    const [week] = await waitForSms(user.mobileNo, 1);
    expect(week!.text).toContain(`पंप ${device.deviceId} का प्लान`);
    expect(week!.text).toContain(`रिचार्ज करें: ${env.TELEPHONY_WEBHOOK_ORIGIN}/recharge`);
    // Every minute's cron again, up to the day before: nothing more.
    for (const later of [now + 60_000, now + 3 * DAY, now + 5 * DAY]) await sendPlanReminders(env, later);
    expect(await smsTo(user.mobileNo)).toHaveLength(1);
    // Within the last day: the second one, once.
    await sendPlanReminders(env, endsAt - 20 * 60 * 60 * 1000);
    await waitForSms(user.mobileNo, 2);
    for (const later of [endsAt - 10 * 60 * 60 * 1000, endsAt - 60_000, endsAt + DAY])
      await sendPlanReminders(env, later);
    expect(await smsTo(user.mobileNo)).toHaveLength(2);
  });

  it("skip a plan that ends later than a week, or has ended, and follow a plan extended to a new end", async () => {
    const now = Date.now();
    const far = await boxWithPlanEnding(now + 30 * DAY);
    const ended = await boxWithPlanEnding(now - DAY);
    const extended = await boxWithPlanEnding(now + 5 * DAY);
    await getDb(env.DB)
      .insert(planPeriods)
      .values({
        deviceId: extended.device.deviceId,
        plan: "1month",
        amount: 399,
        startsAt: now + 5 * DAY,
        endsAt: now + 35 * DAY,
        createdAt: now,
      });
    await sendPlanReminders(env, now);
    expect(await smsTo(far.user.mobileNo)).toHaveLength(0);
    expect(await smsTo(ended.user.mobileNo)).toHaveLength(0);
    expect(await smsTo(extended.user.mobileNo)).toHaveLength(0);
    // A week before the new end: its first reminder.
    await sendPlanReminders(env, now + 29 * DAY);
    await waitForSms(extended.user.mobileNo, 1);
  });

  it("speak the language the owner chose for their SMS on /alerts, Hindi when they chose none", async () => {
    const now = Date.now();
    const { user, device } = await boxWithPlanEnding(now + 6 * DAY);
    await getDb(env.DB).insert(alertSettings).values({ userId: user.id, channels: {}, language: "en", updatedAt: now });
    await sendPlanReminders(env, now);
    const [reminder] = await waitForSms(user.mobileNo, 1);
    expect(reminder!.text).toMatch(/^Sinchai: /);
    expect(reminder!.text).toContain(device.deviceId);
  });
});
