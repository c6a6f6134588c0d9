// One-time codes that prove a farmer holds a mobile number (docs/telephony.md, "Verified numbers";
// decision 024). Six digits from WebCrypto's CSPRNG, live 5 minutes, 5 tries, bound to one number
// and one purpose, used once. Asking is throttled per number and per client address, checking per
// client address and per number (worker/auth/throttle.ts); the 5 tries bound the guesses at any
// one code, the number's check throttle the guesses at all its codes, from anywhere.
//
// Nothing here tells whether a number has an account. `requestCode` stores a code and answers
// the same way for every number; only afterwards, in the background (`waitUntil`), does it ask
// the caller's `mayReceive` whether this number should get it and, if so, `deliver`s it. So the
// answer, its time and the rows left in D1 are alike for a registered and an unregistered number,
// and a route cannot leak the difference by mistake: it never learns it.
//
// Stored as HMAC-SHA-256 under a key derived (HKDF) from JWT_SECRET, never the code: a million
// codes are too few for a salted hash to hide (anyone who reads a row could try them all in
// milliseconds), while the keyed hash is useless without the Worker's secret. The number and
// purpose are inside the MAC, so a code for one never matches another.
import { getDb } from "../db/client.ts";
import { type CodePurpose, countTry, markUsed, saveCode } from "../db/one-time-codes.ts";
import { fromHex, secretMacKey, toHex } from "./secret-mac.ts";
import { type AuthClient, clearAttempts, isKnownAccount, type ThrottleEnv, takeAttempt } from "./throttle.ts";

export type { CodePurpose };
export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 5 * 60 * 1000;
export const CODE_MAX_TRIES = 5;

export type CodeEnv = ThrottleEnv & Pick<Env, "DB">;

/** The answer to every request for a code, whoever the number belongs to. */
export type CodeRequestAnswer = { expiresInSeconds: number; codeLength: number };

export type CodeCheck =
  | { ok: true }
  /** Wrong, with this many tries left on this code (0: ask for a new one). */
  | { ok: false; reason: "wrongCode"; triesLeft: number }
  /** No live code: never sent, expired, used, or replaced by a newer one. */
  | { ok: false; reason: "noCode" };

const encoder = new TextEncoder();
/** The MAC key of the codes: JWT_SECRET's entropy, under a name of its own. */
const codeKey = (secret: string | undefined) => secretMacKey(secret, "sinchai one-time codes v1");

function macInput(purpose: CodePurpose, mobileNo: string, code: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(encoder.encode(`${purpose}\n${mobileNo}\n${code}`));
}

/** Six uniformly random digits (rejection sampling: no digit string is likelier than another). */
export function newCode(): string {
  const limit = Math.floor(0x1_0000_0000 / 10 ** CODE_LENGTH) * 10 ** CODE_LENGTH;
  const word = new Uint32Array(1);
  do crypto.getRandomValues(word);
  while (word[0]! >= limit);
  return String(word[0]! % 10 ** CODE_LENGTH).padStart(CODE_LENGTH, "0");
}

export async function hashCode(secret: string, purpose: CodePurpose, mobileNo: string, code: string): Promise<string> {
  return toHex(await crypto.subtle.sign("HMAC", await codeKey(secret), macInput(purpose, mobileNo, code)));
}

/**
 * Makes a new code for `mobileNo` and answers at once, the same for every number. Throws 429
 * (with Retry-After) when the number or the client address has asked too often. The code goes
 * out after the answer, only if `mayReceive()` says this number should get one for this purpose
 * (registering: no account yet; signing in: an account), through `deliver` (an SMS). A failed
 * delivery is logged; the farmer asks again.
 */
export async function requestCode(
  env: CodeEnv,
  request: {
    purpose: CodePurpose;
    mobileNo: string;
    client: AuthClient | null;
    mayReceive: () => Promise<boolean>;
    deliver: (code: string) => Promise<void>;
    waitUntil: (promise: Promise<unknown>) => void;
  },
  now = Date.now(),
): Promise<CodeRequestAnswer> {
  if (request.client?.ip) await takeAttempt(env, "codeClient", request.client.ip);
  await takeAttempt(env, "codeNumber", request.mobileNo);
  const code = newCode();
  await saveCode(getDb(env.DB), {
    purpose: request.purpose,
    mobileNo: request.mobileNo,
    codeHash: await hashCode(env.JWT_SECRET, request.purpose, request.mobileNo, code),
    createdAt: now,
    expiresAt: now + CODE_TTL_MS,
  });
  request.waitUntil(
    (async () => {
      // Not a step before the answer is on its way: even the question starts after it.
      await new Promise((resolve) => setTimeout(resolve, 0));
      try {
        if (await request.mayReceive()) await request.deliver(code);
      } catch (error) {
        // The code itself is never logged.
        console.error(`A ${request.purpose} code could not be delivered`, error);
      }
    })(),
  );
  return { expiresInSeconds: CODE_TTL_MS / 1000, codeLength: CODE_LENGTH };
}

/**
 * Checks `code` for this number and purpose, using it up when it is right. Every check counts a
 * try before the comparison (parallel guesses cannot share one), and the client address's and
 * the number's throttles before that (429). A phone that signed in with the number before
 * (the known-device cookie) is not held back by the number's count, so whoever guesses at a
 * farmer's codes cannot delay the farmer's own phone; a right code clears that count. Of two
 * right checks at once, one is `ok`.
 */
export async function checkCode(
  env: CodeEnv,
  check: { purpose: CodePurpose; mobileNo: string; code: string; client: AuthClient | null },
  now = Date.now(),
): Promise<CodeCheck> {
  if (check.client?.ip) await takeAttempt(env, "codeCheckClient", check.client.ip);
  if (!(await isKnownAccount(env, check.client, check.mobileNo, { verifiedOnly: true }))) {
    await takeAttempt(env, "codeCheckNumber", check.mobileNo);
  }
  const db = getDb(env.DB);
  const live = await countTry(db, check.purpose, check.mobileNo, CODE_MAX_TRIES, now);
  if (!live) return { ok: false, reason: "noCode" };
  const right =
    /^[0-9]{6}$/.test(check.code) &&
    (await crypto.subtle.verify(
      "HMAC",
      await codeKey(env.JWT_SECRET),
      fromHex(live.codeHash),
      macInput(check.purpose, check.mobileNo, check.code),
    ));
  if (!right) return { ok: false, reason: "wrongCode", triesLeft: CODE_MAX_TRIES - live.tries };
  if (!(await markUsed(db, check.purpose, check.mobileNo, live.codeHash, now))) return { ok: false, reason: "noCode" };
  await clearAttempts(env, "codeCheckNumber", check.mobileNo);
  return { ok: true };
}
