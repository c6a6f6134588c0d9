// POST /api/auth/change-password: the calling session stays, every other session of the account
// (both areas) ends at once and the realtime sockets they opened close with 4401; a refused
// change changes nothing.
import { describe, expect, it } from "vitest";
import { BROWSER_CLOSE } from "../../../common/hub-contract.ts";
import { apiEn } from "../../../common/i18n/api-en.ts";
import { KNOWN_DEVICE_COOKIE } from "../../../worker/auth/throttle.ts";
import { createUser, loginToken } from "../helpers/accounts.ts";
import { provisionDevice } from "../helpers/boxes.ts";
import { api, cookieSetBy, getJson, postJson } from "../helpers/http.ts";
import { connectBrowser } from "../helpers/sockets.ts";

const change = (token: string | undefined, body: unknown) => postJson("/api/auth/change-password", body, token);

async function login(mobileNo: string, password: string, area: "auth" | "admin" = "auth") {
  return (await postJson(`/api/${area}/login`, { mobileNo, password })).status;
}

describe("POST /api/auth/change-password", () => {
  it("ends every other session of the account, farmer and admin alike, and closes their sockets; this one stays", async () => {
    // An admin who also farms: sessions in both areas.
    const user = await createUser({ isAdmin: true });
    await provisionDevice(user.id);
    const [here, phone, adminArea] = await Promise.all([loginToken(user), loginToken(user), loginToken(user, "admin")]);
    const phoneSocket = await connectBrowser(user.mobileNo, { token: phone });
    const adminSocket = await connectBrowser(user.mobileNo, { token: adminArea });
    const hereSocket = await connectBrowser(user.mobileNo, { token: here });

    const response = await change(here, { currentPassword: user.password, newPassword: "naya-paani-2026" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, message: apiEn["api.passwordChanged"], endedSessions: 2 });

    expect((await phoneSocket.waitForClose()).code).toBe(BROWSER_CLOSE.signedOut);
    expect((await adminSocket.waitForClose()).code).toBe(BROWSER_CLOSE.signedOut);
    expect((await getJson("/api/recharge/plan", phone)).status).toBe(401);
    expect((await getJson("/api/admin/users", adminArea)).status).toBe(401);
    expect((await getJson("/api/recharge/plan", here)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hereSocket.closed).toBeNull();

    expect(await login(user.mobileNo, user.password)).toBe(401);
    expect(await login(user.mobileNo, "naya-paani-2026")).toBe(200);
    expect(await login(user.mobileNo, "naya-paani-2026", "admin")).toBe(200);
    hereSocket.close();
  });

  it("refuses a wrong current password, a weak or unchanged new one, with 400 JSON, and changes nothing", async () => {
    const user = await createUser();
    const [here, other] = await Promise.all([loginToken(user), loginToken(user)]);
    const refusals: [unknown, string][] = [
      [{ currentPassword: "not-the-password", newPassword: "naya-paani-2026" }, apiEn["error.wrongCurrentPassword"]],
      [{ currentPassword: user.password, newPassword: user.mobileNo }, apiEn["error.passwordIsMobile"]],
      [{ currentPassword: user.password, newPassword: user.password }, apiEn["error.samePassword"]],
      [{ currentPassword: user.password, newPassword: "short" }, "Password must be at least 8 characters."],
      [{ currentPassword: user.password }, "Password is required."],
    ];
    for (const [body, message] of refusals) {
      const response = await change(here, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, message: expect.stringContaining(message) });
    }
    expect((await getJson("/api/recharge/plan", other)).status).not.toBe(401);
    expect(await login(user.mobileNo, user.password)).toBe(200);
  });

  it("needs a session: 401 without one", async () => {
    const response = await change(undefined, { currentPassword: "x", newPassword: "naya-paani-2026" });
    expect(response.status).toBe(401);
    expect((await api("/api/auth/change-password", { method: "POST", body: "{" })).status).toBe(401);
  });

  it("counts wrong current passwords like failed logins: a stolen session cannot guess freely", async () => {
    const user = await createUser();
    const here = await loginToken(user);
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        change(here, { currentPassword: `guess-${index}`, newPassword: "naya-paani-2026" }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 400 || status === 429)).toBe(true);
  });

  it("counts them on the farmer's own phone too: a stolen phone with the known-device cookie is throttled after 5", async () => {
    const user = await createUser();
    const loggedIn = await postJson("/api/auth/login", { mobileNo: user.mobileNo, password: user.password });
    const { token } = (await loggedIn.json()) as { token: string };
    const knownDevice = cookieSetBy(loggedIn, KNOWN_DEVICE_COOKIE);
    const statuses: number[] = [];
    for (let guess = 0; guess < 12; guess++) {
      const response = await api("/api/auth/change-password", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, Cookie: knownDevice },
        body: JSON.stringify({ currentPassword: `guess-${guess}`, newPassword: "naya-paani-2026" }),
      });
      statuses.push(response.status);
    }
    // The login throttle's 5 free attempts, then every guess waits (docs/security.md).
    expect(statuses).toEqual([400, 400, 400, 400, 400, ...Array(7).fill(429)]);
    // The cookie still spares the farmer's own login from the strangers' count, as before.
    const ownPhone = await api("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: knownDevice },
      body: JSON.stringify({ mobileNo: user.mobileNo, password: user.password }),
    });
    expect(ownPhone.status).toBe(200);
  });
});
