// Registration and login, shared by the JSON API and the web forms' route actions.
import { DECOY_PASSWORD_HASH, hashPassword, verifyPassword } from "../../common/credentials.ts";
import type { PublicUser } from "../../common/api-schemas.ts";
import { getDb } from "../db/client.ts";
import { findUserByMobileNo, insertUser, recordLogin, toPublicUser } from "../db/users.ts";
import { HttpError } from "../http-error.ts";
import { startSession, type SessionEnv } from "./sessions.ts";
import type { Audience } from "./tokens.ts";

export const REGISTRATION_SUCCESS_MESSAGE = "Registration successful! Please login to continue.";
export const DUPLICATE_REGISTRATION_MESSAGE = "This mobile number is already registered. Please log in.";
/** The same words whether the number is unknown or the password wrong: no account probing. */
export const LOGIN_FAILED_MESSAGE = "Invalid mobile number or password.";

export async function registerAccount(
  env: SessionEnv,
  input: { mobileNo: string; password: string },
): Promise<void> {
  const db = getDb(env.DB);
  if (await findUserByMobileNo(db, input.mobileNo)) {
    throw new HttpError(409, DUPLICATE_REGISTRATION_MESSAGE);
  }
  const passwordHash = await hashPassword(input.password);
  // The unique index settles a race between two registrations of the same number.
  const user = await insertUser(db, { mobileNo: input.mobileNo, passwordHash, now: Date.now() });
  if (!user) throw new HttpError(409, DUPLICATE_REGISTRATION_MESSAGE);
}

export type LoginResult = { token: string; expiresAt: number; user: PublicUser };

export async function logIn(
  env: SessionEnv,
  input: { mobileNo: string; password: string },
  audience: Audience,
): Promise<LoginResult> {
  const db = getDb(env.DB);
  const user = await findUserByMobileNo(db, input.mobileNo);
  // Hash even for an unknown number so both failures take the same time.
  const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? DECOY_PASSWORD_HASH);
  if (!user || !passwordOk || (audience === "admin" && !user.isAdmin)) {
    throw new HttpError(401, LOGIN_FAILED_MESSAGE);
  }
  const now = Date.now();
  const { token, expiresAt } = await startSession(env, user.id, audience, now);
  await recordLogin(db, user.id, now);
  return { token, expiresAt, user: toPublicUser(user) };
}
