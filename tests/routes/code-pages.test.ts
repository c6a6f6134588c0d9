// The pages that prove a number with a code, through their route actions as a form without
// JavaScript posts them: sign in with a code, a new password with a code, and verifying the
// signed-in farmer's number. The SMS is read off the tests' phone (tests/telephony-outbound.ts).
// Each refusal is a message key the page words in Hindi or English; a wrong code says how many
// tries are left.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action as forgotPassword } from "../../app/routes/forgot-password.tsx";
import { action as loginCode } from "../../app/routes/login-code.tsx";
import { action as verifyNumber } from "../../app/routes/verify-number.tsx";
import { userContext } from "../../app/user-context.ts";
import { en } from "../../common/i18n/en.ts";
import { hi } from "../../common/i18n/hi.ts";
import { authenticateToken, startSession } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { users } from "../../worker/db/schema.ts";
import { accountWithPassword, formPost, workerContext } from "./route-support.ts";

/** The code in the newest SMS to `mobileNo` since `since`, as the tests' phone received it. */
async function codeSentTo(mobileNo: string, since: number): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await fetch(`${env.TELEPHONY_LOCAL_URL}/__messages`);
    const { sms } = (await response.json()) as { sms: { to: string; text: string; at: number }[] };
    const found = sms.filter((message) => message.to === mobileNo && message.at >= since).at(-1);
    const code = found && /\b([0-9]{6})\b/.exec(found.text)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no code reached ${mobileNo}`);
}

type Action = (args: never) => unknown;

/**
 * Posts `fields` to a page's action as its form would, waits for what it sends after the answer
 * (the SMS), and reads the outcome: a redirect with its cookies, or the page's data and status.
 */
async function post(
  run: Action,
  path: string,
  fields: Record<string, string>,
  user?: { token: string },
): Promise<{ status: number; location: string | null; cookies: string; data: Record<string, unknown> | null }> {
  const request = formPost(path, fields);
  const background: Promise<unknown>[] = [];
  const context = workerContext((promise) => background.push(promise));
  if (user) context.set(userContext, (await authenticateToken(env, user.token, "user"))!);
  let result: unknown;
  try {
    result = await run({ request, params: {}, context } as never);
  } catch (thrown) {
    result = thrown;
  }
  await Promise.all(background);
  if (result instanceof Response) {
    return {
      status: result.status,
      location: result.headers.get("Location"),
      cookies: result.headers.get("Set-Cookie") ?? "",
      data: null,
    };
  }
  const wrapped = result as { data: Record<string, unknown>; init?: { status?: number } | null };
  return { status: wrapped.init?.status ?? 200, location: null, cookies: "", data: wrapped.data };
}

describe("sign in with a code, without JavaScript", () => {
  it("asks for the number, then the code; a wrong one says the tries left in the page's words", async () => {
    const user = await accountWithPassword(true);
    const since = Date.now();
    const sent = await post(loginCode, "/login-code", { intent: "send", mobileNo: user.mobileNo });
    expect(sent).toMatchObject({ status: 200, data: { step: "code", mobileNo: user.mobileNo, error: null } });
    const code = await codeSentTo(user.mobileNo, since);

    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const wrong = await post(loginCode, "/login-code", { intent: "check", mobileNo: user.mobileNo, code: wrongCode });
    expect(wrong).toMatchObject({
      status: 401,
      data: { step: "code", error: { key: "code.wrong", values: { triesLeft: 4 } } },
    });
    expect(hi["code.wrong"]).toContain("कोशिश");
    expect(en["code.wrong"]).toContain("tries");

    const spaced = `${code.slice(0, 3)} ${code.slice(3)}`;
    const right = await post(loginCode, "/login-code", { intent: "check", mobileNo: user.mobileNo, code: spaced });
    expect(right).toMatchObject({ status: 302, location: "/motor-control" });
    expect(right.cookies).toContain("sinchai_session=");
  });

  it("says the same for a number without a verified account, and sends it nothing", async () => {
    const unverified = await accountWithPassword(false);
    const since = Date.now();
    const sent = await post(loginCode, "/login-code", { intent: "send", mobileNo: unverified.mobileNo });
    expect(sent).toMatchObject({ status: 200, data: { step: "code", error: null } });
    const response = await fetch(`${env.TELEPHONY_LOCAL_URL}/__messages`);
    const { sms } = (await response.json()) as { sms: { to: string; at: number }[] };
    expect(sms.filter((message) => message.to === unverified.mobileNo && message.at >= since)).toEqual([]);
    const malformed = await post(loginCode, "/login-code", { intent: "send", mobileNo: "12345" });
    expect(malformed).toMatchObject({ status: 400, data: { step: "number", error: { key: "auth.mobileInvalid" } } });
  });
});

describe("a new password with a code, without JavaScript", () => {
  it("refuses two different passwords and a weak one, then saves it, signs in and ends every other session", async () => {
    const user = await accountWithPassword(false);
    const before = (await startSession(env, user.id, "user")).token;
    const since = Date.now();
    await post(forgotPassword, "/forgot-password", { intent: "send", mobileNo: user.mobileNo });
    const code = await codeSentTo(user.mobileNo, since);
    const reset = (newPassword: string, confirmPassword = newPassword) =>
      post(forgotPassword, "/forgot-password", {
        intent: "reset",
        mobileNo: user.mobileNo,
        code,
        newPassword,
        confirmPassword,
      });
    expect(await reset("naya-paani-2026", "naya-paani-2027")).toMatchObject({
      status: 400,
      data: { error: { key: "password.mismatch" } },
    });
    expect(await reset(user.mobileNo)).toMatchObject({
      status: 400,
      data: { error: { key: "auth.passwordIsMobile" } },
    });
    const saved = await reset("naya-paani-2026");
    expect(saved).toMatchObject({ status: 302, location: "/motor-control?passwordReset=1" });
    expect(saved.cookies).toContain("sinchai_session=");
    expect(await authenticateToken(env, before, "user")).toBeNull();
    const [row] = await getDb(env.DB).select().from(users).where(eq(users.id, user.id));
    expect(row!.numberVerifiedAt).not.toBeNull();
  });
});

describe("verifying the signed-in farmer's number, without JavaScript", () => {
  it("sends the code, refuses a wrong one, and verifies with the right one", async () => {
    const user = await accountWithPassword(false);
    const token = (await startSession(env, user.id, "user")).token;
    const since = Date.now();
    const sent = await post(verifyNumber, "/verify-number", { intent: "send" }, { token });
    expect(sent).toMatchObject({ status: 302, location: "/verify-number?sent=1" });
    const code = await codeSentTo(user.mobileNo, since);
    const wrong = await post(verifyNumber, "/verify-number?sent=1", { intent: "check", code: "12345" }, { token });
    expect(wrong).toMatchObject({ status: 400, data: { error: { key: "code.invalid" } } });
    const right = await post(verifyNumber, "/verify-number?sent=1&welcome=1", { intent: "check", code }, { token });
    expect(right).toMatchObject({ status: 302, location: "/motor-control?verified=1&welcome=1" });
    const [row] = await getDb(env.DB).select().from(users).where(eq(users.id, user.id));
    expect(row!.numberVerifiedAt).not.toBeNull();
  });
});
