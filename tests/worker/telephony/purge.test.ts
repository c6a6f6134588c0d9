// The cron trigger also deletes what telephony no longer needs: one-time codes a day after they
// expired or were used, and webhook events (with their replay keys) after 30 days.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../worker/db/client.ts";
import { oneTimeCodes, telephonyEvents } from "../../../worker/db/schema.ts";
import { TELEPHONY_EVENT_TTL_MS } from "../../../worker/db/telephony-events.ts";
import worker from "../../worker-test-entry.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";

freshStorageForThisFile();

const DAY = 24 * 60 * 60 * 1000;

describe("the scheduled purge of telephony records", () => {
  it("deletes codes a day past their use or expiry and events past 30 days; keeps the rest", async () => {
    const now = Date.now();
    const db = getDb(env.DB);
    const code = { purpose: "signIn" as const, codeHash: "00", tries: 0 };
    await db.insert(oneTimeCodes).values([
      { ...code, mobileNo: "9000000101", createdAt: now - 2 * DAY, expiresAt: now - DAY - 1, usedAt: null },
      { ...code, mobileNo: "9000000102", createdAt: now - 2 * DAY, expiresAt: now + 60_000, usedAt: now - DAY - 1 },
      { ...code, mobileNo: "9000000103", createdAt: now - 60_000, expiresAt: now - 1, usedAt: null },
      { ...code, mobileNo: "9000000104", createdAt: now, expiresAt: now + 300_000, usedAt: null },
    ]);
    const event = { provider: "twilio" as const, type: "smsStatus", event: "{}" };
    await db.insert(telephonyEvents).values([
      { ...event, replayKey: "purge:old", receivedAt: now - TELEPHONY_EVENT_TTL_MS - 1 },
      { ...event, replayKey: "purge:recent", receivedAt: now - TELEPHONY_EVENT_TTL_MS + 60_000 },
    ]);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *", scheduledTime: now }), env, ctx);
    await waitOnExecutionContext(ctx);

    const codes = await db.select({ mobileNo: oneTimeCodes.mobileNo }).from(oneTimeCodes);
    expect(codes.map((row) => row.mobileNo).sort()).toEqual(["9000000103", "9000000104"]);
    const events = await db.select({ replayKey: telephonyEvents.replayKey }).from(telephonyEvents);
    expect(events.map((row) => row.replayKey)).toEqual(["purge:recent"]);
  });
});
