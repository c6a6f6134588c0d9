// The known-device cookie as a squatter would use it (docs/security.md, "Login throttling"): a
// neighbour who registered a farmer's number and signed in kept a cookie that named the number,
// valid for a year, which spared him the number's code-check limit (25 wrong codes, none
// refused) and, since every browser with it shared one login count per number, let his 11
// wrong passwords make the farmer's own phone wait. The cookie now names the account and the
// version of its credentials: a take-back, a new password or a verification voids it; an
// unverified account's code checks are never spared; each phone's failed logins count apart.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { KNOWN_DEVICE_COOKIE } from "../../../worker/auth/throttle.ts";
import { getDb } from "../../../worker/db/client.ts";
import { users } from "../../../worker/db/schema.ts";
import { codeSentTo, createUser, uniqueMobileNo } from "../helpers/accounts.ts";
import { api, cookieSetBy, postJson } from "../helpers/http.ts";

let addressCounter = 0;
/** A client address of its own for each request: only the number's own counts are in play. */
function freshAddress(): string {
  addressCounter += 1;
  return `192.0.${Math.floor(addressCounter / 250) + 100}.${(addressCounter % 250) + 1}`;
}

function post(path: string, body: object, cookie?: string) {
  return api(path, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "CF-Connecting-IP": freshAddress(),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** A browser signs in with the password and keeps its known-device cookie. */
async function signedInBrowser(mobileNo: string, password: string): Promise<string> {
  const login = await post("/api/auth/login", { mobileNo, password });
  expect(login.status).toBe(200);
  return cookieSetBy(login, KNOWN_DEVICE_COOKIE);
}

/** `count` wrong codes for a new password from the browser with `cookie`: their statuses. */
async function wrongCodes(mobileNo: string, count: number, cookie: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    statuses.push(
      (await post("/api/auth/reset-password", { mobileNo, code: "000000", newPassword: "guess-2026-x" }, cookie))
        .status,
    );
  }
  return statuses;
}

describe("the known-device cookie", () => {
  it("a squatter's cookie counts for nothing once the holder takes the number back: his code guesses meet the number's limit", async () => {
    const mobileNo = uniqueMobileNo();
    const registered = Date.now();
    expect((await postJson("/api/auth/register", { mobileNo, password: "padosi-ka-2026" })).status).toBe(201);
    await codeSentTo(mobileNo, registered);
    const squatter = await signedInBrowser(mobileNo, "padosi-ka-2026");

    const asked = Date.now();
    expect((await post("/api/auth/codes", { purpose: "resetPassword", mobileNo })).status).toBe(200);
    const code = (await codeSentTo(mobileNo, asked)).code;
    expect((await post("/api/auth/reset-password", { mobileNo, code, newPassword: "mera-apna-2026" })).status).toBe(
      200,
    );

    // 20 checks a day for a number from anywhere, then 429: his cookie no longer spares him.
    const statuses = await wrongCodes(mobileNo, 22, squatter);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });

  it("spares no code check of an unverified account, even from its own browser", async () => {
    const owner = await createUser({ verified: false });
    const browser = await signedInBrowser(owner.mobileNo, owner.password);
    const statuses = await wrongCodes(owner.mobileNo, 21, browser);
    expect(statuses.at(-1)).toBe(429);
  });

  it("spares the verified holder's own phone, as before", async () => {
    const farmer = await createUser();
    const phone = await signedInBrowser(farmer.mobileNo, farmer.password);
    const statuses = await wrongCodes(farmer.mobileNo, 22, phone);
    expect(statuses.every((status) => status === 401)).toBe(true);
  });

  it("counts each phone's failed logins apart: 11 wrong passwords from one make no other phone wait", async () => {
    const farmer = await createUser();
    const stolen = await signedInBrowser(farmer.mobileNo, farmer.password);
    const own = await signedInBrowser(farmer.mobileNo, farmer.password);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push(
        (await post("/api/auth/login", { mobileNo: farmer.mobileNo, password: `guess-${attempt}` }, stolen)).status,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    expect((await post("/api/auth/login", { mobileNo: farmer.mobileNo, password: farmer.password }, own)).status).toBe(
      200,
    );
  });

  it("is void after a password change or a verification, until the next sign-in", async () => {
    const owner = await createUser({ verified: false });
    const browser = await signedInBrowser(owner.mobileNo, owner.password);
    const version = async () =>
      (await getDb(env.DB).query.users.findFirst({ where: eq(users.id, owner.id) }))!.credentialsVersion;
    const before = await version();
    const login = await post("/api/auth/login", { mobileNo: owner.mobileNo, password: owner.password }, browser);
    const { token } = (await login.json()) as { token: string };
    const asked = Date.now();
    expect((await post("/api/auth/codes", { purpose: "verifyNumber", mobileNo: owner.mobileNo })).status).toBe(200);
    const code = (await codeSentTo(owner.mobileNo, asked)).code;
    const verified = await api("/api/auth/verify-number", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ code }),
    });
    expect(verified.status).toBe(200);
    expect(await version()).toBe(before + 1);
    const changed = await api("/api/auth/change-password", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ currentPassword: owner.password, newPassword: "naya-wala-2026" }),
    });
    expect(changed.status).toBe(200);
    expect(await version()).toBe(before + 2);
  });
});
