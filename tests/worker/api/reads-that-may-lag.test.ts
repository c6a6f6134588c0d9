// Reads that may lag (worker/db/reads-that-may-lag.ts, decision 044): a write answers with a
// bookmark of the primary for the browser's next replica reads, a bookmark nobody gave out is
// ignored, and what must never lag (a session's revocation) is refused at once whatever the
// browser brings.
import { describe, expect, it } from "vitest";
import { planResponseSchema } from "../../../common/api-responses/recharges.ts";
import { SEEN_BOOKMARK_COOKIE } from "../../../worker/db/reads-that-may-lag.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice } from "../helpers/boxes.ts";
import { api, bearer, cookieSetBy, getJson, postJson } from "../helpers/http.ts";

/** A bookmark as D1 gives them: hyphen-separated hex groups. */
const BOOKMARK = /^[0-9a-f]+(-[0-9a-f]+)+$/i;

function getWithCookie(path: string, token: string, cookie: string) {
  return api(path, { headers: { ...bearer(token), Cookie: cookie } });
}

describe("a write's bookmark", () => {
  it("comes with every answer to a write, as an HttpOnly cookie holding a bookmark of the primary", async () => {
    const user = await createUser();
    const response = await postJson("/api/auth/login", { mobileNo: user.mobileNo, password: user.password });
    expect(response.status).toBe(200);
    const cookie = cookieSetBy(response, SEEN_BOOKMARK_COOKIE);
    expect(decodeURIComponent(cookie.split("=")[1]!)).toMatch(BOOKMARK);
    const attributes = response.headers.getSetCookie().find((value) => value.startsWith(`${SEEN_BOOKMARK_COOKIE}=`))!;
    expect(attributes).toContain("HttpOnly");
    expect(attributes).toContain("SameSite=Lax");
  });

  it("is not given for an answer that wrote nothing: a read, a refused sign-in, a tap (the hub writes its log)", async () => {
    const token = await adminToken();
    const response = await getJson("/api/admin/users", token);
    expect(response.status).toBe(200);
    const refused = await postJson("/api/auth/login", { mobileNo: (await createUser()).mobileNo, password: "wrong" });
    expect(refused.status).toBe(401);
    const { token: farmerToken, box } = await farmerWithBox({ autoAck: true });
    const tap = await postJson("/api/devices/motor", { action: "on" }, farmerToken);
    expect(tap.status).toBe(200);
    box.close();
    for (const answer of [response, refused, tap]) {
      expect(answer.headers.getSetCookie().some((value) => value.startsWith(`${SEEN_BOOKMARK_COOKIE}=`))).toBe(false);
    }
  });

  it("starts the next reads that may lag: the admin's list after a write reads with it", async () => {
    const token = await adminToken();
    const farmer = await createUser();
    const write = await postJson("/api/auth/login", { mobileNo: farmer.mobileNo, password: farmer.password });
    expect(write.status).toBe(200);
    const cookie = cookieSetBy(write, SEEN_BOOKMARK_COOKIE);
    const created = await createUser();
    const response = await getWithCookie("/api/admin/users", token, cookie);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { users: { mobileNo: string }[] };
    expect(body.users.map((user) => user.mobileNo)).toContain(created.mobileNo);
  });

  it("is ignored when it is not one D1 gave out: the read is answered, never a 500", async () => {
    const token = await adminToken();
    for (const forged of ["nonsense", "'; DROP TABLE users; --", "a".repeat(5_000), "-", "0000-"]) {
      const response = await getWithCookie(
        "/api/admin/users",
        token,
        `${SEEN_BOOKMARK_COOKIE}=${encodeURIComponent(forged)}`,
      );
      expect(response.status, forged).toBe(200);
    }
  });
});

describe("what must not lag", () => {
  it("a farmer's ended session is refused at once, even with a bookmark from before", async () => {
    const { user } = await farmerWithDevice();
    const token = await loginToken(user);
    const before = await getJson("/api/recharge/plan", token);
    expect(before.status).toBe(200);
    expect(planResponseSchema.parse(await before.json()).success).toBe(true);
    const logout = await postJson("/api/auth/logout", {}, token);
    expect(logout.status).toBe(200);
    const cookie = cookieSetBy(logout, SEEN_BOOKMARK_COOKIE);
    expect((await getJson("/api/recharge/plan", token)).status).toBe(401);
    expect((await getWithCookie("/api/recharge/plan", token, cookie)).status).toBe(401);
  });

  it("an admin's ended session is refused at once by the lists that read replicas", async () => {
    const admin = await createUser({ isAdmin: true });
    const token = await loginToken(admin, "admin");
    expect((await getJson("/api/admin/users", token)).status).toBe(200);
    expect((await postJson("/api/admin/logout", {}, token)).status).toBe(200);
    for (const path of [
      "/api/admin/users",
      "/api/admin/dashboard-stats",
      "/api/admin/motor-logs",
      "/api/admin/audit",
    ]) {
      expect((await getJson(path, token)).status, path).toBe(401);
    }
  });
});
