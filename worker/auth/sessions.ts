// Sessions: a row in D1 per login, referenced by the token's `sid`. Every authenticated call
// checks that row, so logout, role change and account deletion take effect at once. A farmer's
// session slides: a user page renews it, at most once a day (docs/decisions/003-sessions.md).
import { and, eq, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { PublicUser } from "../../common/api-responses/accounts.ts";
import { getDb } from "../db/client.ts";
import { deleteSubscriptionsOfSession } from "../db/push-subscriptions.ts";
import { realtimeWatches, sessions, users } from "../db/schema.ts";
import { readCookie, SESSION_COOKIE, sessionCookie } from "./cookies.ts";
import { closeSessionSockets, type SocketEnv } from "./session-sockets.ts";
import { type Audience, SESSION_TTL_MS, signSessionToken, type TokenClaims, verifySessionToken } from "./tokens.ts";

export type AuthenticatedUser = PublicUser & {
  sessionId: string;
  sessionExpiresAt: number;
  audience: Audience;
  /** Whether the holder of the number proved it with a code (docs/decisions/027-verified-numbers.md). */
  numberVerified: boolean;
};

export type SessionEnv = Pick<Env, "DB" | "JWT_SECRET">;

function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export async function startSession(
  env: SessionEnv,
  userId: number,
  audience: Audience,
  now = Date.now(),
): Promise<{ token: string; expiresAt: number }> {
  const sessionId = newSessionId();
  const expiresAt = now + SESSION_TTL_MS[audience];
  await getDb(env.DB).insert(sessions).values({
    id: sessionId,
    userId,
    audience,
    createdAt: now,
    expiresAt,
  });
  const token = await signSessionToken(env.JWT_SECRET, { userId, sessionId, audience }, expiresAt, now);
  return { token, expiresAt };
}

/** The user behind `token` for `audience`, or null when the token or its session is not valid. */
export async function authenticateToken(
  env: SessionEnv,
  token: string,
  audience: Audience,
  now = Date.now(),
): Promise<AuthenticatedUser | null> {
  const claims = await verifySessionToken(env.JWT_SECRET, token, audience, now);
  if (!claims) return null;
  const rows = await getDb(env.DB)
    .select(SESSION_USER)
    .from(sessions)
    .innerJoin(users, eq(sessions.userId, users.id))
    .where(liveSession(claims, now))
    .limit(1);
  return sessionUser(claims, rows[0]);
}

/** What a session's row and its user's give an authenticated call (select it with the session's join). */
export const SESSION_USER = {
  id: users.id,
  mobileNo: users.mobileNo,
  isAdmin: users.isAdmin,
  numberVerifiedAt: users.numberVerifiedAt,
  sessionExpiresAt: sessions.expiresAt,
};

/** The session row `claims` name, if it is still good at `now` (not revoked, not run out). */
export function liveSession(claims: TokenClaims, now: number) {
  return and(
    eq(sessions.id, claims.sessionId),
    eq(sessions.userId, claims.userId),
    eq(sessions.audience, claims.audience),
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, now),
  );
}

/** The caller a live session's row makes, or null; an admin session dies with the admin role. */
export function sessionUser(
  claims: TokenClaims,
  row:
    | { id: number; mobileNo: string; isAdmin: boolean; numberVerifiedAt: number | null; sessionExpiresAt: number }
    | undefined,
): AuthenticatedUser | null {
  if (!row) return null;
  if (claims.audience === "admin" && !row.isAdmin) return null;
  // Field by field: a row read with more (the box, with its key's hash) must not ride along.
  return {
    id: row.id,
    mobileNo: row.mobileNo,
    isAdmin: row.isAdmin,
    numberVerified: row.numberVerifiedAt !== null,
    sessionExpiresAt: row.sessionExpiresAt,
    sessionId: claims.sessionId,
    audience: claims.audience,
  };
}

/**
 * Ends a session: its token stops working at once, and so do the realtime sockets it opened. Its
 * push subscriptions go in the same batch: the phone gets no more of the pump's alerts.
 */
export async function endSession(env: SocketEnv, sessionId: string, now = Date.now()) {
  const db = getDb(env.DB);
  await db.batch([
    db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt))),
    deleteSubscriptionsOfSession(db, sessionId),
  ]);
  await closeSessionSockets(env, { sessionIds: [sessionId] }, "signedOut");
}

export type RequestCredentials = { token: string; source: "bearer" | "cookie" };

/** The bearer token if the request has one, else the area's session cookie. */
export function readCredentials(request: Request, audience: Audience): RequestCredentials | null {
  const authorization = request.headers.get("Authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    return match ? { token: match[1]!, source: "bearer" } : null;
  }
  const cookie = readCookie(request, SESSION_COOKIE[audience]);
  return cookie ? { token: cookie, source: "cookie" } : null;
}

/** A farmer's cookie is renewed once it is this old: the one D1 write of a sliding session, at most once a day. */
export const SESSION_RENEWAL_AFTER_MS = 24 * 60 * 60_000;

/**
 * Slides the farmer's session the request's cookie names to 90 days from `now`: its row's expiry
 * moves, and the answer gets the cookie again with a token signed now (same session, new `exp`).
 * Only when the cookie's token is a day old or more, so a session costs one D1 write a day however
 * much it is used. Null when there is nothing to renew: an admin session (they do not slide), a
 * bearer token (API clients keep the token they were given), a cookie renewed within the day, or
 * a session that has ended meanwhile: the update matches only a live row, so a logout racing with
 * the page is never undone.
 */
export async function renewSession(
  env: SessionEnv,
  request: Request,
  user: AuthenticatedUser,
  now = Date.now(),
): Promise<string | null> {
  if (user.audience !== "user") return null;
  const credentials = readCredentials(request, "user");
  if (credentials?.source !== "cookie") return null;
  const claims = await verifySessionToken(env.JWT_SECRET, credentials.token, "user", now);
  if (!claims || claims.sessionId !== user.sessionId || now - claims.issuedAt < SESSION_RENEWAL_AFTER_MS) return null;
  const expiresAt = now + SESSION_TTL_MS.user;
  const renewed = await getDb(env.DB)
    .update(sessions)
    .set({ expiresAt })
    .where(liveSession(claims, now))
    .returning({ id: sessions.id });
  if (renewed.length === 0) return null;
  const token = await signSessionToken(env.JWT_SECRET, claims, expiresAt, now);
  return sessionCookie(request, "user", token, SESSION_TTL_MS.user / 1000);
}

/** For loaders and actions: the signed-in user of an area, read from the request's cookie. */
export async function getSessionUser(
  env: SessionEnv,
  request: Request,
  audience: Audience,
): Promise<AuthenticatedUser | null> {
  const credentials = readCredentials(request, audience);
  if (!credentials) return null;
  return authenticateToken(env, credentials.token, audience);
}

/** Why a session was ended that its holder should be told of; the rest read as "session expired". */
export type SessionEndReason = "passwordChanged";

/**
 * Why the session the request's cookie names has ended, when its row says (kept a day after
 * the end, REVOKED_SESSION_KEPT_MS): a phone signed out by a new password set elsewhere is told
 * so, and to sign in with the new one. Null for any other end, a forged token, or a purged row.
 */
export async function endReasonOf(
  env: SessionEnv,
  request: Request,
  audience: Audience,
  now = Date.now(),
): Promise<SessionEndReason | null> {
  const credentials = readCredentials(request, audience);
  if (!credentials) return null;
  const claims = await verifySessionToken(env.JWT_SECRET, credentials.token, audience, now);
  if (!claims) return null;
  const [row] = await getDb(env.DB)
    .select({ endedBy: sessions.endedBy })
    .from(sessions)
    .where(and(eq(sessions.id, claims.sessionId), eq(sessions.userId, claims.userId), isNotNull(sessions.revokedAt)))
    .limit(1);
  return row?.endedBy ?? null;
}

/** A revoked session's row is kept this long (when, and which, sessions ended), then purged. */
export const REVOKED_SESSION_KEPT_MS = 24 * 60 * 60_000;

/** At most this many sessions and as many watches a run: D1 answers one small statement quickly. */
export const PURGED_PER_RUN = 500;

/**
 * Deletes the rows of sessions that can never be used again: expired, or revoked a day ago.
 * A token naming a deleted row is refused like one naming a revoked row (the lookup finds
 * nothing), so this only keeps the table from growing with every login. Their push
 * subscriptions go with them (the foreign key; nothing was sent to them since they ended).
 * Run by the cron trigger, `PURGED_PER_RUN` of each at a time (the expiry indexes find them);
 * what is left goes on the next minute.
 */
export async function purgeEndedSessions(
  env: Pick<Env, "DB">,
  now = Date.now(),
): Promise<{ sessions: number; watches: number }> {
  const db = getDb(env.DB);
  const ended = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(or(lte(sessions.expiresAt, now), lt(sessions.revokedAt, now - REVOKED_SESSION_KEPT_MS)))
    .limit(PURGED_PER_RUN);
  const [deleted, watches] = await db.batch([
    db.delete(sessions).where(inArray(sessions.id, ended)).returning({ id: sessions.id }),
    // Their sockets closed themselves at expiry (the hub's own timer).
    db
      .delete(realtimeWatches)
      .where(
        sql`rowid IN (SELECT rowid FROM ${realtimeWatches} WHERE ${realtimeWatches.expiresAt} <= ${now} LIMIT ${PURGED_PER_RUN})`,
      )
      .returning({ sessionId: realtimeWatches.sessionId }),
  ]);
  return { sessions: deleted.length, watches: watches.length };
}
