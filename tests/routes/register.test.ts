import { describe, expect, it } from "vitest";
import { action } from "../../app/routes/register.tsx";
import { en } from "../../common/i18n/en.ts";
import { hi } from "../../common/i18n/hi.ts";
import { formPost, uniqueMobileNo, workerContext } from "./route-support.ts";

async function register(mobileNo: string, password: string) {
  const request = formPost("/register", { mobileNo, password });
  const context = workerContext();
  const result = (await action({ request, params: {}, context } as unknown as Parameters<typeof action>[0])) as unknown;
  // Registered: a redirect that signs the farmer in. Refused: data() with the reason and status.
  if (result instanceof Response) {
    return {
      error: null,
      status: result.status,
      location: result.headers.get("Location"),
      signedIn: (result.headers.get("Set-Cookie") ?? "").includes("="),
    };
  }
  const wrapped = result as { data: { error: keyof typeof en }; init?: { status?: number } };
  return { ...wrapped.data, status: wrapped.init?.status ?? 200 };
}

describe("registration page: weak passwords", () => {
  it("says why, in Hindi and English, for the number itself, blanks and one repeated character", async () => {
    const mobileNo = uniqueMobileNo();
    const cases = [
      [mobileNo, "auth.passwordIsMobile"],
      ["            ", "auth.passwordBlank"],
      ["xxxxxxxxxx", "auth.passwordRepeated"],
    ] as const;
    for (const [password, key] of cases) {
      const answer = await register(mobileNo, password);
      expect(answer, JSON.stringify(password)).toMatchObject({ error: key, status: 400 });
      expect(en[key]).toBeTruthy();
      expect(hi[key]).toBeTruthy();
      expect(hi[key]).not.toBe(en[key]);
    }
    // Registered and signed in; the code sent to the number is asked for next.
    expect(await register(mobileNo, "pani-ka-samay-9")).toMatchObject({
      error: null,
      status: 302,
      location: "/verify-number?sent=1&welcome=1",
      signedIn: true,
    });
  });
});
