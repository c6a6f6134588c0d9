import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { type AnswerSchema, readJson } from "../../../common/api-client.ts";
import { adminLoginResponseSchema, loginResponseSchema } from "../../../common/api-responses/accounts.ts";
import { apiErrorSchema, messageResponseSchema } from "../../../common/api-responses/refusals.ts";
import { verifyPassword } from "../../../common/credentials.ts";
import { getDb } from "../../../worker/db/client.ts";
import { sessions, users } from "../../../worker/db/schema.ts";
import { createUser, loginToken, uniqueMobileNo } from "../helpers/accounts.ts";
import { api, postJson, refusal } from "../helpers/http.ts";

async function json<Schema extends AnswerSchema>(response: Response, schema: Schema) {
  expect(response.headers.get("Content-Type")).toContain("application/json");
  return readJson(response, schema);
}

/** The words of a refusal (the schema accepts refusals only). */
async function refusalMessage(response: Response) {
  return (await json(response, apiErrorSchema)).message;
}

describe("POST /api/auth/register", () => {
  it("creates an account with a salted password hash", async () => {
    const mobileNo = uniqueMobileNo();
    const response = await postJson("/api/auth/register", { mobileNo, password: "a-good-password" });
    expect(response.status).toBe(201);
    expect(await json(response, messageResponseSchema)).toEqual({
      success: true,
      message: "Registration successful! Please login to continue.",
    });
    const row = await getDb(env.DB).query.users.findFirst({ where: eq(users.mobileNo, mobileNo) });
    expect(row?.isAdmin).toBe(false);
    expect(row?.passwordHash).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(row?.passwordHash).not.toContain("a-good-password");
    expect(await verifyPassword("a-good-password", row!.passwordHash)).toBe(true);
  });

  it("refuses a second account for the same number, and keeps the first", async () => {
    const user = await createUser();
    const response = await postJson("/api/auth/register", { mobileNo: user.mobileNo, password: "another-password" });
    expect(response.status).toBe(409);
    expect(await json(response, apiErrorSchema)).toEqual(
      refusal("This mobile number is already registered. Please log in.", "duplicateRegistration"),
    );
    const rows = await getDb(env.DB).select().from(users).where(eq(users.mobileNo, user.mobileNo));
    expect(rows).toHaveLength(1);
    expect(await verifyPassword(user.password, rows[0]!.passwordHash)).toBe(true);
  });

  it.each([
    ["malformed JSON", "{not json", "Request body must be valid JSON."],
    ["a missing mobile number", { password: "long-enough" }, "Mobile number is required."],
    ["a missing password", { mobileNo: "9123456789" }, "Password is required."],
    ["a 9-digit number", { mobileNo: "912345678", password: "long-enough" }, "Enter a 10-digit mobile number."],
    [
      "a number starting with 0",
      { mobileNo: "0123456789", password: "long-enough" },
      "Enter a 10-digit mobile number.",
    ],
    ["a number as a number", { mobileNo: 9123456789, password: "long-enough" }, "Enter a 10-digit mobile number."],
    ["a short password", { mobileNo: "9123456789", password: "short" }, "Password must be at least 8 characters."],
    [
      "a 129-character password",
      { mobileNo: "9123456789", password: "x".repeat(129) },
      "Password must be at most 128 characters.",
    ],
  ])("answers %s with 400 and a clear message", async (_, body, message) => {
    const response = await postJson("/api/auth/register", body);
    expect(response.status).toBe(400);
    expect(await refusalMessage(response)).toBe(message);
    const count = await getDb(env.DB).select().from(users).where(eq(users.mobileNo, "9123456789"));
    expect(count).toHaveLength(0);
  });

  it("refuses a body over 16 KB with 413", async () => {
    const response = await postJson("/api/auth/register", { mobileNo: "9123456789", password: "x".repeat(20_000) });
    expect(response.status).toBe(413);
    expect((await json(response, apiErrorSchema)).success).toBe(false);
  });
});

describe("POST /api/auth/login", () => {
  it("returns success, message, token and user, and records the login", async () => {
    const user = await createUser();
    const response = await postJson("/api/auth/login", { mobileNo: user.mobileNo, password: user.password });
    expect(response.status).toBe(200);
    const body = await json(response, loginResponseSchema);
    expect(body).toMatchObject({ success: true, message: "Login successful." });
    expect(body.user).toEqual({ id: user.id, mobileNo: user.mobileNo, isAdmin: false });
    expect(body.token?.split(".")).toHaveLength(3);
    const row = await getDb(env.DB).query.users.findFirst({ where: eq(users.id, user.id) });
    expect(row?.lastLogin).toBeGreaterThan(Date.now() - 10_000);
  });

  it("gives the same answer for a wrong password and an unknown number", async () => {
    const user = await createUser();
    const wrongPassword = await postJson("/api/auth/login", { mobileNo: user.mobileNo, password: "not-the-password" });
    const unknownNumber = await postJson("/api/auth/login", { mobileNo: uniqueMobileNo(), password: user.password });
    expect(wrongPassword.status).toBe(401);
    expect(unknownNumber.status).toBe(401);
    const expected = { success: false, message: "Invalid mobile number or password.", code: "loginFailed", params: {} };
    expect(await json(wrongPassword, apiErrorSchema)).toEqual(expected);
    expect(await json(unknownNumber, apiErrorSchema)).toEqual(expected);
  });

  it("answers a missing field with 400", async () => {
    const response = await postJson("/api/auth/login", { mobileNo: "9123456789" });
    expect(response.status).toBe(400);
    expect(await refusalMessage(response)).toBe("Password is required.");
  });
});

describe("POST /api/admin/login", () => {
  it("logs an admin in with success, token and user", async () => {
    const admin = await createUser({ isAdmin: true });
    const response = await postJson("/api/admin/login", { mobileNo: admin.mobileNo, password: admin.password });
    expect(response.status).toBe(200);
    const body = await json(response, adminLoginResponseSchema);
    expect(body.success).toBe(true);
    expect(body.user).toEqual({ id: admin.id, mobileNo: admin.mobileNo, isAdmin: true });
    const row = await getDb(env.DB).query.sessions.findFirst({ where: eq(sessions.userId, admin.id) });
    expect(row?.audience).toBe("admin");
  });

  it("refuses a farmer's correct credentials without saying why", async () => {
    const user = await createUser();
    const response = await postJson("/api/admin/login", { mobileNo: user.mobileNo, password: user.password });
    expect(response.status).toBe(401);
    expect(await refusalMessage(response)).toBe("Invalid mobile number or password.");
  });
});

describe("tokens", () => {
  const motor = (token: string) => postJson("/api/devices/motor", { action: "on" }, token);

  it("answers a tampered token with 401 Invalid or expired token.", async () => {
    const token = await loginToken(await createUser());
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(atob(payload!.replace(/-/g, "+").replace(/_/g, "/")));
    const forged = btoa(JSON.stringify({ ...claims, sub: "1" }))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    const response = await motor(`${header}.${forged}.${signature}`);
    expect(response.status).toBe(401);
    expect(await refusalMessage(response)).toBe("Invalid or expired token.");
  });

  it("refuses an expired token, even with a valid signature", async () => {
    const user = await createUser();
    const token = await loginToken(user);
    const claims = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
    const expired = await new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("sinchai")
      .setAudience("user")
      .setSubject(String(user.id))
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(env.JWT_SECRET));
    const response = await motor(expired);
    expect(response.status).toBe(401);
    expect((await json(response, apiErrorSchema)).message).toBe("Invalid or expired token.");
  });

  it("refuses an unsigned (alg none) token", async () => {
    const user = await createUser();
    const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, "");
    const unsigned = `${encode({ alg: "none" })}.${encode({ sub: String(user.id), sid: "x", iss: "sinchai", aud: "user", exp: 9999999999 })}.`;
    const response = await motor(unsigned);
    expect(response.status).toBe(401);
  });

  it("does not accept an admin token in the user area, nor a user token in the admin area (403)", async () => {
    const admin = await createUser({ isAdmin: true });
    const adminToken = await loginToken(admin, "admin");
    const userToken = await loginToken(admin, "user");
    const inUserArea = await postJson("/api/auth/logout", {}, adminToken);
    expect(inUserArea.status).toBe(403);
    expect(await inUserArea.json()).toMatchObject({
      success: false,
      message: "You do not have permission to do this.",
    });
    expect((await postJson("/api/admin/logout", {}, userToken)).status).toBe(403);
    // Both sessions are still alive: nothing was logged out by the refused calls.
    expect((await postJson("/api/admin/logout", {}, adminToken)).status).toBe(200);
    expect((await postJson("/api/auth/logout", {}, userToken)).status).toBe(200);
  });

  it("answers a farmer's cookie on an admin call with 403, not 401", async () => {
    const token = await loginToken(await createUser());
    const response = await api("/api/admin/recharge-requests", { headers: { Cookie: `sinchai_session=${token}` } });
    expect(response.status).toBe(403);
  });

  it("asks for a token when there is none", async () => {
    const response = await postJson("/api/devices/motor", { action: "on" });
    expect(response.status).toBe(401);
    expect(await refusalMessage(response)).toBe("Missing token. Please log in again.");
  });

  it("revokes the session on logout, at once", async () => {
    const token = await loginToken(await createUser());
    const logout = await postJson("/api/auth/logout", {}, token);
    expect(logout.status).toBe(200);
    expect((await postJson("/api/auth/logout", {}, token)).status).toBe(401);
  });

  it("ends an admin session when the admin role is removed", async () => {
    const admin = await createUser({ isAdmin: true });
    const token = await loginToken(admin, "admin");
    await getDb(env.DB).update(users).set({ isAdmin: false }).where(eq(users.id, admin.id));
    const response = await postJson("/api/admin/logout", {}, token);
    expect(response.status).toBe(401);
  });
});

describe("cookies", () => {
  /** A logout with the session in its cookie, from a page on `origin`. */
  const cookieLogout = async (origin: string) => {
    const token = await loginToken(await createUser());
    return api("/api/auth/logout", { method: "POST", headers: { Cookie: `sinchai_session=${token}`, Origin: origin } });
  };

  it("refuses a cookie-authenticated write from another site", async () => {
    const response = await cookieLogout("https://evil.example");
    expect(response.status).toBe(403);
    expect(await refusalMessage(response)).toBe("Cross-site request refused.");
  });

  it("accepts a cookie-authenticated write from our own pages", async () => {
    const response = await cookieLogout("http://sinchai.test");
    expect(response.status).toBe(200);
    expect(response.headers.get("Set-Cookie")).toMatch(/^sinchai_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/);
  });
});

describe("unknown API routes", () => {
  it.each(["GET", "POST", "DELETE"])("answer %s with a 404 JSON error", async (method) => {
    const response = await api("/api/no-such-thing", { method });
    expect(response.status).toBe(404);
    expect(await refusalMessage(response)).toBe("Not found.");
  });
});
