// The cron trigger's purges work in small steps: at most PURGED_PER_RUN ended sessions (their
// push subscriptions with them) and as many expired realtime watches a minute, through their
// expiry indexes, the rest on the next minutes; a live session and its watch stay.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PURGED_PER_RUN, purgeEndedSessions } from "../../../worker/auth/sessions.ts";
import { getDb } from "../../../worker/db/client.ts";
import { realtimeWatches, sessions } from "../../../worker/db/schema.ts";
import { createUser } from "../helpers/accounts.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";

freshStorageForThisFile();

const db = getDb(env.DB);

describe("the purge of ended sessions and watches", () => {
  it(`deletes at most ${PURGED_PER_RUN} of each a run, and everything ended within a few runs; live ones stay`, async () => {
    const user = await createUser();
    const now = Date.now();
    const ended = PURGED_PER_RUN + 20;
    const session = (index: number, expiresAt: number) => ({
      id: `purge-${index}`,
      userId: user.id,
      audience: "user" as const,
      createdAt: now - 60_000,
      expiresAt,
    });
    const watch = (index: number, expiresAt: number) => ({
      sessionId: `purge-${index}`,
      deviceId: "SNC-PURGE",
      userId: user.id,
      audience: "user" as const,
      expiresAt,
    });
    // 90 bound values a statement at most (D1 allows 100).
    for (let first = 0; first < ended; first += 15) {
      const indexes = Array.from({ length: Math.min(15, ended - first) }, (_, offset) => first + offset);
      await db.insert(sessions).values(indexes.map((index) => session(index, now - 1_000)));
      await db.insert(realtimeWatches).values(indexes.map((index) => watch(index, now - 1_000)));
    }
    await db.insert(sessions).values(session(ended, now + 60_000));
    await db.insert(realtimeWatches).values(watch(ended, now + 60_000));

    expect(await purgeEndedSessions(env, now)).toEqual({ sessions: PURGED_PER_RUN, watches: PURGED_PER_RUN });
    expect(await purgeEndedSessions(env, now)).toEqual({ sessions: 20, watches: 20 });
    expect(await purgeEndedSessions(env, now)).toEqual({ sessions: 0, watches: 0 });
    const left = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
    expect(left.map((row) => row.id)).toEqual([`purge-${ended}`]);
    const watches = await db.select().from(realtimeWatches).where(eq(realtimeWatches.userId, user.id));
    expect(watches.map((row) => row.sessionId)).toEqual([`purge-${ended}`]);
  });
});
