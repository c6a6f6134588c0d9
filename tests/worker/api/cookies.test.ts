// Our cookies over https are `__Host-` prefixed (worker/auth/cookies.ts): the browser keeps them
// only with `Secure`, `Path=/` and no `Domain`, so a sibling subdomain or a plain-http page of
// the same domain cannot plant a session, language, known-device or bookmark cookie that the Worker reads.
// An unprefixed cookie over https is not ours and is ignored. Plain http is local mode only,
// where browsers refuse the prefix: there the names stay unprefixed (every other test).
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sessionCookie } from "../../../worker/auth/cookies.ts";
import { createUser } from "../helpers/accounts.ts";

const HTTPS = "https://sinchai.test";

function overHttps(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${HTTPS}${path}`, init));
}

async function adminLoginOverHttps() {
  const admin = await createUser({ isAdmin: true });
  const response = await overHttps("/api/admin/login", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: HTTPS },
    body: JSON.stringify({ mobileNo: admin.mobileNo, password: admin.password }),
  });
  expect(response.status).toBe(200);
  const { token } = (await response.json()) as { token: string };
  return { token, cookies: response.headers.getSetCookie() };
}

describe("cookies over https", () => {
  it("are set with the __Host- prefix, Secure, Path=/ and no Domain", async () => {
    const { cookies: loginCookies } = await adminLoginOverHttps();
    // The pages' sign-in sets the session cookie with the same function.
    const page = new Request(`${HTTPS}/login`);
    const cookies = [...loginCookies, sessionCookie(page, "user", "t", 60), sessionCookie(page, "admin", "t", 60)];
    expect(cookies.map((cookie) => cookie.split("=")[0])).toEqual([
      "__Host-sinchai_known_device",
      "__Host-sinchai_d1_seen",
      "__Host-sinchai_session",
      "__Host-sinchai_admin_session",
    ]);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/^__Host-/);
      expect(cookie).toContain("; Secure");
      expect(cookie).toContain("; Path=/");
      expect(cookie).not.toMatch(/domain=/i);
    }
  });

  it("are read only under the prefixed name: the same session under the bare name is nobody's", async () => {
    const { token } = await adminLoginOverHttps();
    const asCookie = (name: string) =>
      overHttps("/api/admin/users", { headers: { Cookie: `${name}=${token}`, Origin: HTTPS } });
    expect((await asCookie("__Host-sinchai_admin_session")).status).toBe(200);
    expect((await asCookie("sinchai_admin_session")).status).toBe(401);
  });

  it("end with logout under the same prefixed name", async () => {
    const { token } = await adminLoginOverHttps();
    const response = await overHttps("/api/admin/logout", {
      method: "POST",
      headers: { Cookie: `__Host-sinchai_admin_session=${token}`, Origin: HTTPS },
    });
    expect(response.status).toBe(200);
    // Beside it, the bookmark of what the logout wrote (worker/db/reads-that-may-lag.ts), prefixed too.
    expect(response.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^__Host-sinchai_admin_session=; .*Max-Age=0/),
      expect.stringMatching(
        /^__Host-sinchai_d1_seen=[0-9a-f-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/,
      ),
    ]);
  });
});
