// The hourly cron trigger deletes sessions that can never be used again (docs/security.md,
// "Accounts and sessions"): expired ones, and ones revoked more than a day ago.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { REVOKED_SESSION_KEPT_MS } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { realtimeWatches, sessions } from "../../worker/db/schema.ts";
import worker from "../worker-test-entry.ts";
import { createUser, getJson, loginToken } from "./helpers.ts";

describe("the scheduled purge of ended sessions", () => {
  it("deletes expired sessions and ones revoked over a day ago; live and newly revoked ones stay, and a live token still works", async () => {
    const user = await createUser();
    const token = await loginToken(user);
    const now = Date.now();
    const db = getDb(env.DB);
    const rows = [
      { id: "purge-expired", expiresAt: now - 1, revokedAt: null },
      { id: "purge-revoked-long-ago", expiresAt: now + 60_000, revokedAt: now - REVOKED_SESSION_KEPT_MS - 1 },
      { id: "keep-revoked-just-now", expiresAt: now + 60_000, revokedAt: now - 1_000 },
      { id: "keep-live", expiresAt: now + 60_000, revokedAt: null },
    ];
    await db
      .insert(sessions)
      .values(rows.map((row) => ({ ...row, userId: user.id, audience: "user" as const, createdAt: now - 10_000 })));
    await db.insert(realtimeWatches).values([
      { sessionId: "purge-expired", deviceId: "SNC-PURGE", userId: user.id, audience: "user", expiresAt: now - 1 },
      { sessionId: "keep-live", deviceId: "SNC-PURGE", userId: user.id, audience: "user", expiresAt: now + 60_000 },
    ]);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "17 * * * *", scheduledTime: now }), env, ctx);
    await waitOnExecutionContext(ctx);

    const left = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(
        inArray(
          sessions.id,
          rows.map((row) => row.id),
        ),
      );
    expect(left.map((row) => row.id).sort()).toEqual(["keep-live", "keep-revoked-just-now"]);
    const watches = await db
      .select({ sessionId: realtimeWatches.sessionId })
      .from(realtimeWatches)
      .where(inArray(realtimeWatches.deviceId, ["SNC-PURGE"]));
    expect(watches).toEqual([{ sessionId: "keep-live" }]);
    expect((await getJson("/api/recharge/plan", token)).status).not.toBe(401);
  });
});
