// Signing in, registering, passwords and one-time codes, as the pages' forms ask for them: the
// same functions as the API's /api/auth routes (worker/auth/), each answering a refusal as a
// value (./refusal.ts) and a session as the cookies that keep it, the session's first.
import type { CodePurposeName } from "../../common/api-schemas.ts";
import { changePassword, type LoginResult, logIn, registerAccount } from "../auth/accounts.ts";
import { logInWithCode, resetPasswordWithCode, verifyOwnNumber } from "../auth/code-accounts.ts";
import { sendAccountCode } from "../auth/code-delivery.ts";
import { sessionCookie } from "../auth/cookies.ts";
import { type AuthenticatedUser, startSession } from "../auth/sessions.ts";
import { authClientOf } from "../auth/throttle.ts";
import type { Audience } from "../auth/tokens.ts";
import { languageOf } from "../http/request-language.ts";
import { type Refusal, settleOrInternal } from "./refusal.ts";

type Credentials = { mobileNo: string; password: string };
type WaitUntil = (promise: Promise<unknown>) => void;

/** A session started: the Set-Cookie values the answer carries, the session's own first. */
export type SignedIn = { ok: true; cookies: string[] };

function signedIn(
  request: Request,
  audience: Audience,
  login: Pick<LoginResult, "token" | "expiresAt">,
  more: string[],
): SignedIn {
  const maxAge = Math.floor((login.expiresAt - Date.now()) / 1000);
  return { ok: true, cookies: [sessionCookie(request, audience, login.token, maxAge), ...more] };
}

/** A login of the layers below (worker/auth), signed in to `audience` with the cookies it brings, or its refusal. */
async function signInAfter(
  request: Request,
  audience: Audience,
  login: () => Promise<LoginResult>,
): Promise<SignedIn | Refusal> {
  const done = await settleOrInternal(login);
  return done.ok ? signedIn(request, audience, done.value, done.value.cookies) : done;
}

/** A login with number and password to an area (throttled; an admin's is on the audit trail). */
export async function signInWithPassword(
  env: Env,
  request: Request,
  credentials: Credentials,
  audience: Audience,
): Promise<SignedIn | Refusal> {
  return signInAfter(request, audience, () => logIn(env, credentials, audience, request));
}

/**
 * A new farmer's account, signed in at once (a farmer who just chose a password is not asked
 * for it again); the code that verifies the number is sent in the reader's language.
 */
export async function registerAndSignIn(
  env: Env,
  request: Request,
  credentials: Credentials,
  waitUntil: WaitUntil,
): Promise<SignedIn | Refusal> {
  const account = await settleOrInternal(() =>
    registerAccount(env, credentials, { waitUntil, language: languageOf(request) }, request),
  );
  if (!account.ok) return account;
  return signedIn(request, "user", await startSession(env, account.value.id, "user"), []);
}

/** A verified number signs in with the code sent to it. */
export async function signInWithCode(
  env: Env,
  request: Request,
  input: { mobileNo: string; code: string },
): Promise<SignedIn | Refusal> {
  return signInAfter(request, "user", () => logInWithCode(env, input, request));
}

/** A new password set with the code sent to the number: every other session ends, this one starts. */
export async function resetPasswordAndSignIn(
  env: Env,
  request: Request,
  input: { mobileNo: string; code: string; newPassword: string },
): Promise<SignedIn | Refusal> {
  return signInAfter(request, "user", () => resetPasswordWithCode(env, input, request));
}

/** The signed-in farmer's new password: every other session of the account ends. */
export async function changeOwnPassword(
  env: Env,
  request: Request,
  user: AuthenticatedUser,
  input: { currentPassword: string; newPassword: string },
): Promise<{ ok: true } | Refusal> {
  const changed = await settleOrInternal(() => changePassword(env, user, input, request));
  return changed.ok ? { ok: true } : changed;
}

/**
 * A one-time code for `purpose` sent to `mobileNo` by SMS, in the reader's language; answered at
 * once and alike for every number (throttled per number and per client address).
 */
export async function sendCode(
  env: Env,
  request: Request,
  input: { purpose: CodePurposeName; mobileNo: string; waitUntil: WaitUntil },
): Promise<{ ok: true } | Refusal> {
  const sent = await settleOrInternal(async () =>
    sendAccountCode(env, {
      purpose: input.purpose,
      mobileNo: input.mobileNo,
      client: await authClientOf(env, request),
      waitUntil: input.waitUntil,
      language: languageOf(request),
    }),
  );
  return sent.ok ? { ok: true } : sent;
}

/** The signed-in farmer proves their number with the code sent to it. */
export async function verifyNumberWithCode(
  env: Env,
  request: Request,
  user: AuthenticatedUser,
  code: string,
): Promise<{ ok: true } | Refusal> {
  const verified = await settleOrInternal(() => verifyOwnNumber(env, user, code, request));
  return verified.ok ? { ok: true } : verified;
}
