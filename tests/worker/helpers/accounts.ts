// Accounts for tests that run inside workerd: fresh, unique users (storage is isolated per test
// FILE, so tests never share state), their sessions, and the SMS the tests' phone received.
import { env } from "cloudflare:workers";
import { readJson } from "../../../common/api-client.ts";
import { adminLoginResponseSchema, loginResponseSchema } from "../../../common/api-responses/accounts.ts";
import { hashPassword } from "../../../common/credentials.ts";
import { localProviderClient } from "../../../telephony-sim/client.ts";
import { getDb } from "../../../worker/db/client.ts";
import { users } from "../../../worker/db/schema.ts";
import { postJson } from "./http.ts";

export function uniqueMobileNo(): string {
  const first = 6 + Math.floor(Math.random() * 4);
  const rest = String(Math.floor(Math.random() * 1e9)).padStart(9, "0");
  return `${first}${rest}`;
}

export type TestUser = { id: number; mobileNo: string; password: string };

/**
 * A new account, its number verified by a code (as every account that is invited or gets SMS
 * must be) unless `verified: false`: an account from before verification, or whose holder has
 * not entered the code yet.
 */
/**
 * The fixtures' password hashes: the same format and check as every account's, at 1 % of the
 * count. A 100,000-round hash costs about 20 ms of CPU to make and again at each sign-in, and
 * the suites make thousands of accounts on two cores; accounts made through the API (and
 * `auth.test.ts`, which reads their stored count) still get the full count.
 */
const FIXTURE_HASH_ITERATIONS = 1_000;

export async function createUser(
  options: { isAdmin?: boolean; password?: string; verified?: boolean } = {},
): Promise<TestUser> {
  const mobileNo = uniqueMobileNo();
  const password = options.password ?? `pw-${crypto.randomUUID()}`;
  const [row] = await getDb(env.DB)
    .insert(users)
    .values({
      mobileNo,
      passwordHash: await hashPassword(password, FIXTURE_HASH_ITERATIONS),
      isAdmin: options.isAdmin ?? false,
      createdAt: Date.now(),
      numberVerifiedAt: (options.verified ?? true) ? Date.now() : null,
    })
    .returning();
  return { id: row!.id, mobileNo, password };
}

/** The tests' phone: every SMS and call the Worker sent, as the local provider received them (tests/telephony-outbound.ts). */
export function testPhone() {
  return localProviderClient(env.TELEPHONY_LOCAL_URL);
}

/** The code of the first SMS to `mobileNo` sent after `since` (a Date.now() before asking), waiting for it. */
export async function codeSentTo(mobileNo: string, since: number): Promise<{ code: string; text: string }> {
  const sms = await testPhone().waitForSms(
    mobileNo,
    (candidate) => candidate.at >= since && /\b[0-9]{6}\b/.test(candidate.text),
  );
  return { code: /\b([0-9]{6})\b/.exec(sms.text)![1]!, text: sms.text };
}

/** The SMS the phone got for `mobileNo` since `since`, after waiting `ms` for any still on their way. */
export async function smsSince(mobileNo: string, since: number, ms = 300) {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (await testPhone().records()).sms.filter((sms) => sms.to === mobileNo && sms.at >= since);
}

export async function loginToken(user: TestUser, audience: "user" | "admin" = "user"): Promise<string> {
  const path = audience === "admin" ? "/api/admin/login" : "/api/auth/login";
  const response = await postJson(path, { mobileNo: user.mobileNo, password: user.password });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return (await readJson(response, audience === "admin" ? adminLoginResponseSchema : loginResponseSchema)).token;
}

export async function adminToken(): Promise<string> {
  return loginToken(await createUser({ isAdmin: true }), "admin");
}
