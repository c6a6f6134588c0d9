// The password change page's action: a plain form post (no JavaScript needed) that names each
// problem by message key, in Hindi and English, and on success ends every other session.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { action } from "../../app/routes/change-password.tsx";
import { en } from "../../common/i18n/en.ts";
import { hi } from "../../common/i18n/hi.ts";
import { authenticateToken, startSession } from "../../worker/auth/sessions.ts";
import { accountWithPassword, formPost, signedInContext } from "./route-support.ts";

const loginToken = async (user: { id: number }) => (await startSession(env, user.id, "user")).token;
const signedIn = async (token: string) => (await authenticateToken(env, token, "user")) !== null;

async function post(token: string, fields: Record<string, string>) {
  const request = formPost("/change-password", fields);
  const context = await signedInContext(token, "user");
  const result = (await action({ request, params: {}, context } as unknown as Parameters<typeof action>[0])) as unknown;
  const wrapped = result as { data?: { changed: boolean; error: keyof typeof en | null }; init?: { status?: number } };
  return wrapped.data
    ? { ...wrapped.data, status: wrapped.init?.status ?? 200 }
    : { ...(result as { changed: boolean; error: null }), status: 200 };
}

describe("change password page", () => {
  it("says what is wrong in the page's words, changes nothing, then changes and ends the other sessions", async () => {
    const user = await accountWithPassword(false);
    const [here, other] = await Promise.all([loginToken(user), loginToken(user)]);
    const cases = [
      [
        { currentPassword: user.password, newPassword: "naya-paani-2026", confirmPassword: "naya-paani-2027" },
        "password.mismatch",
      ],
      [
        { currentPassword: "wrong-password", newPassword: "naya-paani-2026", confirmPassword: "naya-paani-2026" },
        "password.wrongCurrent",
      ],
      [
        { currentPassword: user.password, newPassword: user.mobileNo, confirmPassword: user.mobileNo },
        "auth.passwordIsMobile",
      ],
      [{ currentPassword: user.password, newPassword: "short", confirmPassword: "short" }, "auth.passwordLength"],
      [{ currentPassword: user.password }, "password.required"],
    ] as const;
    for (const [fields, key] of cases) {
      expect(await post(here, fields), key).toMatchObject({ changed: false, error: key, status: 400 });
      expect(hi[key]).not.toBe(en[key]);
    }
    expect(await signedIn(other)).toBe(true);

    const done = await post(here, {
      currentPassword: user.password,
      newPassword: "naya-paani-2026",
      confirmPassword: "naya-paani-2026",
    });
    expect(done).toMatchObject({ changed: true, error: null, status: 200 });
    expect(await signedIn(other)).toBe(false);
    expect(await signedIn(here)).toBe(true);
  });
});
