// What a right code does to an account (docs/telephony.md, "Verified numbers"; decision 027):
// verifies the signed-in account's number, signs a verified number in, or sets a new password
// and takes the account back from whoever else had a session. The code is checked by
// one-time-codes.ts (5 tries counted before each comparison, the address's throttle); a wrong
// or dead one is refused with how many tries are left. Shared by the API and the pages.
import { and, eq, exists, isNotNull, isNull, sql } from "drizzle-orm";
import { hashPassword } from "../../common/credentials.ts";
import { weakPasswordReason } from "../../common/password-policy.ts";
import { getDb } from "../db/client.ts";
import { deviceMembers, users } from "../db/schema.ts";
import { findUserByMobileNo } from "../db/users.ts";
import { apiError, type HttpError } from "../http/http-error.ts";
import { type LoginResult, startLogin } from "./accounts.ts";
import { type CodeCheck, type CodeEnv, checkCode } from "./one-time-codes.ts";
import type { SocketEnv } from "./session-sockets.ts";
import type { AuthenticatedUser, SessionEnv } from "./sessions.ts";
import { takeBackAccount } from "./take-back.ts";
import { authClientOf } from "./throttle.ts";

type CodeAccountsEnv = CodeEnv & SessionEnv & SocketEnv;

/**
 * A check that failed, as the caller is answered: 401 where the code is what signs the caller
 * in, 400 where a session did (the session itself is fine).
 */
function codeRefusal(status: 400 | 401, check: Exclude<CodeCheck, { ok: true }>): HttpError {
  return check.reason === "wrongCode"
    ? apiError(status, "wrongCode", { triesLeft: check.triesLeft })
    : apiError(status, "noCode");
}

/**
 * Verifies the signed-in account's own number with the code sent to it. A number already
 * verified has nothing to prove (no code is tried). The number is the one the session read: if
 * an admin changed it meanwhile, the code of the old number verifies nothing.
 */
export async function verifyOwnNumber(
  env: CodeAccountsEnv,
  user: AuthenticatedUser,
  code: string,
  request?: Request,
): Promise<void> {
  if (user.numberVerified) return;
  const client = request ? await authClientOf(env, request) : null;
  const check = await checkCode(env, { purpose: "verifyNumber", mobileNo: user.mobileNo, code, client });
  if (!check.ok) throw codeRefusal(400, check);
  const db = getDb(env.DB);
  await db.batch([
    db
      .update(users)
      .set({ numberVerifiedAt: Date.now(), credentialsVersion: sql`${users.credentialsVersion} + 1` })
      .where(and(eq(users.id, user.id), eq(users.mobileNo, user.mobileNo), isNull(users.numberVerifiedAt))),
    // The password's chooser proved the number: the people they added meanwhile are theirs to keep.
    db
      .update(deviceMembers)
      .set({ addedUnverified: false })
      .where(
        and(
          eq(deviceMembers.invitedByUserId, user.id),
          exists(
            db
              .select({ id: users.id })
              .from(users)
              .where(and(eq(users.id, user.id), eq(users.mobileNo, user.mobileNo), isNotNull(users.numberVerifiedAt))),
          ),
        ),
      ),
  ]);
}

/** Signs a verified number in to the farmers' area with the sign-in code sent to it, as a password login does. */
export async function logInWithCode(
  env: CodeAccountsEnv,
  input: { mobileNo: string; code: string },
  request?: Request,
): Promise<LoginResult> {
  const client = request ? await authClientOf(env, request) : null;
  const check = await checkCode(env, { purpose: "signIn", ...input, client });
  if (!check.ok) throw codeRefusal(401, check);
  const account = await findUserByMobileNo(getDb(env.DB), input.mobileNo);
  // Only a verified number is sent a sign-in code; one that lost its account or its
  // verification since the code went out is answered as a code that no longer works.
  if (!account?.numberVerifiedAt) throw apiError(401, "noCode");
  return startLogin(env, account, "user", { request, client, counted: { clientAttempt: null, knownDevice: null } });
}

/**
 * Sets a new password with the code sent to the number for that: every session of the account
 * ends (both areas, with their sockets and phones' alerts), the number counts as verified, and
 * a new session starts here. So the holder of a number takes back an account someone else
 * registered with it, or whose password someone else knows. The new password is checked first,
 * so a weak one costs no try.
 */
export async function resetPasswordWithCode(
  env: CodeAccountsEnv,
  input: { mobileNo: string; code: string; newPassword: string },
  request?: Request,
): Promise<LoginResult & { endedSessions: number }> {
  const weakness = weakPasswordReason(input.newPassword, input.mobileNo);
  if (weakness) throw apiError(400, weakness);
  const client = request ? await authClientOf(env, request) : null;
  const check = await checkCode(env, { purpose: "resetPassword", mobileNo: input.mobileNo, code: input.code, client });
  if (!check.ok) throw codeRefusal(401, check);
  const db = getDb(env.DB);
  const account = await findUserByMobileNo(db, input.mobileNo);
  if (!account) throw apiError(401, "noCode");
  const endedSessions = await takeBackAccount(env, account.id, await hashPassword(input.newPassword));
  // Read again: the known-device cookie this browser gets names the credentials as they are now.
  const takenBack = (await findUserByMobileNo(db, input.mobileNo)) ?? account;
  const login = await startLogin(env, takenBack, "user", {
    request,
    client,
    counted: { clientAttempt: null, knownDevice: null },
  });
  return { ...login, endedSessions };
}
