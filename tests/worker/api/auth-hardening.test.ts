// Throttled logins and registrations, and refused common passwords (docs/security.md).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { KNOWN_DEVICE_COOKIE } from "../../../worker/auth/throttle.ts";
import { api, createUser, postJson, uniqueMobileNo } from "../helpers.ts";

function login(body: object, headers: Record<string, string> = {}) {
  return api("/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** Moves a throttle's remembered attempts `ms` into the past, as if time had passed. */
async function age(name: string, ms: number) {
  const stub = env.AUTH_THROTTLE.get(env.AUTH_THROTTLE.idFromName(name));
  await runInDurableObject(stub, (_object, state) => {
    state.storage.sql.exec("UPDATE attempts SET at = at - ?", ms);
  });
}

describe("login throttling per number", () => {
  it("slows a guesser after 5 failures, even with the right password, and lets them retry after the delay", async () => {
    const user = await createUser();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await login({ mobileNo: user.mobileNo, password: `wrong-${attempt}` })).status).toBe(401);
    }
    const throttled = await login({ mobileNo: user.mobileNo, password: user.password });
    expect(throttled.status).toBe(429);
    expect(await throttled.json()).toMatchObject({ success: false, message: "Too many attempts. Please wait a little and try again." });
    expect(Number(throttled.headers.get("Retry-After"))).toBeGreaterThanOrEqual(29);
    await age(`loginNumber:${user.mobileNo}`, 31_000);
    expect((await login({ mobileNo: user.mobileNo, password: user.password })).status).toBe(200);
    // Success clears the count: the farmer starts fresh.
    expect((await login({ mobileNo: user.mobileNo, password: "wrong-again" })).status).toBe(401);
  });

  it("doubles the delay with every further failure", async () => {
    const user = await createUser();
    for (let attempt = 0; attempt < 5; attempt++) await login({ mobileNo: user.mobileNo, password: "wrong" });
    await age(`loginNumber:${user.mobileNo}`, 31_000);
    expect((await login({ mobileNo: user.mobileNo, password: "wrong" })).status).toBe(401); // 6th, after 30 s
    const next = await login({ mobileNo: user.mobileNo, password: "wrong" });
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("Retry-After"))).toBeGreaterThanOrEqual(59); // now 60 s
  });

  it("treats an unknown number like a known one", async () => {
    const mobileNo = uniqueMobileNo();
    for (let attempt = 0; attempt < 5; attempt++) expect((await login({ mobileNo, password: "wrong" })).status).toBe(401);
    expect((await login({ mobileNo, password: "wrong" })).status).toBe(429);
  });

  it("never locks out the farmer's own phone (known-device cookie)", async () => {
    const user = await createUser();
    const first = await login({ mobileNo: user.mobileNo, password: user.password });
    const cookie = first.headers.getSetCookie().find((value) => value.startsWith(`${KNOWN_DEVICE_COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly; SameSite=Lax; Max-Age=31536000/);
    for (let attempt = 0; attempt < 8; attempt++) await login({ mobileNo: user.mobileNo, password: "attacker" });
    expect((await login({ mobileNo: user.mobileNo, password: user.password })).status).toBe(429); // the attacker's side
    const ownPhone = await login({ mobileNo: user.mobileNo, password: user.password }, { Cookie: cookie.split(";")[0]! });
    expect(ownPhone.status).toBe(200);
  });

  it("ignores a forged known-device cookie", async () => {
    const user = await createUser();
    for (let attempt = 0; attempt < 5; attempt++) await login({ mobileNo: user.mobileNo, password: "wrong" });
    const forged = `${KNOWN_DEVICE_COOKIE}=eyJhbGciOiJIUzI1NiJ9.eyJudW1iZXJzIjpbIjEiXX0.forged`;
    expect((await login({ mobileNo: user.mobileNo, password: user.password }, { Cookie: forged })).status).toBe(429);
  });
});

describe("login throttling per client address", () => {
  it("slows one address trying many numbers, not the others", async () => {
    const attacker = { "CF-Connecting-IP": "203.0.113.7" };
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await login({ mobileNo: uniqueMobileNo(), password: "wrong" }, attacker)).status).toBe(401);
    }
    expect((await login({ mobileNo: uniqueMobileNo(), password: "wrong" }, attacker)).status).toBe(429);
    const user = await createUser();
    expect((await login({ mobileNo: user.mobileNo, password: user.password }, { "CF-Connecting-IP": "198.51.100.9" })).status).toBe(200);
  });

  it("does not count loopback (local mode, where every client shares 127.0.0.1)", async () => {
    const local = { "CF-Connecting-IP": "127.0.0.1" };
    for (let attempt = 0; attempt < 25; attempt++) {
      expect((await login({ mobileNo: uniqueMobileNo(), password: "wrong" }, local)).status).toBe(401);
    }
  });

  it("applies to the admin login too", async () => {
    const admin = await createUser({ isAdmin: true });
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await postJson("/api/admin/login", { mobileNo: admin.mobileNo, password: "wrong" })).status).toBe(401);
    }
    expect((await postJson("/api/admin/login", { mobileNo: admin.mobileNo, password: admin.password })).status).toBe(429);
  });
});

describe("registration", () => {
  it("refuses the most common passwords, whatever their case", async () => {
    for (const password of ["password", "PASSWORD1", "iloveyou", "qwertyuiop", "12345678"]) {
      const response = await postJson("/api/auth/register", { mobileNo: uniqueMobileNo(), password });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, message: "This password is too common. Please choose a less common one." });
    }
    expect((await postJson("/api/auth/register", { mobileNo: uniqueMobileNo(), password: "kheti-ka-pani-2026" })).status).toBe(201);
  });

  it("is limited to 10 an hour per client address", async () => {
    const headers = { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.44" };
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await api("/api/auth/register", {
        method: "POST",
        headers,
        body: JSON.stringify({ mobileNo: uniqueMobileNo(), password: "a-fine-password" }),
      });
      expect(response.status).toBe(201);
    }
    const eleventh = await api("/api/auth/register", { method: "POST", headers, body: JSON.stringify({ mobileNo: uniqueMobileNo(), password: "a-fine-password" }) });
    expect(eleventh.status).toBe(429);
  });
});
