// Sessions: a row in D1 per login, referenced by the token's `sid`. Every authenticated call
// checks that row, so logout, role change and account deletion take effect at once.
import { and, eq, gt, isNull, lt, lte, or } from "drizzle-orm";
import type { PublicUser } from "../../common/api-responses/accounts.ts";
import { getDb } from "../db/client.ts";
import { deleteSubscriptionsOfSession } from "../db/push-subscriptions.ts";
import { realtimeWatches, sessions, users } from "../db/schema.ts";
import { readCookie, SESSION_COOKIE } from "./cookies.ts";
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
  const token = await signSessionToken(env.JWT_SECRET, { userId, sessionId, audience }, expiresAt);
  return { token, expiresAt };
}

/** The user behind `token` for `audience`, or null when the token or its session is not valid. */
export async function authenticateToken(
  env: SessionEnv,
  token: string,
  audience: Audience,
  now = Date.now(),
): Promise<AuthenticatedUser | null> {
  const claims = await verifySessionToken(env.JWT_SECRET, token, audience);
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

/** A revoked session's row is kept this long (when, and which, sessions ended), then purged. */
export const REVOKED_SESSION_KEPT_MS = 24 * 60 * 60_000;

/**
 * Deletes the rows of sessions that can never be used again: expired, or revoked a day ago.
 * A token naming a deleted row is refused like one naming a revoked row (the lookup finds
 * nothing), so this only keeps the table from growing with every login. Their push
 * subscriptions go with them (the foreign key; nothing was sent to them since they ended).
 * Run by the cron trigger.
 */
export async function purgeEndedSessions(
  env: Pick<Env, "DB">,
  now = Date.now(),
): Promise<{ sessions: number; watches: number }> {
  const db = getDb(env.DB);
  const [ended, watches] = await db.batch([
    db
      .delete(sessions)
      .where(or(lte(sessions.expiresAt, now), lt(sessions.revokedAt, now - REVOKED_SESSION_KEPT_MS)))
      .returning({ id: sessions.id }),
    // Their sockets closed themselves at expiry (the hub's own timer).
    db
      .delete(realtimeWatches)
      .where(lte(realtimeWatches.expiresAt, now))
      .returning({ sessionId: realtimeWatches.sessionId }),
  ]);
  return { sessions: ended.length, watches: watches.length };
}
