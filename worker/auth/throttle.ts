// Login and registration throttling (docs/security.md, "Login throttling"). Failed logins
// slow down per number and per client address; a phone that has logged in with a number
// before (known-device cookie) is exempt from that number's throttle, so an attacker
// hammering a farmer's number cannot lock the farmer out.
import { SignJWT, jwtVerify } from "jose";
import type { ThrottlePolicyName } from "../../durable-objects/auth-throttle.ts";
import { apiError } from "../http-error.ts";
import { readCookie } from "./cookies.ts";

export const KNOWN_DEVICE_COOKIE = "sinchai_known_device";
const KNOWN_DEVICE_AUDIENCE = "known-device";
const KNOWN_DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;
const KNOWN_NUMBERS_KEPT = 5;

export type ThrottleEnv = Pick<Env, "AUTH_THROTTLE" | "JWT_SECRET">;

/** Who is asking: the client address Cloudflare saw, and the numbers this browser logged in with. */
export type AuthClient = { ip: string | null; knownNumbers: string[] };

function throttle(env: ThrottleEnv, policy: ThrottlePolicyName, key: string) {
  return env.AUTH_THROTTLE.get(env.AUTH_THROTTLE.idFromName(`${policy}:${key}`));
}

function key(secret: string | undefined): Uint8Array {
  return new TextEncoder().encode(secret ?? "");
}

export async function authClientOf(env: ThrottleEnv, request: Request): Promise<AuthClient> {
  // Set by Cloudflare's edge, which never reports loopback. Local mode (wrangler dev) reports
  // 127.0.0.1 for every client: one address for everybody tells nothing, so only the
  // per-number throttle applies there, as in tests where the header is absent.
  const reported = request.headers.get("CF-Connecting-IP");
  const ip = reported && !isLoopback(reported) ? reported : null;
  let knownNumbers: string[] = [];
  const cookie = readCookie(request, KNOWN_DEVICE_COOKIE);
  if (cookie) {
    try {
      const { payload } = await jwtVerify(cookie, key(env.JWT_SECRET), {
        algorithms: ["HS256"],
        audience: KNOWN_DEVICE_AUDIENCE,
      });
      if (Array.isArray(payload.numbers)) knownNumbers = payload.numbers.filter((n): n is string => typeof n === "string");
    } catch {
      // a stale or forged cookie proves nothing
    }
  }
  return { ip, knownNumbers };
}

function refuse(retryAfterMs: number): never {
  throw apiError(429, "throttled", {}, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });
}

/** Throws 429 if this login attempt must wait. */
export async function guardLogin(env: ThrottleEnv, mobileNo: string, client: AuthClient | null): Promise<void> {
  if (client?.ip) {
    const verdict = await throttle(env, "loginClient", client.ip).check("loginClient");
    if (!verdict.allowed) refuse(verdict.retryAfterMs);
  }
  if (!client?.knownNumbers.includes(mobileNo)) {
    const verdict = await throttle(env, "loginNumber", mobileNo).check("loginNumber");
    if (!verdict.allowed) refuse(verdict.retryAfterMs);
  }
}

export async function recordLoginFailure(env: ThrottleEnv, mobileNo: string, client: AuthClient | null): Promise<void> {
  await Promise.all([
    throttle(env, "loginNumber", mobileNo).record("loginNumber"),
    client?.ip ? throttle(env, "loginClient", client.ip).record("loginClient") : undefined,
  ]);
}

export async function recordLoginSuccess(env: ThrottleEnv, mobileNo: string): Promise<void> {
  await throttle(env, "loginNumber", mobileNo).clear();
}

/** Registrations per client address: every attempt counts (account spam). */
export async function guardRegistration(env: ThrottleEnv, client: AuthClient | null): Promise<void> {
  if (!client?.ip) return;
  const limiter = throttle(env, "registerClient", client.ip);
  const verdict = await limiter.check("registerClient");
  if (!verdict.allowed) refuse(verdict.retryAfterMs);
  await limiter.record("registerClient");
}

/** The known-device cookie after a successful login with `mobileNo` (kept for a year). */
export async function knownDeviceCookie(
  env: ThrottleEnv,
  request: Request,
  client: AuthClient,
  mobileNo: string,
): Promise<string> {
  const numbers = [mobileNo, ...client.knownNumbers.filter((n) => n !== mobileNo)].slice(0, KNOWN_NUMBERS_KEPT);
  const token = await new SignJWT({ numbers })
    .setProtectedHeader({ alg: "HS256" })
    .setAudience(KNOWN_DEVICE_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${KNOWN_DEVICE_TTL_SECONDS}s`)
    .sign(key(env.JWT_SECRET));
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${KNOWN_DEVICE_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${KNOWN_DEVICE_TTL_SECONDS}${secure}`;
}

function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.") || address === "::ffff:127.0.0.1";
}
