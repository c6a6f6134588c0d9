// Registration and login, shared by the JSON API and the web forms' route actions.

import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { PublicUser } from "../../common/api-responses/accounts.ts";
import { DECOY_PASSWORD_HASH, hashPassword, verifyPassword } from "../../common/credentials.ts";
import { weakPasswordReason } from "../../common/password-policy.ts";
import { getDb } from "../db/client.ts";
import { deleteSubscriptionsOfOtherSessions } from "../db/push-subscriptions.ts";
import { sessions, type UserRow, users } from "../db/schema.ts";
import { findUserByMobileNo, insertUser, recordLogin, toPublicUser } from "../db/users.ts";
import { apiError, HttpError } from "../http/http-error.ts";
import { ADMIN_LOGIN_ACTION, recordAdminAudit } from "../services/record-admin-action.ts";
import { type CodeDeliveryEnv, type CodeSending, sendAccountCode } from "./code-delivery.ts";
import { closeSessionSockets, type SocketEnv } from "./session-sockets.ts";
import { type AuthenticatedUser, type SessionEnv, startSession } from "./sessions.ts";
import {
  type AuthClient,
  authClientOf,
  type CountedLogin,
  countLoginAttempt,
  guardRegistration,
  knownDeviceCookie,
  loginSucceeded,
  type ThrottleEnv,
} from "./throttle.ts";
import type { Audience } from "./tokens.ts";

type AccountsEnv = SessionEnv & ThrottleEnv;

/**
 * Creates the account, its number not verified yet, and sends a code to verify it (by
 * `sending`, after the answer); `request` (when given) identifies the client for throttling.
 */
export async function registerAccount(
  env: AccountsEnv & CodeDeliveryEnv,
  input: { mobileNo: string; password: string },
  sending: CodeSending,
  request?: Request,
): Promise<PublicUser> {
  const client = request ? await authClientOf(env, request) : null;
  await guardRegistration(env, client);
  const weakness = weakPasswordReason(input.password, input.mobileNo);
  if (weakness) throw apiError(400, weakness);
  const db = getDb(env.DB);
  if (await findUserByMobileNo(db, input.mobileNo)) {
    throw apiError(409, "duplicateRegistration");
  }
  const passwordHash = await hashPassword(input.password);
  // The unique index settles a race between two registrations of the same number.
  const user = await insertUser(db, { mobileNo: input.mobileNo, passwordHash, now: Date.now() });
  if (!user) throw apiError(409, "duplicateRegistration");
  try {
    await sendAccountCode(env, { purpose: "verifyNumber", mobileNo: user.mobileNo, client, ...sending });
  } catch (error) {
    // The account exists either way: a number or address that asked too often asks again later
    // (the verify page, the dashboard's notice). Anything else is not a refusal of ours.
    if (!(error instanceof HttpError && error.status === 429)) throw error;
  }
  return toPublicUser(user);
}

/**
 * Admin logins on the audit trail, from the API and the login page alike (they share logIn),
 * with the number tried and never the password. Throttled attempts (429) are not recorded:
 * they cost an attacker nothing, and each would be a row (malformed bodies never reach logIn).
 */
function auditAdminLogin(
  env: AccountsEnv,
  request: Request | undefined,
  mobileNo: string,
  admin: { id: number; mobileNo: string } | null,
  status: 200 | 401,
  reason: string | null,
): Promise<void> {
  return recordAdminAudit(env, request ?? null, {
    admin,
    action: ADMIN_LOGIN_ACTION,
    target: mobileNo,
    status,
    details: reason ? { error: reason } : {},
  });
}

export type LoginResult = {
  token: string;
  expiresAt: number;
  user: PublicUser;
  /** Set-Cookie values the response should carry (the known-device cookie), when `request` was given. */
  cookies: string[];
};

/**
 * Checks the credentials for an area and starts a session. Throttled per number and per
 * client (429 with Retry-After); `request` identifies the client and its known-device cookie.
 */
export async function logIn(
  env: AccountsEnv,
  input: { mobileNo: string; password: string },
  audience: Audience,
  request?: Request,
): Promise<LoginResult> {
  const client = request ? await authClientOf(env, request) : null;
  // Counted before the hash, not after a failure: see countLoginAttempt.
  const counted = await countLoginAttempt(env, input.mobileNo, client);
  const db = getDb(env.DB);
  const user = await findUserByMobileNo(db, input.mobileNo);
  // Hash even for an unknown number so both failures take the same time.
  const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? DECOY_PASSWORD_HASH);
  if (!user || !passwordOk || (audience === "admin" && !user.isAdmin)) {
    if (audience === "admin") {
      // The caller hears one answer for all three; the trail, read by admins only, says which.
      const reason = !user ? "unknownNumber" : !passwordOk ? "wrongPassword" : "notAdmin";
      await auditAdminLogin(env, request, input.mobileNo, null, 401, reason);
    }
    // The same answer whether the number is unknown or the password wrong: no account probing.
    throw apiError(401, "loginFailed");
  }
  const result = await startLogin(env, user, audience, { request, client, counted });
  if (audience === "admin") await auditAdminLogin(env, request, user.mobileNo, user, 200, null);
  return result;
}

/**
 * Starts the session of an account that proved itself (a password, a code): the last login is
 * recorded, the number's failed logins are cleared (and the address's count of this one taken
 * back), and a browser gets the known-device cookie.
 */
export async function startLogin(
  env: AccountsEnv,
  user: UserRow,
  audience: Audience,
  from: { request: Request | undefined; client: AuthClient | null; counted: CountedLogin },
): Promise<LoginResult> {
  const now = Date.now();
  const { token, expiresAt } = await startSession(env, user.id, audience, now);
  await Promise.all([recordLogin(getDb(env.DB), user.id, now), loginSucceeded(env, user.mobileNo, from.counted)]);
  const cookies = from.request && from.client ? [await knownDeviceCookie(env, from.request, from.client, user)] : [];
  return { token, expiresAt, user: toPublicUser(user), cookies };
}

/**
 * Changes the signed-in account's password and ends every other session of the account (both
 * areas), closing the realtime sockets they opened: whoever knew the old password, or holds a
 * session on a lost phone, is out. The session making the change stays. A wrong current
 * password counts as a failed login of that number (a stolen session cannot guess it freely),
 * and answers 400, not 401: the session itself is fine.
 */
export async function changePassword(
  env: AccountsEnv & SocketEnv,
  user: AuthenticatedUser,
  input: { currentPassword: string; newPassword: string },
  request?: Request,
): Promise<{ endedSessions: number }> {
  const client = request ? await authClientOf(env, request) : null;
  const counted = await countLoginAttempt(env, user.mobileNo, client, "currentPassword");
  const db = getDb(env.DB);
  const account = await findUserByMobileNo(db, user.mobileNo);
  if (!account || !(await verifyPassword(input.currentPassword, account.passwordHash))) {
    throw apiError(400, "wrongCurrentPassword");
  }
  await loginSucceeded(env, user.mobileNo, counted);
  const weakness = weakPasswordReason(input.newPassword, user.mobileNo);
  if (weakness) throw apiError(400, weakness);
  if (input.newPassword === input.currentPassword) throw apiError(400, "samePassword");
  const endedSessions = await replacePassword(env, account.id, await hashPassword(input.newPassword), user.sessionId);
  return { endedSessions };
}

/**
 * Sets a new password and ends every session of the account but `keptSessionId`, in both areas:
 * the new hash, the end of the sessions and of their phones' alerts are one D1 batch, then the
 * realtime sockets those sessions opened close. How many sessions it ended. (A new password by a
 * code takes the whole account back: take-back.ts.)
 */
async function replacePassword(
  env: AccountsEnv & SocketEnv,
  accountId: number,
  passwordHash: string,
  keptSessionId: string,
): Promise<number> {
  const db = getDb(env.DB);
  const now = Date.now();
  const [, ended] = await db.batch([
    db
      .update(users)
      .set({ passwordHash, credentialsVersion: sql`${users.credentialsVersion} + 1` })
      .where(eq(users.id, accountId)),
    db
      .update(sessions)
      .set({ revokedAt: now, endedBy: "passwordChanged" })
      .where(and(eq(sessions.userId, accountId), ne(sessions.id, keptSessionId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id }),
    deleteSubscriptionsOfOtherSessions(db, accountId, keptSessionId),
  ]);
  await closeSessionSockets(env, { sessionIds: ended.map((row) => row.id) }, "signedOut");
  return ended.length;
}
