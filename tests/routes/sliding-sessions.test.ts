// A farmer's session lasts 90 days from the last use, not a fixed time from the login
// (docs/decisions/003-sessions.md): a user page renews the session row and re-issues the cookie,
// at most once a day, through the user shell's middleware; an ended session is never revived.
// What ends a renewed session is tests/worker/auth/sliding-sessions.test.ts.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { middleware } from "../../app/routes/user-shell.tsx";
import { authenticateToken, endSession, startSession } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { sessions, users } from "../../worker/db/schema.ts";
import { ORIGIN, workerContext } from "./route-support.ts";

const DAY_MS = 24 * 60 * 60_000;

/** A user page requested with `token` as the session cookie, through the user shell's middleware. */
async function openPage(token: string): Promise<{ status: number; sessionCookie: string | null }> {
  const request = new Request(`${ORIGIN}/motor-control`, { headers: { Cookie: `sinchai_session=${token}` } });
  const [shell] = middleware;
  try {
    const args = { request, context: workerContext(), params: {} } as unknown as Parameters<
      NonNullable<typeof shell>
    >[0];
    const response = (await shell!(args, async () => new Response("the page"))) as Response;
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith("sinchai_session=")) ?? null;
    return { status: response.status, sessionCookie: cookie };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, sessionCookie: null };
    throw thrown;
  }
}

const tokenOf = (cookie: string) => decodeURIComponent(cookie.split(";")[0]!.slice("sinchai_session=".length));

async function sessionRow(token: string) {
  const user = await authenticateToken(env, token, "user");
  const [row] = await getDb(env.DB).select().from(sessions).where(eq(sessions.id, user!.sessionId));
  return row!;
}

/** A farmer who logged in `daysAgo` days ago on this phone and has not opened the app since. */
async function farmerSignedInDaysAgo(daysAgo: number) {
  const mobileNo = `${6 + Math.floor(Math.random() * 4)}${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
  const [user] = await getDb(env.DB)
    .insert(users)
    .values({ mobileNo, passwordHash: "unused", createdAt: Date.now(), numberVerifiedAt: Date.now() })
    .returning();
  return (await startSession(env, user!.id, "user", Date.now() - daysAgo * DAY_MS)).token;
}

describe("a farmer's session", () => {
  it("still works 80 days after the login, and a page then renews it for 90 days from now", async () => {
    const token = await farmerSignedInDaysAgo(80);
    expect(await authenticateToken(env, token, "user")).not.toBeNull();

    const before = Date.now();
    const page = await openPage(token);
    expect(page.status).toBe(200);
    expect(page.sessionCookie).toMatch(/; Max-Age=7776000(;|$)/); // 90 days
    expect(page.sessionCookie).toContain("HttpOnly");
    const renewed = tokenOf(page.sessionCookie!);
    expect((await sessionRow(renewed)).expiresAt).toBeGreaterThanOrEqual(before + 90 * DAY_MS);

    // The renewed cookie lasts 90 days from this use; the old token ends when it would have.
    expect(await authenticateToken(env, renewed, "user", Date.now() + 89 * DAY_MS)).not.toBeNull();
    expect(await authenticateToken(env, token, "user", Date.now() + 11 * DAY_MS)).toBeNull();
    // Unused for 90 days, it ends.
    expect(await authenticateToken(env, renewed, "user", Date.now() + 91 * DAY_MS)).toBeNull();
  });

  it("is renewed at most once a day: D1 and the cookie are left alone until a day has passed", async () => {
    const fresh = await farmerSignedInDaysAgo(23 / 24);
    const untouched = await sessionRow(fresh);
    expect((await openPage(fresh)).sessionCookie).toBeNull();
    expect(await sessionRow(fresh)).toEqual(untouched);

    const token = await farmerSignedInDaysAgo(25 / 24);
    const renewed = tokenOf((await openPage(token)).sessionCookie!);
    const once = await sessionRow(renewed);
    for (let page = 0; page < 5; page += 1) expect((await openPage(renewed)).sessionCookie).toBeNull();
    expect(await sessionRow(renewed)).toEqual(once);
  });

  it("is never revived: one logged out while its page was loading stays ended", async () => {
    const token = await farmerSignedInDaysAgo(2);
    const signedIn = (await authenticateToken(env, token, "user"))!;
    await endSession(env, signedIn.sessionId);
    expect((await openPage(token)).status).toBe(302);
    const row = await getDb(env.DB).query.sessions.findFirst({ where: eq(sessions.id, signedIn.sessionId) });
    expect(row!.revokedAt).not.toBeNull();
    expect(row!.expiresAt).toBeLessThan(Date.now() + 89 * DAY_MS);
  });
});
