// Reads that may be a moment behind the database's primary, served by D1's read replicas
// through the Sessions API (docs/decisions/044-reads-near-the-farmer.md). Without a session D1
// runs every query on the primary, so everything else (a session's revocation, who may switch a
// pump, every write) stays there by default; a read goes to a replica only when its caller asks
// for it here, and tests/scripts/reads-that-may-lag.test.ts keeps the list of callers short.
//
// A browser reads its own writes: a request that wrote answers with a bookmark of the primary
// taken after its writes (the `sinchai_d1_seen` cookie), and the next replica read of that
// browser starts no older than it. Writes by anyone else (a hub's log, an admin marking a
// recharge) reach the replicas within seconds.
import { httpOnlyCookie, readCookie } from "../auth/cookies.ts";

export const SEEN_BOOKMARK_COOKIE = "sinchai_d1_seen";

/**
 * How long a browser keeps its bookmark: far longer than a replica takes to catch up, so past
 * it any replica has what the browser wrote.
 */
const SEEN_BOOKMARK_MAX_AGE_SECONDS = 10 * 60;

/** D1 bookmarks are hyphen-separated hex groups; anything else is not one we gave out. */
const BOOKMARK_PATTERN = /^[0-9a-f]{1,16}(-[0-9a-f]{1,64}){1,7}$/i;

/** The bookmark each request's D1 (the binding or its counting wrapper) may start from. */
const requestBookmarks = new WeakMap<D1Database, string>();

/** Notes the bookmark `request` brought for reads through `d1`, this request's D1. */
export function rememberSeenBookmark(d1: D1Database, request: Request): void {
  const bookmark = readCookie(request, SEEN_BOOKMARK_COOKIE);
  if (bookmark && BOOKMARK_PATTERN.test(bookmark)) requestBookmarks.set(d1, bookmark);
}

/**
 * A D1 for reads that may lag: the nearest replica, no older than what this request's browser
 * last wrote. Only for reads a few seconds' lag cannot make wrong: lists and counts for the
 * admin, a farmer's plan. drizzle's D1 driver uses only `prepare` and `batch`, which a session
 * has, so the session stands in for the binding.
 */
export function readsThatMayLag(env: Pick<Env, "DB">): D1Database {
  const session = env.DB.withSession(requestBookmarks.get(env.DB) ?? "first-unconstrained");
  return session as unknown as D1Database;
}

/**
 * The `Set-Cookie` for a request that wrote: a bookmark of the primary taken after its writes
 * (one small query there), or null when the database gives none (an older local runtime).
 */
export async function seenBookmarkCookie(env: Pick<Env, "DB">, request: Request): Promise<string | null> {
  const session = env.DB.withSession("first-primary");
  await session.prepare("SELECT 1").first();
  const bookmark = session.getBookmark();
  if (!bookmark || !BOOKMARK_PATTERN.test(bookmark)) return null;
  return httpOnlyCookie(request, SEEN_BOOKMARK_COOKIE, bookmark, {
    sameSite: "Lax",
    maxAgeSeconds: SEEN_BOOKMARK_MAX_AGE_SECONDS,
  });
}
