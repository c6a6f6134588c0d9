// A session's end reaches its sockets. The realtime route records on which DeviceHub each
// session opened a socket; whatever ends a session (logout, a lost role, a deleted account)
// asks those hubs to close the sockets, with a close code that tells the page why.
import { and, eq, inArray, lt } from "drizzle-orm";
import type { BrowserCloseReason } from "../../common/pump-state.ts";
import { getDb } from "../db/client.ts";
import { realtimeWatches } from "../db/schema.ts";
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
 * reached is logged, not fatal: the session's own expiry timer still closes its socket.
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
  const sessionsByDevice = new Map<string, string[]>();
  for (const row of rows)
    sessionsByDevice.set(row.deviceId, [...(sessionsByDevice.get(row.deviceId) ?? []), row.sessionId]);
  const results = await Promise.allSettled(
    [...sessionsByDevice].map(([deviceId, sessionIds]) =>
      deviceHub(env, deviceId).closeViewerSockets({ sessionIds }, reason),
    ),
  );
  for (const result of results) {
    if (result.status === "rejected") console.error("Could not close the sockets of an ended session", result.reason);
  }
  await db.delete(realtimeWatches).where(where);
}
