// The alerts API (worker/api/push.ts) as an attacker would call it: push addresses outside the
// push services, a push service that redirects or never answers, more subscriptions than a
// farmer has phones, another account's address, the test button pressed in a loop, and the
// subscriptions of sessions that ended (logout, a password change, expiry, a deleted account).
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authenticateToken, startSession } from "../../../worker/auth/sessions.ts";
import { getDb } from "../../../worker/db/client.ts";
import { pushSubscriptions, sessions } from "../../../worker/db/schema.ts";
import { PUSH_TIMEOUT_MS, sendTestAlert } from "../../../worker/push/push-alerts.ts";
import worker from "../../worker-test-entry.ts";
import { adminToken, createUser, type TestUser } from "../helpers/accounts.ts";
import { deleteJson, getJson, postJson, refusal } from "../helpers/http.ts";
import {
  browserKeys,
  pushesTo,
  received,
  requestsElsewhere,
  saveEndpoint,
  stored,
  subscribe,
} from "../push-support.ts";

/** A new session of `user`, as a login makes one (without the password hash's cost). */
async function sessionOf(user: TestUser): Promise<string> {
  return (await startSession(env, user.id, "user")).token;
}

async function sessionIdOf(token: string): Promise<string> {
  return (await authenticateToken(env, token, "user"))!.sessionId;
}

const testAlert = (token: string, endpoint: string) => postJson("/api/push/test", { endpoint }, token);

/** Addresses a browser never gives: the Worker must never be made to ask them. */
const NOT_PUSH_SERVICES = [
  "https://127.0.0.1/push",
  "https://127.0.0.1:8443/push",
  "https://127.1/push",
  "https://2130706433/push",
  "https://0x7f000001/push",
  "https://0177.0.0.1/push",
  "https://[::1]/push",
  "https://[::ffff:127.0.0.1]/push",
  "https://[0:0:0:0:0:ffff:7f00:1]/push",
  "https://[fe80::1]/push",
  "https://[fd00::1]/push",
  "https://10.0.0.8/push",
  "https://172.16.5.4/push",
  "https://192.168.1.1/push",
  "https://100.64.0.1/push",
  "https://169.254.169.254/latest/meta-data/",
  "https://0.0.0.0/push",
  "https://localhost/push",
  "https://push.localhost/push",
  "https://LOCALHOST./push",
  "https://printer.local/push",
  "https://metadata.google.internal/computeMetadata/v1/",
  "https://metadata/push",
  "https://example.com/push",
  "https://fcm.googleapis.com.example.com/push",
  "https://evilfcm.googleapis.com/fcm/send/x",
  "https://fcm.googleapis.com./fcm/send/x",
  "https://fcm.googleapis.com:8443/fcm/send/x",
  "https://user:secret@fcm.googleapis.com/fcm/send/x",
  "https://push.apple.com.example.net/x",
  "https://push.test.example.com/ok/x",
];

/** What Chrome, Firefox, Safari and Edge hand out. */
const PUSH_SERVICES = [
  "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b",
  "https://fcm.googleapis.com/wp/dGVzdA",
  "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
  "https://web.push.apple.com/QGJ8f1nQ",
  "https://wns2-pn1p.notify.windows.com/w/?token=BQYAAAB",
];

describe("push addresses", () => {
  it("only the push services' own hosts are taken; IP literals, loopback, private, link-local, metadata and other hosts get 400", async () => {
    const user = await createUser();
    const token = await sessionOf(user);
    for (const endpoint of NOT_PUSH_SERVICES) {
      const response = await saveEndpoint(token, endpoint);
      expect([endpoint, response.status]).toEqual([endpoint, 400]);
      expect(await response.json()).toEqual(refusal(expect.any(String), "pushEndpointNotAllowed"));
      expect(await stored(endpoint)).toBeUndefined();
    }
    for (const endpoint of PUSH_SERVICES) {
      const response = await saveEndpoint(token, endpoint);
      expect([endpoint, response.status]).toEqual([endpoint, 200]);
    }
    // The push service moving the browser to one of them is refused the same way.
    const { endpoint } = await subscribe(token);
    const renewed = await postJson(
      "/api/push/subscriptions/renew",
      { oldEndpoint: endpoint, subscription: { endpoint: "https://169.254.169.254/x", keys: await browserKeys() } },
      token,
    );
    expect(renewed.status).toBe(400);
    expect(await stored(endpoint)).toBeDefined();
  });

  it("a push service's redirect is not followed: the test alert fails and nothing reaches the address it names", async () => {
    const token = await sessionOf(await createUser());
    const { id, endpoint } = await subscribe(token, "redirect");
    const response = await testAlert(token, endpoint);
    expect(response.status).toBe(502);
    expect(await pushesTo(`${id}-followed`)).toBe(0);
  });

  it("the sender asks with redirects off and gives up after PUSH_TIMEOUT_MS, however long the push service takes", async () => {
    const user = await createUser();
    const token = await sessionOf(user);
    const { endpoint } = await subscribe(token);
    const asked: RequestInit[] = [];
    const deliveries = await sendTestAlert(env, user.id, endpoint, {
      send: (_url, init) => {
        asked.push(init);
        // A push service that never answers: only the sender's own signal ends the wait.
        return new Promise<Response>((_resolve, reject) =>
          init.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
        );
      },
    });
    expect(deliveries).toEqual([{ endpoint, status: 0, removed: false }]);
    expect(asked).toHaveLength(1);
    const [init] = asked as [RequestInit];
    expect(init.redirect).toBe("manual");
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(init.signal!.aborted).toBe(true);
    expect((init.signal!.reason as Error).name).toBe("TimeoutError");
    expect(PUSH_TIMEOUT_MS).toBeLessThanOrEqual(5_000);
    // Through the route, a push service that hangs is a refusal, not a held request.
    const hanging = await subscribe(token, "hang");
    expect((await testAlert(token, hanging.endpoint)).status).toBe(502);
  });

  it("the test alert never reaches an address stored before the check: it is skipped and forgotten", async () => {
    const user = await createUser();
    const token = await sessionOf(user);
    const marker = crypto.randomUUID();
    const endpoint = `https://127.0.0.1:9/${marker}`;
    const keys = await browserKeys();
    await getDb(env.DB)
      .insert(pushSubscriptions)
      .values({
        userId: user.id,
        sessionId: await sessionIdOf(token),
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        kinds: ["phase"],
        language: "hi",
        createdAt: Date.now(),
        updatedAt: Date.now(),
      });
    const response = await testAlert(token, endpoint);
    expect(response.status).not.toBe(200);
    expect(await requestsElsewhere(marker)).toEqual([]);
    expect(await stored(endpoint)).toBeUndefined();
  });
});

describe("how many subscriptions, and whose", () => {
  it("a session keeps its 3 newest, an account its 10 newest: the oldest go first", async () => {
    const user = await createUser();
    const phone = await sessionOf(user);
    const first = await subscribe(phone);
    const rest = [await subscribe(phone), await subscribe(phone), await subscribe(phone)];
    expect(await stored(first.endpoint)).toBeUndefined();
    for (const kept of rest) expect(await stored(kept.endpoint)).toBeDefined();

    // Four more sessions of three each: fifteen saved, ten kept, the oldest five gone.
    const later = [];
    for (let session = 0; session < 4; session++) {
      const token = await sessionOf(user);
      for (let browser = 0; browser < 3; browser++) later.push(await subscribe(token));
    }
    const rows = await getDb(env.DB).query.pushSubscriptions.findMany({
      where: eq(pushSubscriptions.userId, user.id),
    });
    expect(rows).toHaveLength(10);
    expect(rows.map((row) => row.endpoint).sort()).toEqual(
      later
        .slice(-10)
        .map((kept) => kept.endpoint)
        .sort(),
    );
  });

  it("another account that knows an address cannot take its row; the same account's new session can", async () => {
    const farmer = await createUser();
    const farmerToken = await sessionOf(farmer);
    const { endpoint } = await subscribe(farmerToken, "ok", ["phase"]);
    const before = await stored(endpoint);

    const attackerToken = await sessionOf(await createUser());
    const taken = await saveEndpoint(attackerToken, endpoint);
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual(refusal(expect.any(String), "pushEndpointTaken"));
    const renewed = await postJson(
      "/api/push/subscriptions/renew",
      { oldEndpoint: endpoint, subscription: { endpoint, keys: await browserKeys() } },
      attackerToken,
    );
    expect(renewed.status).toBe(404);
    expect(await stored(endpoint)).toEqual(before);

    // The farmer logs in again on the same phone: the row moves to the new session.
    const again = await sessionOf(farmer);
    expect((await saveEndpoint(again, endpoint, ["power"])).status).toBe(200);
    expect(await stored(endpoint)).toMatchObject({
      userId: farmer.id,
      sessionId: await sessionIdOf(again),
      kinds: ["power"],
    });
  });
});

describe("the test alert", () => {
  it("is throttled per session (3 in 10 minutes) and per account (5), with Retry-After", async () => {
    const user = await createUser();
    const phone = await sessionOf(user);
    const { endpoint } = await subscribe(phone);
    for (let press = 0; press < 3; press++) expect((await testAlert(phone, endpoint)).status).toBe(200);
    const refused = await testAlert(phone, endpoint);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual(
      refusal(expect.any(String), "throttled", { retryAfterSeconds: expect.any(Number) }),
    );

    const other = await sessionOf(user);
    const second = await subscribe(other);
    for (let press = 0; press < 2; press++) expect((await testAlert(other, second.endpoint)).status).toBe(200);
    expect((await testAlert(other, second.endpoint)).status).toBe(429);
    expect((await received(second.id)).count).toBe(2);
  });

  it("pressed 20 times at once sends at most 3 pushes", async () => {
    const token = await sessionOf(await createUser());
    const { id, endpoint } = await subscribe(token);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => testAlert(token, endpoint)));
    expect(statuses.filter((response) => response.status === 200)).toHaveLength(3);
    expect(statuses.filter((response) => response.status === 429)).toHaveLength(17);
    expect(await pushesTo(id)).toBe(3);
  });
});

describe("a subscription ends with its session", () => {
  it("logout deletes the session's subscriptions and no other session's", async () => {
    const user = await createUser();
    const [phone, tablet] = [await sessionOf(user), await sessionOf(user)];
    const phoneSub = await subscribe(phone);
    const tabletSub = await subscribe(tablet);
    expect((await postJson("/api/auth/logout", undefined, phone)).status).toBe(200);
    expect(await stored(phoneSub.endpoint)).toBeUndefined();
    expect(await stored(tabletSub.endpoint)).toBeDefined();
  });

  it("a password change deletes the subscriptions of every other session; this one's stays", async () => {
    const user = await createUser();
    const here = await sessionOf(user);
    const others = [await sessionOf(user), await sessionOf(user)];
    const mine = await subscribe(here);
    const theirs = [await subscribe(others[0]!), await subscribe(others[1]!)];
    const response = await postJson(
      "/api/auth/change-password",
      { currentPassword: user.password, newPassword: "naya-paani-2026" },
      here,
    );
    expect(response.status).toBe(200);
    for (const gone of theirs) expect(await stored(gone.endpoint)).toBeUndefined();
    expect(await stored(mine.endpoint)).toBeDefined();
  });

  it("an expired session's subscription gets nothing, and the cron purge deletes it", async () => {
    const user = await createUser();
    const token = await sessionOf(user);
    const { id, endpoint } = await subscribe(token);
    await getDb(env.DB)
      .update(sessions)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(sessions.id, await sessionIdOf(token)));
    // Whoever still holds the address (the row is not purged yet) cannot get a push to it.
    const live = await sessionOf(user);
    expect((await testAlert(live, endpoint)).status).toBe(404);
    expect(await pushesTo(id)).toBe(0);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await stored(endpoint)).toBeUndefined();
  });

  it("a deleted account's subscriptions go with it", async () => {
    const user = await createUser();
    const token = await sessionOf(user);
    const { endpoint } = await subscribe(token);
    const admin = await adminToken();
    expect((await deleteJson("/api/admin/delete-user", { mobileNo: user.mobileNo }, admin)).status).toBe(200);
    expect(await stored(endpoint)).toBeUndefined();
    expect((await getJson("/api/recharge/plan", token)).status).toBe(401);
  });
});
