// A session's end reaches its sockets. The realtime route records on which DeviceHub each
// session opened a socket; whatever ends a session (logout, a lost role, a deleted account)
// asks those hubs to close the sockets, with a close code that tells the page why. A hub that
// does not take the close keeps its rows, for the cron trigger to ask again.
import { and, eq, inArray, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { BrowserCloseReason } from "../../common/hub-contract.ts";
import { getDb } from "../db/client.ts";
import { realtimeWatches, sessions } from "../db/schema.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import type { Audience } from "./tokens.ts";

export type SocketEnv = Pick<Env, "DB" | "DEVICE_HUB">;

export type Watch = { sessionId: string; userId: number; audience: Audience; deviceId: string; expiresAt: number };

/** Called before the socket reaches its hub, so that an end racing with the opening finds it. */
export async function recordWatch(env: SocketEnv, watch: Watch, now = Date.now()): Promise<void> {
  const db = getDb(env.DB);
  await db.batch([
    // The account's expired rows go on the way: their sockets closed themselves at expiry.
    db.delete(realtimeWatches).where(and(eq(realtimeWatches.userId, watch.userId), lt(realtimeWatches.expiresAt, now))),
    db.insert(realtimeWatches).values(watch).onConflictDoNothing(),
  ]);
}

export type WatchTarget = { sessionIds: string[] } | { userId: number; audience?: Audience };

/**
 * Closes every realtime socket opened by the target's sessions, on every hub that has one.
 * Call it after the session (or role, or account) is already gone in D1. A hub that cannot be
 * reached is asked once more; if it still cannot be, its watch rows stay, and the cron trigger
 * asks it again (`closeSocketsOfEndedSessions`) until it closes them: a socket left open could
 * still switch the motor on the page's request.
 */
export async function closeSessionSockets(
  env: SocketEnv,
  target: WatchTarget,
  reason: BrowserCloseReason,
): Promise<void> {
  if ("sessionIds" in target && target.sessionIds.length === 0) return;
  const db = getDb(env.DB);
  const where =
    "sessionIds" in target
      ? inArray(realtimeWatches.sessionId, target.sessionIds)
      : target.audience
        ? and(eq(realtimeWatches.userId, target.userId), eq(realtimeWatches.audience, target.audience))
        : eq(realtimeWatches.userId, target.userId);
  const rows = await db.select().from(realtimeWatches).where(where);
  const closed = await closeOnHubs(env, rows, () => reason);
  if (closed.length > 0) await db.delete(realtimeWatches).where(and(where, inArray(realtimeWatches.deviceId, closed)));
}

/**
 * The cron's second chance for closes a hub did not take: the watches whose session is revoked
 * or gone (a deleted account takes its sessions with it) are closed on their hubs, and their
 * rows deleted once closed. Expired sessions' sockets close themselves (the hub's own timer).
 */
export async function closeSocketsOfEndedSessions(env: SocketEnv): Promise<{ closed: number; left: number }> {
  const db = getDb(env.DB);
  const ended = await db
    .select({ watch: realtimeWatches, revokedAt: sessions.revokedAt })
    .from(realtimeWatches)
    .leftJoin(sessions, eq(sessions.id, realtimeWatches.sessionId))
    .where(or(isNull(sessions.id), isNotNull(sessions.revokedAt)))
    // A handful at most in practice (only closes a hub refused); bounded so one delete binds them all.
    .limit(ENDED_WATCHES_PER_RUN);
  if (ended.length === 0) return { closed: 0, left: 0 };
  const revoked = new Set(ended.filter((row) => row.revokedAt !== null).map((row) => row.watch.sessionId));
  const rows = ended.map((row) => row.watch);
  const closed = await closeOnHubs(env, rows, (sessionId) => (revoked.has(sessionId) ? "signedOut" : "accessRemoved"));
  const done = rows.filter((row) => closed.includes(row.deviceId));
  if (done.length > 0) {
    await db
      .delete(realtimeWatches)
      .where(
        or(
          ...done.map((row) =>
            and(eq(realtimeWatches.sessionId, row.sessionId), eq(realtimeWatches.deviceId, row.deviceId)),
          ),
        ),
      );
  }
  return { closed: done.length, left: rows.length - done.length };
}

/** D1 binds at most 100 values a statement: the delete above binds two per watch at most. */
const ENDED_WATCHES_PER_RUN = 50;

/**
 * Asks each hub of `rows` to close its sessions' sockets, each with the reason `reasonOf` gives;
 * a hub that fails is asked once more (a Durable Object call can fail for a moment, as when the
 * object restarts). Answers the hubs that closed them.
 */
async function closeOnHubs(
  env: SocketEnv,
  rows: Pick<Watch, "sessionId" | "deviceId">[],
  reasonOf: (sessionId: string) => BrowserCloseReason,
): Promise<string[]> {
  const byDeviceAndReason = new Map<string, { deviceId: string; reason: BrowserCloseReason; sessionIds: string[] }>();
  for (const row of rows) {
    const reason = reasonOf(row.sessionId);
    const key = `${row.deviceId}\u0000${reason}`;
    const entry = byDeviceAndReason.get(key) ?? { deviceId: row.deviceId, reason, sessionIds: [] };
    entry.sessionIds.push(row.sessionId);
    byDeviceAndReason.set(key, entry);
  }
  const failed = new Set<string>();
  await Promise.all(
    [...byDeviceAndReason.values()].map(async ({ deviceId, reason, sessionIds }) => {
      const close = () => deviceHub(env, deviceId).closeViewerSockets({ sessionIds }, reason);
      try {
        await close().catch(close);
      } catch (error) {
        console.error(
          `DeviceHub ${deviceId}: could not close the sockets of an ended session; the cron retries`,
          error,
        );
        failed.add(deviceId);
      }
    }),
  );
  return [...new Set(rows.map((row) => row.deviceId))].filter((deviceId) => !failed.has(deviceId));
}
