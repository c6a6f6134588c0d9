// Who may call what. Every route of the API and both sockets × eleven kinds of caller: A (the
// owner of a box), B (a stranger with a box of their own), A's operator and viewer, someone A
// removed, someone A invited who has not accepted, an admin, the box itself, and three broken
// credentials.
// The table below must name exactly the routes the router has: a route added without a row
// here fails "covers every route". "allowed" means the access check let the call through (any
// answer but 401 and 403: the call itself may still find nothing, refuse bad input, or say
// the box is offline).
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { parseAnswer, readJson } from "../../../common/api-client.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { scheduleResponseSchema } from "../../../common/api-responses/schedules.ts";
import { hi } from "../../../common/i18n/hi.ts";
import { apiApp } from "../../../worker/api/app.ts";
import { startSession } from "../../../worker/auth/sessions.ts";
import { getDb } from "../../../worker/db/client.ts";
import { sessions, users } from "../../../worker/db/schema.ts";
import { PAGE_ACTIONS } from "../../page-actions.ts";
import { createUser, type TestUser } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { api, ORIGIN, postJson, refusal } from "../helpers/http.ts";
import { sharePump } from "../helpers/sharing.ts";
import type { TestDevice } from "../helpers/sockets.ts";
import { basicAuth } from "../helpers/sockets.ts";

type TableCaller =
  | "anonymous"
  | "userA"
  | "userB"
  | "operator"
  | "viewer"
  | "exMember"
  | "invitee"
  | "admin"
  | "device"
  | "expired"
  | "tampered";
/**
 * Sessions whose token is still good but whose row is not: one logged out (revoked), and an
 * admin session whose user has lost the role (the row alone says so). Each is refused as an
 * expired token is, on every route, the one-query routes about a box included.
 */
type DeadSession = "revoked" | "demotedAdmin";
type Caller = TableCaller | DeadSession;
const CALLERS: Caller[] = [
  "anonymous",
  "userA",
  "userB",
  "operator",
  "viewer",
  "exMember",
  "invitee",
  "admin",
  "device",
  "expired",
  "tampered",
  "revoked",
  "demotedAdmin",
];
/**
 * A's people: the same account class as A and B, different rights on A's box. An invitee (a
 * number A invited that has not accepted) is nothing to the box yet, like someone A removed.
 */
const PEOPLE = ["operator", "viewer", "exMember", "invitee"] as const;
const asPeople = (outcome: Outcome) =>
  Object.fromEntries(PEOPLE.map((who) => [who, outcome])) as Record<(typeof PEOPLE)[number], Outcome>;
/** Every caller gets the same. */
const sameForAll = (outcome: Outcome): Record<TableCaller, Outcome> => ({
  anonymous: outcome,
  userA: outcome,
  userB: outcome,
  ...asPeople(outcome),
  admin: outcome,
  device: outcome,
  expired: outcome,
  tampered: outcome,
});
/** Routes behind a session: without one, with a broken one or as the box, 401; the rest varies. */
const bySession = (rights: {
  userA: Outcome;
  userB: Outcome;
  people: Outcome;
  admin: Outcome;
}): Record<TableCaller, Outcome> => ({
  ...sameForAll(401),
  userA: rights.userA,
  userB: rights.userB,
  ...asPeople(rights.people),
  admin: rights.admin,
});
/** What a farmer, an admin and the broken callers get at A's box by its id; varies by role only among A's people. */
const pumpAccess = (rights: { operator: Outcome; viewer: Outcome; admin: Outcome }): Record<TableCaller, Outcome> => ({
  ...bySession({ userA: "allowed", userB: 404, people: 404, admin: rights.admin }),
  operator: rights.operator,
  viewer: rights.viewer,
});

/** The expected outcome: "allowed", or the status of the refusal. */
type Outcome = "allowed" | 401 | 403 | 404;

/** Who may call a route, in the classes the API has. */
const ACCESS = {
  /** Login, registration and the health check: anyone. */
  public: sameForAll("allowed"),
  /** The farmer's own account (the data follows from the session): farmers only. */
  farmer: bySession({ userA: "allowed", userB: "allowed", people: "allowed", admin: 403 }),
  /** The caller's own account, from either area (the password change). */
  anyAccount: bySession({ userA: "allowed", userB: "allowed", people: "allowed", admin: "allowed" }),
  /** A's device by its number: A, or an admin. A's people use the box by its id. */
  ownerOrAdmin: bySession({ userA: "allowed", userB: 403, people: 403, admin: "allowed" }),
  /** A's schedule by its id, on the SPEC route keyed by the caller: A; to anyone else it does not exist. */
  ownSchedule: bySession({ userA: "allowed", userB: 404, people: 404, admin: 403 }),
  admin: bySession({ userA: 403, userB: 403, people: 403, admin: "allowed" }),
  /** The installer's calls: an account an admin made an installer (none of these callers is). */
  installer: bySession({ userA: 403, userB: 403, people: 403, admin: 403 }),
  /** A telephony provider's webhooks: only its signature (or our secret in the URL) lets one in, no session. */
  provider: sameForAll(403),
  /** The controller box's own calls: its Basic credentials only. */
  device: { ...sameForAll(401), device: "allowed" },
  // A's box by its id (docs/decisions/018-shared-pumps.md). To whoever may not see it, it does
  // not exist (404); a role that sees it but may not do this is 403.
  /** State, readings, logs: everyone A let in, and admins. */
  pumpSee: pumpAccess({ operator: "allowed", viewer: "allowed", admin: "allowed" }),
  /** The schedules list: A's people (an admin session is not a farmer's). */
  pumpSeeFarmer: pumpAccess({ operator: "allowed", viewer: "allowed", admin: 403 }),
  /** Switching and schedules: A and an operator. */
  pumpRun: pumpAccess({ operator: "allowed", viewer: 403, admin: 403 }),
  /** Settings, firmware, the member list and removing a member: A and admins. */
  pumpOwnerOrAdmin: pumpAccess({ operator: 403, viewer: 403, admin: "allowed" }),
  /** Naming the box and inviting: A alone. */
  pumpOwner: pumpAccess({ operator: 403, viewer: 403, admin: 403 }),
} satisfies Record<string, Record<TableCaller, Outcome>>;

type Fixtures = {
  a: TestUser;
  b: TestUser;
  aDevice: TestDevice;
  aScheduleId: number;
  people: Record<(typeof PEOPLE)[number], TestUser>;
};
/** A call to a route; without `path`, the route's own with its parameters filled in (`pathOf`). */
type Call = { path?: (f: Fixtures) => string; body?: (f: Fixtures) => unknown; upgrade?: boolean };

const MISSING = 999_999;
/** A number nobody invited: the member calls that name it find nothing (404) once let through. */
const NOT_A_MEMBER = "9999999998";
/** A push address no browser of these tests subscribed: the calls that name it find nothing (404). */
const NO_PUSH_ENDPOINT = "https://push.invalid/none";

/** Every route: its access class and a call that exercises it without harming the fixtures. */
const ROUTES: Record<string, { access: keyof typeof ACCESS } & Call> = {
  "GET /api/health": { access: "public" },
  "POST /api/hub-notices": { access: "public" },
  "POST /api/auth/register": { access: "public", body: () => ({ mobileNo: "1", password: "x" }) },
  "POST /api/auth/login": { access: "public", body: () => ({ mobileNo: "1", password: "x" }) },
  "POST /api/admin/login": { access: "public", body: () => ({ mobileNo: "1", password: "x" }) },
  // Malformed bodies: refused by the schema (400) before any code is made, tried or sent.
  "POST /api/auth/codes": { access: "public", body: () => ({ purpose: "x" }) },
  "POST /api/auth/login-code": { access: "public", body: () => ({ mobileNo: "1", code: "x" }) },
  "POST /api/auth/reset-password": { access: "public", body: () => ({}) },
  "POST /api/auth/verify-number": { access: "farmer", body: () => ({}) },
  "POST /api/auth/logout": { access: "farmer" },
  // An empty body: refused by the schema (400) before any password is checked or counted.
  "POST /api/auth/change-password": { access: "anyAccount", body: () => ({}) },
  "POST /api/admin/logout": { access: "admin" },
  "POST /api/devices/motor": { access: "farmer", body: () => ({ action: "off" }) },
  "GET /api/devices/motor/status/:mobileNo": { access: "ownerOrAdmin" },
  "POST /api/devices/motor/config/:mobileNo": {
    access: "ownerOrAdmin",
    body: () => ({ defaultCurrent: 9, dryRunThreshold: 30, overCurrentThreshold: 30 }),
  },
  "POST /api/devices/motor/power/:mobileNo": { access: "ownerOrAdmin" },
  "POST /api/devices/motor/health/:mobileNo": { access: "ownerOrAdmin" },
  "GET /api/logs/motor/:mobileNo": { access: "ownerOrAdmin" },
  "GET /api/logs/power/:mobileNo": { access: "ownerOrAdmin" },
  "POST /api/mqtt/ota": { access: "ownerOrAdmin", body: (f) => ({ mobileNo: f.a.mobileNo, deviceType: "wifi" }) },
  "GET /api/realtime": { access: "ownerOrAdmin", path: (f) => `/api/realtime?mobileNo=${f.a.mobileNo}`, upgrade: true },
  "GET /api/pumps": { access: "farmer" },
  // Any farmer answers their own invitations; a box with none for them: 404.
  "POST /api/pumps/:deviceId/invitation": {
    access: "farmer",
    path: () => "/api/pumps/SNC-ZZZZZZZZ/invitation",
    body: () => ({ answer: "decline" }),
  },
  "GET /api/pumps/:deviceId/installation": { access: "pumpSee" },
  "POST /api/pumps/:deviceId/installation/seen": { access: "pumpOwner" },
  "GET /api/installer/boxes": { access: "installer" },
  "POST /api/installer/claims": { access: "installer", body: () => ({}) },
  "POST /api/installer/claims/confirm": { access: "installer", body: () => ({}) },
  "POST /api/installer/boxes/:deviceId/supply": { access: "installer" },
  "POST /api/installer/boxes/:deviceId/test-run": { access: "installer", body: () => ({}) },
  "POST /api/installer/boxes/:deviceId/dry-run-check": { access: "installer", body: () => ({}) },
  "POST /api/installer/boxes/:deviceId/commissioning": { access: "installer", body: () => ({}) },
  "POST /api/installer/boxes/:deviceId/hand-over": { access: "installer" },
  "GET /api/pumps/:deviceId/status": { access: "pumpSee" },
  "POST /api/pumps/:deviceId/motor": { access: "pumpRun", body: () => ({ action: "off" }) },
  "POST /api/pumps/:deviceId/config": { access: "pumpOwnerOrAdmin", body: () => ({}) },
  "POST /api/pumps/:deviceId/power": { access: "pumpSee" },
  "POST /api/pumps/:deviceId/health": { access: "pumpSee" },
  "POST /api/pumps/:deviceId/ask-again": { access: "pumpRun" },
  "POST /api/pumps/:deviceId/ota": { access: "pumpOwnerOrAdmin", body: () => ({}) },
  "PUT /api/pumps/:deviceId/name": { access: "pumpOwner", body: () => ({ name: 5 }) },
  "PUT /api/pumps/:deviceId/phone-start": { access: "pumpOwner", body: () => ({ enabled: "yes" }) },
  "PUT /api/pumps/:deviceId/sms-pin": { access: "pumpOwner", body: () => ({ pin: 1234 }) },
  "GET /api/pumps/:deviceId/logs": { access: "pumpSee" },
  "GET /api/pumps/:deviceId/usage": { access: "pumpSee" },
  "GET /api/pumps/:deviceId/schedules": { access: "pumpSeeFarmer" },
  "POST /api/pumps/:deviceId/schedules": { access: "pumpRun", body: () => ({ time: "never" }) },
  "PUT /api/pumps/:deviceId/schedules/:id": {
    access: "pumpRun",
    body: () => ({ time: "6:45 AM", action: "OFF", repeat: "once" }),
  },
  "DELETE /api/pumps/:deviceId/schedules/:id": { access: "pumpRun" },
  "GET /api/pumps/:deviceId/members": { access: "pumpOwnerOrAdmin" },
  "POST /api/pumps/:deviceId/members": { access: "pumpOwner", body: () => ({}) },
  "PUT /api/pumps/:deviceId/members/:mobileNo": {
    access: "pumpOwner",
    path: (f) => `/api/pumps/${f.aDevice.deviceId}/members/${NOT_A_MEMBER}`,
    body: () => ({}),
  },
  "DELETE /api/pumps/:deviceId/members/:mobileNo": {
    access: "pumpOwnerOrAdmin",
    path: (f) => `/api/pumps/${f.aDevice.deviceId}/members/${NOT_A_MEMBER}`,
  },
  "POST /api/recharge/request": { access: "farmer", body: () => ({ plan: "nope" }) },
  "GET /api/recharge/requests": { access: "farmer" },
  "GET /api/recharge/plan": { access: "farmer" },
  "PUT /api/recharge/status/:id": { access: "admin", body: () => ({ status: "paid" }) },
  "DELETE /api/recharge/:id": { access: "admin" },
  "POST /api/payments/checkout": { access: "farmer", body: () => ({ plan: "nope" }) },
  "GET /api/payments": { access: "farmer" },
  "GET /api/payments/:id": { access: "farmer", path: () => "/api/payments/999999999" },
  "POST /api/payments/razorpay/webhook": { access: "provider" },
  "GET /api/schedule": { access: "farmer" },
  "POST /api/schedule": { access: "farmer", body: () => ({ time: "never" }) },
  "PUT /api/schedule/:id": {
    access: "ownSchedule",
    path: (f) => `/api/schedule/${f.aScheduleId}`,
    body: () => ({ time: "6:45 AM", action: "OFF", repeat: "once" }),
  },
  "DELETE /api/schedule/:id": { access: "ownSchedule" },
  "GET /api/push/subscriptions": {
    access: "farmer",
    path: () => `/api/push/subscriptions?endpoint=${encodeURIComponent(NO_PUSH_ENDPOINT)}`,
  },
  "PUT /api/push/subscriptions": { access: "farmer", body: () => ({ kinds: ["dryRun"] }) },
  "DELETE /api/push/subscriptions": { access: "farmer", body: () => ({ endpoint: NO_PUSH_ENDPOINT }) },
  "POST /api/push/subscriptions/renew": { access: "farmer", body: () => ({ oldEndpoint: NO_PUSH_ENDPOINT }) },
  "POST /api/push/test": { access: "farmer", body: () => ({ endpoint: NO_PUSH_ENDPOINT }) },
  "GET /api/alerts/channels": { access: "farmer" },
  "PUT /api/alerts/channels": { access: "farmer", body: () => ({ channels: { dryRun: "app" }, language: "hi" }) },
  "GET /api/telephony/:provider/:kind": { access: "provider", path: () => "/api/telephony/twilio/keypress" },
  "POST /api/telephony/:provider/:kind": { access: "provider", path: () => "/api/telephony/twilio/keypress" },
  "GET /api/device/connect": { access: "device", upgrade: true },
  "GET /api/device/firmware/:id": { access: "device" },
  "GET /api/admin/dashboard-stats": { access: "admin" },
  "GET /api/admin/telephony-usage": { access: "admin" },
  "GET /api/admin/device-statuses": { access: "admin" },
  "GET /api/admin/devices": { access: "admin" },
  "POST /api/admin/devices": { access: "admin", body: () => ({ kind: "fourphase" }) },
  "GET /api/admin/devices/:id/hub-stats": { access: "admin", path: () => "/api/admin/devices/SNC-ZZZZZZZZ/hub-stats" },
  "POST /api/admin/devices/:id/rotate-key": {
    access: "admin",
    path: () => "/api/admin/devices/SNC-ZZZZZZZZ/rotate-key",
  },
  "PUT /api/admin/devices/:id/owner": {
    access: "admin",
    path: () => "/api/admin/devices/SNC-ZZZZZZZZ/owner",
    body: () => ({ mobileNo: null }),
  },
  "GET /api/admin/installers": { access: "admin" },
  "POST /api/admin/installers": { access: "admin", body: () => ({}) },
  "POST /api/admin/installers/:userId/stock": { access: "admin", body: () => ({ deviceIds: ["SNC-ZZZZZZZZ"] }) },
  "DELETE /api/admin/installers/:userId/stock": { access: "admin", body: () => ({ deviceIds: ["SNC-ZZZZZZZZ"] }) },
  "PUT /api/admin/installers/:userId/region": { access: "admin", body: () => ({ region: "barabanki" }) },
  "PUT /api/admin/box-regions": { access: "admin", body: () => ({ deviceIds: ["SNC-ZZZZZZZZ"], region: "barabanki" }) },
  "GET /api/admin/firmware": { access: "admin" },
  "POST /api/admin/firmware": { access: "admin", body: () => ({}) },
  "PUT /api/admin/device-config": { access: "admin", body: (f) => ({ mobileNo: f.a.mobileNo, debug: false }) },
  "GET /api/admin/motor-config-history/:mobileNo": { access: "admin" },
  "GET /api/admin/motor-logs": { access: "admin", path: (f) => `/api/admin/motor-logs?mobileNo=${f.a.mobileNo}` },
  "GET /api/admin/audit": { access: "admin", path: (f) => `/api/admin/audit?target=${f.a.mobileNo}` },
  "GET /api/admin/recharge-requests": { access: "admin" },
  "GET /api/admin/payments": { access: "admin" },
  "GET /api/admin/payments/:id": { access: "admin", path: () => "/api/admin/payments/999999999" },
  "GET /api/admin/user/:id": { access: "admin", path: (f) => `/api/admin/user/${f.a.id}` },
  "GET /api/admin/users": { access: "admin" },
  "POST /api/admin/users/:id/sign-in-code": { access: "admin" },
  "PUT /api/admin/update-motor-config": {
    access: "admin",
    body: (f) => ({ mobileNo: f.a.mobileNo, defaultCurrent: 9, dryRunThreshold: 30, overCurrentThreshold: 30 }),
  },
  "PUT /api/admin/update-user-role": { access: "admin", body: () => ({ userId: MISSING, isAdmin: false }) },
  "DELETE /api/admin/delete-user": { access: "admin", body: () => ({ mobileNo: "9999999999" }) },
};

/** Routes called another way as well: the realtime socket by box id. */
const VARIANTS: Record<string, { access: keyof typeof ACCESS } & Call> = {
  "GET /api/realtime?deviceId=": {
    access: "pumpSee",
    path: (f) => `/api/realtime?deviceId=${f.aDevice.deviceId}`,
    upgrade: true,
  },
};

function routeList(): string[] {
  return [
    ...new Set(apiApp.routes.filter((route) => route.method !== "ALL").map((route) => `${route.method} ${route.path}`)),
  ].sort();
}

let fixtures: Fixtures;
let adminUser: TestUser;

beforeAll(async () => {
  const a = await farmerWithDevice();
  const b = await farmerWithDevice();
  adminUser = await createUser({ isAdmin: true });
  const created = await postJson("/api/schedule", { time: "6:30 AM", action: "ON", repeat: "daily" }, a.token);
  const aScheduleId = (await readJson(created, scheduleResponseSchema)).schedule.id;
  const people = await sharePump(a.device.deviceId, a.token);
  fixtures = { a: a.user, b: b.user, aDevice: a.device, aScheduleId, people };
});

/** Credentials for one call. Each call gets fresh sessions: some calls log out. */
async function credentialsFor(caller: Caller): Promise<Record<string, string>> {
  const bearer = async (userId: number, audience: "user" | "admin") =>
    `Bearer ${(await startSession(env, userId, audience)).token}`;
  switch (caller) {
    case "anonymous":
      return {};
    case "userA":
      return { Authorization: await bearer(fixtures.a.id, "user") };
    case "userB":
      return { Authorization: await bearer(fixtures.b.id, "user") };
    case "operator":
    case "viewer":
    case "exMember":
    case "invitee":
      return { Authorization: await bearer(fixtures.people[caller].id, "user") };
    case "admin":
      return { Authorization: await bearer(adminUser.id, "admin") };
    case "device":
      return { Authorization: basicAuth(fixtures.aDevice.deviceId, fixtures.aDevice.key) };
    case "expired": {
      const { token } = await startSession(env, fixtures.a.id, "user");
      const claims = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
      const expired = await new SignJWT({ sid: claims.sid })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer("sinchai")
        .setAudience("user")
        .setSubject(String(fixtures.a.id))
        .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
        .sign(new TextEncoder().encode(env.JWT_SECRET));
      return { Authorization: `Bearer ${expired}` };
    }
    case "revoked": {
      const { token } = await startSession(env, fixtures.a.id, "user");
      const claims = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
      await getDb(env.DB).update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, claims.sid));
      return { Authorization: `Bearer ${token}` };
    }
    case "demotedAdmin": {
      const demoted = await createUser({ isAdmin: true });
      const { token } = await startSession(env, demoted.id, "admin");
      await getDb(env.DB).update(users).set({ isAdmin: false }).where(eq(users.id, demoted.id));
      return { Authorization: `Bearer ${token}` };
    }
    case "tampered": {
      const { token } = await startSession(env, adminUser.id, "admin");
      const [header, payload, signature] = token.split(".");
      const flipped = signature!.slice(0, -2) + (signature!.endsWith("AA") ? "BB" : "AA");
      return { Authorization: `Bearer ${header}.${payload}.${flipped}` };
    }
    default: {
      const unreachable: never = caller;
      throw new Error(String(unreachable));
    }
  }
}

/**
 * The path of `route` ("GET /api/pumps/:deviceId/status") with its parameters filled in: A's box
 * and number, and an id nothing has.
 */
function pathOf(route: string): string {
  const values: Record<string, string> = {
    deviceId: fixtures.aDevice.deviceId,
    mobileNo: fixtures.a.mobileNo,
    id: String(MISSING),
    userId: String(MISSING),
  };
  return route.slice(route.indexOf(" ") + 1).replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for :${name} in ${route}: give the route a path`);
    return value;
  });
}

/**
 * Makes one route's call with `headers` (plus the upgrade and the JSON body the route wants);
 * a socket it opens is closed at once.
 */
async function call(route: string, spec: Call, headers: Record<string, string>): Promise<Response> {
  const [method] = route.split(" ") as [string];
  const all = { ...headers };
  if (spec.upgrade) all.Upgrade = "websocket";
  const body = spec.body?.(fixtures);
  if (body !== undefined) all["Content-Type"] = "application/json";
  const response = await api(spec.path?.(fixtures) ?? pathOf(route), {
    method,
    headers: all,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  response.webSocket?.accept();
  response.webSocket?.close();
  return response;
}

describe("the authorization matrix", () => {
  it("covers every route the router has, and no route it does not", () => {
    expect(Object.keys(ROUTES).sort()).toEqual(routeList());
  });

  for (const [route, spec] of [...Object.entries(ROUTES), ...Object.entries(VARIANTS)]) {
    it(`${route}: ${spec.access}`, async () => {
      for (const caller of CALLERS) {
        const expected = ACCESS[spec.access][caller === "revoked" || caller === "demotedAdmin" ? "expired" : caller];
        const response = await call(route, spec, await credentialsFor(caller));
        const outcome = `${caller} → ${response.status}`;
        if (expected === "allowed") expect([401, 403], outcome).not.toContain(response.status);
        else expect(response.status, outcome).toBe(expected);
        // Let in, they find the box: a "not found" would be a refusal wearing another code.
        if (expected === "allowed" && spec.access.startsWith("pump") && response.status === 404) {
          expect((await readJson(response, apiErrorSchema)).code, outcome).not.toBe("pumpNotFound");
        }
        // A box they may not see is not there for them: not the same 404 as a missing schedule.
        if (expected === 404 && spec.access.startsWith("pump")) {
          expect((await readJson(response, apiErrorSchema)).code, outcome).toBe("pumpNotFound");
        }
        // 503/504 are the clear answers for a box that is offline or silent; never a crash.
        expect(response.status, outcome).not.toBe(500);
      }
    });
  }
});

/**
 * How a request can fail to prove it comes from our own pages. Browsers send Origin with every
 * POST and WebSocket upgrade (and Sec-Fetch-Site with every request); a cross-site form or a
 * cross-site socket carries the victim's cookies, so none of these may change anything.
 */
const NOT_OUR_ORIGIN: Record<string, Record<string, string>> = {
  "another site's Origin": { Origin: "https://evil.example" },
  "Origin: null (a sandboxed frame)": { Origin: "null" },
  "a look-alike Origin": { Origin: `${ORIGIN}.evil.example` },
  "Sec-Fetch-Site: cross-site, no Origin": { "Sec-Fetch-Site": "cross-site" },
  "Sec-Fetch-Site: same-site (a sibling subdomain), no Origin": { "Sec-Fetch-Site": "same-site" },
  "neither header": {},
};

const CROSS_SITE_MESSAGE = "Cross-site request refused.";

/** A browser's session cookies: the farmer's, the admin's, or both. */
async function browserCookies(kind: "farmer" | "admin" | "both"): Promise<string> {
  const farmer = `sinchai_session=${(await startSession(env, fixtures.a.id, "user")).token}`;
  const admin = `sinchai_admin_session=${(await startSession(env, adminUser.id, "admin")).token}`;
  return kind === "farmer" ? farmer : kind === "admin" ? admin : `${farmer}; ${admin}`;
}

describe("cookie-authenticated state changes must come from our own pages", () => {
  const writes = Object.entries(ROUTES).filter(([route, spec]) => spec.upgrade || !route.startsWith("GET "));

  for (const [route, spec] of writes) {
    it(`${route}: refused from another site with session cookies, allowed from ours`, async () => {
      for (const cookies of ["farmer", "admin", "both"] as const) {
        // One pair of sessions through every refused try; our own Origin goes last, as it may
        // end them (a logout).
        const cookie = await browserCookies(cookies);
        for (const [how, originHeaders] of Object.entries(NOT_OUR_ORIGIN)) {
          const response = await call(route, spec, { Cookie: cookie, ...originHeaders });
          const outcome = `${cookies} cookies, ${how} → ${response.status}`;
          const answer: unknown = response.status === 101 ? null : await response.json();
          expect(response.status, outcome).toBe(403);
          expect(parseAnswer(apiErrorSchema, answer, outcome), outcome).toEqual(
            refusal(CROSS_SITE_MESSAGE, "crossSite"),
          );
        }
        // Refused before anything ran: the sessions still work after every one of those tries
        // (a cross-site logout, password change or deletion ended nothing).
        for (const pair of cookie.split("; ")) {
          const [name, token] = pair.split("=") as [string, string];
          const check = name === "sinchai_session" ? "/api/recharge/plan" : "/api/admin/firmware";
          expect(
            (await api(check, { headers: { Authorization: `Bearer ${token}` } })).status,
            `${cookies} cookies, after ${Object.keys(NOT_OUR_ORIGIN).length} cross-site tries: ${name} still valid`,
          ).toBe(200);
        }
        const ours = await call(route, spec, { Cookie: cookie, Origin: ORIGIN });
        const answer: unknown = ours.status === 101 ? null : await ours.json();
        const refused = apiErrorSchema.safeParse(answer);
        expect(refused.success && refused.data.message, `${cookies} cookies, our own Origin → ${ours.status}`).not.toBe(
          CROSS_SITE_MESSAGE,
        );
      }
    });
  }

  it("lets bearer and device callers (which send no cookies of their own accord) call from anywhere", async () => {
    const login = await api("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: JSON.stringify({ mobileNo: "1", password: "x" }),
    });
    expect(login.status).toBe(400);
    const bearer = await credentialsFor("userA");
    const plan = await api("/api/schedule", {
      method: "POST",
      headers: {
        ...bearer,
        "Content-Type": "application/json",
        Origin: "https://evil.example",
        Cookie: await browserCookies("farmer"),
      },
      body: JSON.stringify({ time: "never" }),
    });
    expect(plan.status).toBe(400);
  });

  for (const path of PAGE_ACTIONS) {
    it(`POST ${path} (a page's form): refused from another site, with or without cookies`, async () => {
      for (const cookies of [null, "farmer", "admin", "both"] as const) {
        for (const [how, originHeaders] of [
          ...Object.entries(NOT_OUR_ORIGIN),
          ["our own Origin", { Origin: ORIGIN }] as const,
        ]) {
          const headers: Record<string, string> = {
            "Content-Type": "application/x-www-form-urlencoded",
            ...originHeaders,
          };
          if (cookies) headers.Cookie = await browserCookies(cookies);
          const response = await api(path, {
            method: "POST",
            headers,
            body: "language=en&returnTo=%2F&next=%2Flogin&mobileNo=1&password=x&command=off",
          });
          const outcome = `${cookies ?? "no"} cookies, ${how} → ${response.status}`;
          const text = await response.text();
          if (how === "our own Origin") {
            // Past the check: the worker tests have no React Router build behind it.
            expect(text, outcome).toBe("React Router is not part of the worker tests");
          } else {
            expect(response.status, outcome).toBe(403);
            expect(text, outcome).toContain(hi["error.crossSite"]);
          }
        }
      }
    });
  }
});
