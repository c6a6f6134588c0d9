// Login, registration, invitation and test-alert throttling (docs/security.md, "Login
// throttling" and "Web Push"). Failed logins slow down per number and per client address; a
// phone that has logged in with a number before (known-device cookie) is counted apart from that
// number's throttle when it logs in, on a key of its own device, so an attacker hammering a
// farmer's number cannot lock the farmer out, while the phone's own failures (a thief's guesses)
// still meet a limit that holds back no other phone. The cookie names the account and the
// version of its credentials it was earned under: a new password, a take-back or a verification
// makes it count for nothing (whoever earned it may be the one the holder took the number back
// from). Wrong current passwords on the password change count on the number's throttle on every
// browser, that one too.
import { eq } from "drizzle-orm";
import { jwtVerify, SignJWT } from "jose";
import type { ThrottlePolicyName } from "../../common/hub-contract.ts";
import { z } from "../../common/zod.ts";
import { getDb } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { apiError } from "../http/http-error.ts";
import { clientAddressKey } from "./client-address.ts";
import { httpOnlyCookie, readCookie } from "./cookies.ts";

export const KNOWN_DEVICE_COOKIE = "sinchai_known_device";
const KNOWN_DEVICE_AUDIENCE = "known-device";
const KNOWN_DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;
const KNOWN_NUMBERS_KEPT = 5;

export type ThrottleEnv = Pick<Env, "AUTH_THROTTLE" | "JWT_SECRET" | "DB">;

/** An account this browser signed in to, as its cookie says: under which version of its credentials. */
type KnownAccount = { mobileNo: string; accountId: number; version: number };

/**
 * Who is asking: the key of the client address Cloudflare saw, and what this browser's
 * known-device cookie says (its own random id, the accounts it signed in to); null without one.
 * What the cookie says is checked against D1 where it counts (`isKnownAccount`).
 */
export type AuthClient = { ip: string | null; knownDevice: { id: string; accounts: KnownAccount[] } | null };

/** What the cookie says of each account: its number, id and credentials version, short-named. */
const knownDevicePayloadSchema = z.object({
  device: z.string(),
  known: z.array(z.object({ n: z.string(), a: z.int(), v: z.int() })),
});

function throttle(env: ThrottleEnv, policy: ThrottlePolicyName, key: string) {
  return env.AUTH_THROTTLE.get(env.AUTH_THROTTLE.idFromName(`${policy}:${key}`));
}

function key(secret: string | undefined): Uint8Array {
  return new TextEncoder().encode(secret ?? "");
}

export async function authClientOf(env: ThrottleEnv, request: Request): Promise<AuthClient> {
  // Set by Cloudflare's edge, which never reports loopback. Local mode (wrangler dev) reports
  // 127.0.0.1 for every client: one address for everybody tells nothing, so only the
  // per-number throttle applies there, as in tests where the header is absent. IPv6 clients
  // are keyed by their /64 (client-address.ts).
  const reported = request.headers.get("CF-Connecting-IP");
  const ip = reported ? clientAddressKey(reported) : null;
  let knownDevice: AuthClient["knownDevice"] = null;
  const cookie = readCookie(request, KNOWN_DEVICE_COOKIE);
  if (cookie) {
    try {
      const { payload } = await jwtVerify(cookie, key(env.JWT_SECRET), {
        algorithms: ["HS256"],
        audience: KNOWN_DEVICE_AUDIENCE,
      });
      // A cookie of the earlier shape (numbers alone) has no device id: it proves nothing now.
      const read = knownDevicePayloadSchema.safeParse(payload);
      if (read.success) {
        const accounts = read.data.known.map((entry) => ({ mobileNo: entry.n, accountId: entry.a, version: entry.v }));
        knownDevice = { id: read.data.device, accounts };
      }
    } catch {
      // a stale or forged cookie proves nothing
    }
  }
  return { ip, knownDevice };
}

/**
 * Whether this browser signed in to `mobileNo`'s account as it is now: the same account (not one
 * made again for the number) under the same credentials. `verifiedOnly`: and its number is
 * proven, for the code checks, where an unproven account's holder gets no exemption.
 */
export async function isKnownAccount(
  env: Pick<Env, "DB">,
  client: AuthClient | null,
  mobileNo: string,
  options: { verifiedOnly: boolean } = { verifiedOnly: false },
): Promise<boolean> {
  const entry = client?.knownDevice?.accounts.find((account) => account.mobileNo === mobileNo);
  if (!entry) return false;
  const account = await getDb(env.DB).query.users.findFirst({
    columns: { id: true, credentialsVersion: true, numberVerifiedAt: true },
    where: eq(users.mobileNo, mobileNo),
  });
  if (!account || account.id !== entry.accountId || account.credentialsVersion !== entry.version) return false;
  return !options.verifiedOnly || account.numberVerifiedAt !== null;
}

/** 429 with the wait twice: the Retry-After header, and `retryAfterSeconds` for a page to say when. */
function refuse(retryAfterMs: number): never {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  throw apiError(429, "throttled", { retryAfterSeconds }, { "Retry-After": String(retryAfterSeconds) });
}

/**
 * A login attempt already counted against its client address, to be taken back if it
 * succeeds; `knownDevice`: it was counted on this device's key for the number, to clear too.
 */
export type CountedLogin = { clientAttempt: { key: string; attemptId: number } | null; knownDevice: string | null };

/** The known-device throttle's key: the number and the device, so one phone's failures hold back no other. */
const knownDeviceKey = (mobileNo: string, deviceId: string) => `${mobileNo}:${deviceId}`;

/**
 * Why a password is being checked. A `login` from a browser that logged in with the number
 * before skips the number's count, so strangers hammering the number cannot lock the farmer
 * out. A `currentPassword` check inside a session (the password change) never does: a browser
 * that holds the session and the cookie is exactly the stolen phone.
 */
type PasswordCheck = "login" | "currentPassword";

/**
 * Counts a password check before the password is hashed, or throws 429. Counting first (one
 * call to each throttle, check and count together) means parallel guesses cannot all pass a
 * check that none of them has been recorded in yet.
 */
export async function countLoginAttempt(
  env: ThrottleEnv,
  mobileNo: string,
  client: AuthClient | null,
  check: PasswordCheck = "login",
): Promise<CountedLogin> {
  let clientAttempt: CountedLogin["clientAttempt"] = null;
  if (client?.ip) {
    const ticket = await throttle(env, "loginClient", client.ip).take("loginClient");
    if (!ticket.allowed) refuse(ticket.retryAfterMs);
    clientAttempt = { key: client.ip, attemptId: ticket.attemptId };
  }
  // A known phone's logins count on a key of its own: strangers' failures never reach it (they
  // cannot lock the farmer out), and a stolen phone still meets a limit, its own alone.
  const knownDevice =
    check === "login" && client?.knownDevice && (await isKnownAccount(env, client, mobileNo))
      ? knownDeviceKey(mobileNo, client.knownDevice.id)
      : null;
  const policy = knownDevice ? "loginKnownDevice" : "loginNumber";
  const ticket = await throttle(env, policy, knownDevice ?? mobileNo).take(policy);
  if (!ticket.allowed) {
    // Refused before any work: it costs the address nothing, as a throttled attempt never has.
    if (clientAttempt) await throttle(env, "loginClient", clientAttempt.key).forgive(clientAttempt.attemptId);
    refuse(ticket.retryAfterMs);
  }
  return { clientAttempt, knownDevice };
}

/** Only failures should count: a right password clears the number and takes back the address's count. */
export async function loginSucceeded(env: ThrottleEnv, mobileNo: string, counted: CountedLogin): Promise<void> {
  const { clientAttempt } = counted;
  await Promise.all([
    throttle(env, "loginNumber", mobileNo).clear(),
    counted.knownDevice ? throttle(env, "loginKnownDevice", counted.knownDevice).clear() : undefined,
    clientAttempt ? throttle(env, "loginClient", clientAttempt.key).forgive(clientAttempt.attemptId) : undefined,
  ]);
}

/** Counts one attempt under `policy` for `key` (a number, a client address's key), or throws 429. */
export async function takeAttempt(env: ThrottleEnv, policy: ThrottlePolicyName, key: string): Promise<void> {
  const ticket = await throttle(env, policy, key).take(policy);
  if (!ticket.allowed) refuse(ticket.retryAfterMs);
}

/**
 * Counts one attempt under `policy` for `key` when the policy allows it; false (nothing counted)
 * when it does not. For webhooks, which refuse by doing nothing rather than with a 429.
 */
export async function tryAttempt(env: ThrottleEnv, policy: ThrottlePolicyName, key: string): Promise<boolean> {
  return (await throttle(env, policy, key).take(policy)).allowed;
}

/** Whether `policy` would allow one more attempt for `key` now, counting nothing (a right SMS PIN). */
export async function withinLimit(env: ThrottleEnv, policy: ThrottlePolicyName, key: string): Promise<boolean> {
  return (await throttle(env, policy, key).check(policy)).allowed;
}

/** Counts one attempt that is never refused (a stop by phone: stopping is never blocked). */
export async function countAttempt(env: ThrottleEnv, policy: ThrottlePolicyName, key: string): Promise<void> {
  await throttle(env, policy, key).record(policy);
}

/** Forgets every attempt counted under `policy` for `key` (the holder proved themselves). */
export async function clearAttempts(env: ThrottleEnv, policy: ThrottlePolicyName, key: string): Promise<void> {
  await throttle(env, policy, key).clear();
}

/** Registrations per client address: every attempt counts (account spam), counted as it is checked. */
export async function guardRegistration(env: ThrottleEnv, client: AuthClient | null): Promise<void> {
  if (!client?.ip) return;
  const ticket = await throttle(env, "registerClient", client.ip).take("registerClient");
  if (!ticket.allowed) refuse(ticket.retryAfterMs);
}

/**
 * Invitations per owner (`inviteOwner`: 10 an hour, then one every 6 minutes, doubling): each
 * one asks a person for a decision, so an owner cannot flood numbers with them. Every attempt
 * counts, refused ones too, counted as it is checked.
 */
export async function guardInvitation(env: ThrottleEnv, ownerUserId: number): Promise<void> {
  const ticket = await throttle(env, "inviteOwner", String(ownerUserId)).take("inviteOwner");
  if (!ticket.allowed) refuse(ticket.retryAfterMs);
}

/**
 * Calls of POST /api/hub-notices per client address (`noticeClient`), which anyone may make:
 * each costs a D1 read. Local mode has no address (see authClientOf) and is not counted.
 */
export async function guardNoticeDelivery(env: ThrottleEnv, client: AuthClient): Promise<void> {
  if (!client.ip) return;
  const ticket = await throttle(env, "noticeClient", client.ip).take("noticeClient");
  if (!ticket.allowed) refuse(ticket.retryAfterMs);
}

/**
 * A test alert from a session of an account, counted before it is sent (decision 012): three in
 * ten minutes per session, five per account, then each waits longer. A refusal by the account's
 * count takes back the session's.
 */
export async function guardPushTest(env: ThrottleEnv, user: { id: number; sessionId: string }): Promise<void> {
  const session = await throttle(env, "pushTestSession", user.sessionId).take("pushTestSession");
  if (!session.allowed) refuse(session.retryAfterMs);
  const account = await throttle(env, "pushTestAccount", String(user.id)).take("pushTestAccount");
  if (!account.allowed) {
    await throttle(env, "pushTestSession", user.sessionId).forgive(session.attemptId);
    refuse(account.retryAfterMs);
  }
}

/**
 * The known-device cookie after a successful login to `account` (kept for a year): this device's
 * id (made now if it has none) and the accounts it signed in to, this one first, each with the
 * version of its credentials now.
 */
export async function knownDeviceCookie(
  env: ThrottleEnv,
  request: Request,
  client: AuthClient,
  account: { id: number; mobileNo: string; credentialsVersion: number },
): Promise<string> {
  const others = (client.knownDevice?.accounts ?? []).filter((known) => known.mobileNo !== account.mobileNo);
  const known = [{ mobileNo: account.mobileNo, accountId: account.id, version: account.credentialsVersion }, ...others]
    .slice(0, KNOWN_NUMBERS_KEPT)
    .map((entry) => ({ n: entry.mobileNo, a: entry.accountId, v: entry.version }));
  const device = client.knownDevice?.id ?? crypto.randomUUID();
  const token = await new SignJWT({ device, known })
    .setProtectedHeader({ alg: "HS256" })
    .setAudience(KNOWN_DEVICE_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${KNOWN_DEVICE_TTL_SECONDS}s`)
    .sign(key(env.JWT_SECRET));
  return httpOnlyCookie(request, KNOWN_DEVICE_COOKIE, token, {
    sameSite: "Lax",
    maxAgeSeconds: KNOWN_DEVICE_TTL_SECONDS,
  });
}
