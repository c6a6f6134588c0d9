// A renewed farmer's session (worker/auth/sessions.ts `renewSession`, which the user shell's
// middleware calls: tests/routes/sliding-sessions.test.ts) is the same session: logout, a
// password change elsewhere and the account's deletion still end it everywhere at once, its
// sockets too. A renewal racing with a logout never revives it. Admin sessions and bearer
// tokens do not slide.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BROWSER_CLOSE } from "../../../common/hub-contract.ts";
import { authenticateToken, endSession, renewSession, startSession } from "../../../worker/auth/sessions.ts";
import { getDb } from "../../../worker/db/client.ts";
import { sessions } from "../../../worker/db/schema.ts";
import { adminToken, createUser, type TestUser } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { deleteJson, ORIGIN, postJson } from "../helpers/http.ts";
import { browserWatching } from "../helpers/sockets.ts";

const DAY_MS = 24 * 60 * 60_000;

const pageRequest = (token: string, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}/motor-control`, { headers: { Cookie: `sinchai_session=${token}`, ...headers } });

/** A farmer's session begun `daysAgo` days ago, renewed now as a user page would: the renewed token. */
async function renewedToken(user: TestUser, daysAgo = 3) {
  const { token } = await startSession(env, user.id, "user", Date.now() - daysAgo * DAY_MS);
  const signedIn = (await authenticateToken(env, token, "user"))!;
  const cookie = await renewSession(env, pageRequest(token), signedIn);
  expect(cookie).not.toBeNull();
  return { old: token, renewed: decodeURIComponent(cookie!.split(";")[0]!.slice("sinchai_session=".length)) };
}

describe("a renewed farmer's session", () => {
  it("is the same session: logout with the old token ends the new one and closes its socket", async () => {
    const { user } = await farmerWithDevice();
    const { old, renewed } = await renewedToken(user);
    const socket = await browserWatching(user.mobileNo, { token: renewed });
    expect((await postJson("/api/auth/logout", {}, old)).status).toBe(200);
    expect((await socket.waitForClose()).code).toBe(BROWSER_CLOSE.signedOut);
    expect(await authenticateToken(env, renewed, "user")).toBeNull();
  });

  it("ends with a password change made on another phone, and with the account's deletion", async () => {
    const user = await createUser();
    const { renewed } = await renewedToken(user);
    const { token: otherPhone } = await startSession(env, user.id, "user");
    const change = await postJson(
      "/api/auth/change-password",
      { currentPassword: user.password, newPassword: `new-${crypto.randomUUID()}` },
      otherPhone,
    );
    expect(change.status).toBe(200);
    expect(await authenticateToken(env, renewed, "user")).toBeNull();

    const doomed = await createUser();
    const { renewed: doomedToken } = await renewedToken(doomed);
    const deletion = await deleteJson("/api/admin/delete-user", { mobileNo: doomed.mobileNo }, await adminToken());
    expect(deletion.status).toBe(200);
    expect(await authenticateToken(env, doomedToken, "user")).toBeNull();
  });

  it("is not revived by a renewal that was under way when the logout landed", async () => {
    const user = await createUser();
    const { token } = await startSession(env, user.id, "user", Date.now() - 2 * DAY_MS);
    const signedIn = (await authenticateToken(env, token, "user"))!; // the page authenticated...
    await endSession(env, signedIn.sessionId); // ...then the logout landed
    expect(await renewSession(env, pageRequest(token), signedIn)).toBeNull();
    const row = await getDb(env.DB).query.sessions.findFirst({ where: eq(sessions.id, signedIn.sessionId) });
    expect(row!.revokedAt).not.toBeNull();
    expect(await authenticateToken(env, token, "user")).toBeNull();
  });
});

describe("sessions that do not slide", () => {
  it("an admin's ends 12 hours after the login, however much it is used", async () => {
    const token = await adminToken();
    const admin = (await authenticateToken(env, token, "admin"))!;
    const request = new Request(`${ORIGIN}/admin/dashboard`, { headers: { Cookie: `sinchai_admin_session=${token}` } });
    expect(await renewSession(env, request, admin, Date.now() + 11 * 60 * 60_000)).toBeNull();
    expect(await authenticateToken(env, token, "admin", Date.now() + 11 * 60 * 60_000)).not.toBeNull();
    expect(await authenticateToken(env, token, "admin", Date.now() + 12 * 60 * 60_000 + 1_000)).toBeNull();
  });

  it("a bearer token's ends 90 days after it was issued: API clients log in again", async () => {
    const user = await createUser();
    const { token } = await startSession(env, user.id, "user", Date.now() - 2 * DAY_MS);
    const signedIn = (await authenticateToken(env, token, "user"))!;
    const request = new Request(`${ORIGIN}/motor-control`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await renewSession(env, request, signedIn)).toBeNull();
    expect(await authenticateToken(env, token, "user", Date.now() + 87 * DAY_MS)).not.toBeNull();
    expect(await authenticateToken(env, token, "user", Date.now() + 88 * DAY_MS + 1_000)).toBeNull();
  });
});
