// The cron trigger (every 5 minutes) deletes sessions that can never be used again (docs/security.md,
// "Accounts and sessions"): expired ones, and ones revoked more than a day ago.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BROWSER_CLOSE } from "../../common/hub-contract.ts";
import { endSession, REVOKED_SESSION_KEPT_MS } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { realtimeWatches, sessions } from "../../worker/db/schema.ts";
import worker from "../worker-test-entry.ts";
import { createUser, loginToken } from "./helpers/accounts.ts";
import { farmerWithDevice } from "./helpers/boxes.ts";
import { getJson } from "./helpers/http.ts";
import { browserWatching } from "./helpers/sockets.ts";

describe("the scheduled purge of ended sessions", () => {
  it("deletes expired sessions and ones revoked over a day ago; live and newly revoked ones stay, and a live token still works", async () => {
    const user = await createUser();
    const token = await loginToken(user);
    const now = Date.now();
    const db = getDb(env.DB);
    // Ids of this test's own: the runtime's storage holds other files' sessions too.
    const id = (name: string) => `${name}-${user.id}`;
    const rows = [
      { id: id("purge-expired"), expiresAt: now - 1, revokedAt: null },
      { id: id("purge-revoked-long-ago"), expiresAt: now + 60_000, revokedAt: now - REVOKED_SESSION_KEPT_MS - 1 },
      { id: id("keep-revoked-just-now"), expiresAt: now + 60_000, revokedAt: now - 1_000 },
      { id: id("keep-live"), expiresAt: now + 60_000, revokedAt: null },
    ];
    await db
      .insert(sessions)
      .values(rows.map((row) => ({ ...row, userId: user.id, audience: "user" as const, createdAt: now - 10_000 })));
    await db.insert(realtimeWatches).values([
      { sessionId: id("purge-expired"), deviceId: "SNC-PURGE", userId: user.id, audience: "user", expiresAt: now - 1 },
      { sessionId: id("keep-live"), deviceId: "SNC-PURGE", userId: user.id, audience: "user", expiresAt: now + 60_000 },
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
    expect(left.map((row) => row.id).sort()).toEqual([id("keep-live"), id("keep-revoked-just-now")]);
    const watches = await db
      .select({ sessionId: realtimeWatches.sessionId })
      .from(realtimeWatches)
      .where(eq(realtimeWatches.userId, user.id));
    expect(watches).toEqual([{ sessionId: id("keep-live") }]);
    expect((await getJson("/api/recharge/plan", token)).status).not.toBe(401);
  });
});

describe("the sockets of an ended session that a hub did not close", () => {
  it("stay on record after two refused closes, and the next cron run closes them", async () => {
    const { user } = await farmerWithDevice();
    const token = await loginToken(user);
    const tab = await browserWatching(user.mobileNo, { token });
    const db = getDb(env.DB);
    const watchesOf = () => db.select().from(realtimeWatches).where(eq(realtimeWatches.userId, user.id));
    const [watch] = await watchesOf();
    // Its hub cannot be reached for the moment: every call to it fails, as while its object restarts.
    let attempts = 0;
    const hubUnreachable = {
      ...env,
      DEVICE_HUB: {
        idFromName: (name: string) => env.DEVICE_HUB.idFromName(name),
        get: () => ({
          closeViewerSockets: async () => {
            attempts += 1;
            throw new Error("Durable Object reset");
          },
        }),
      },
    } as unknown as Env;

    await endSession(hubUnreachable, watch!.sessionId); // the farmer logs out meanwhile
    expect(attempts).toBe(2);
    expect(tab.closed).toBeNull();
    expect(await watchesOf()).toHaveLength(1);
    expect((await getJson("/api/recharge/plan", token)).status).toBe(401);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await tab.waitForClose()).code).toBe(BROWSER_CLOSE.signedOut);
    expect(await watchesOf()).toEqual([]);
  });
});
