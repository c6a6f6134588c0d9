// The admin audit trail (docs/decisions/007-admin-audit-trail.md). The table below names every
// write route the router has: a route added without a row fails "covers every write route", and
// each row either proves the route leaves exactly one entry with the right action, admin,
// target and status when an admin session calls it, or proves that an admin session cannot use
// it (so nothing is left to audit).
import { env } from "cloudflare:workers";
import { desc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AUDIT_ACTIONS,
  auditActionText,
  auditFieldsText,
  auditRefusalText,
  auditStatusText,
  auditTargetText,
} from "../../../app/routes/admin/audit-trail-text.server.ts";
import { readJson } from "../../../common/api-client.ts";
import {
  auditPageResponseSchema,
  keyRotatedResponseSchema,
  provisionResponseSchema,
} from "../../../common/api-responses/admin.ts";
import { rechargeRequestResponseSchema } from "../../../common/api-responses/recharges.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { z } from "../../../common/zod.ts";
import { apiApp } from "../../../worker/api/app.ts";
import { startSession } from "../../../worker/auth/sessions.ts";
import { getDb } from "../../../worker/db/client.ts";
import { type AdminAuditRow, adminAudit } from "../../../worker/db/schema.ts";
import {
  ADMIN_LOGIN_ACTION,
  ADMIN_LOGOUT_PAGE_ACTION,
  auditDetails,
  MAX_DETAILS_CHARS,
} from "../../../worker/services/record-admin-action.ts";
import { createUser, loginToken, type TestUser } from "../helpers/accounts.ts";
import { farmerWithDevice, provisionDevice } from "../helpers/boxes.ts";
import { api, getJson, getOk, ORIGIN, postJson } from "../helpers/http.ts";

type Admin = TestUser & { token: string };

/** A fresh admin with a session started directly, so no login entry precedes the call. */
async function freshAdmin(): Promise<Admin> {
  const user = await createUser({ isAdmin: true });
  return { ...user, token: (await startSession(env, user.id, "admin")).token };
}

function call(method: string, path: string, token: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    "User-Agent": "audit-test/1.0",
    "CF-Connecting-IP": "198.51.100.47",
  };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  return api(path, { method, headers, body: payload });
}

async function entriesOf(adminUserId: number): Promise<AdminAuditRow[]> {
  return getDb(env.DB)
    .select()
    .from(adminAudit)
    .where(eq(adminAudit.adminUserId, adminUserId))
    .orderBy(desc(adminAudit.id));
}

async function onlyEntryOf(adminUserId: number): Promise<AdminAuditRow & { parsed: Record<string, unknown> }> {
  const rows = await entriesOf(adminUserId);
  expect(rows, JSON.stringify(rows)).toHaveLength(1);
  return { ...rows[0]!, parsed: z.record(z.string(), z.unknown()).parse(JSON.parse(rows[0]!.details)) };
}

/** The whole trail as text: a secret must appear nowhere in it. */
async function wholeTrail(): Promise<string> {
  return JSON.stringify(await getDb(env.DB).select().from(adminAudit));
}

function firmwareForm(version: string, bytes = "firmware"): FormData {
  const form = new FormData();
  form.set("deviceType", "wifi");
  form.set("version", version);
  form.set("file", new File([new TextEncoder().encode(bytes)], "firmware.bin"));
  return form;
}

async function pendingRecharge(): Promise<number> {
  const { token } = await farmerWithDevice();
  const response = await postJson("/api/recharge/request", { plan: "1month", paymentMethod: "cash" }, token);
  return (await readJson(response, rechargeRequestResponseSchema)).request.id;
}

type Case = {
  /** Makes what the call needs, then calls it as `admin`. */
  run: (admin: Admin) => Promise<{ response: Response; target: string | null; details?: Record<string, unknown> }>;
  status: number;
};

/** An admin asks a farmer's box for a reading; the box is offline, so 503, audited all the same. */
function askOfflineBox(what: "power" | "health", by: "number" | "id" = "number"): Case {
  return {
    run: async (admin) => {
      const { user, device } = await farmerWithDevice();
      const path =
        by === "number" ? `/api/devices/motor/${what}/${user.mobileNo}` : `/api/pumps/${device.deviceId}/${what}`;
      return {
        response: await call("POST", path, admin.token),
        target: by === "number" ? user.mobileNo : device.deviceId,
      };
    },
    status: 503,
  };
}

/**
 * Every write route: how an admin write through it is audited, or why an admin session cannot
 * use it ("farmer only", "installer only", "public": the audit test then proves an admin's call
 * leaves nothing).
 */
const WRITES: Record<string, Case | "farmer only" | "installer only" | "public" | "admin login"> = {
  "POST /api/auth/register": "public",
  "POST /api/hub-notices": "public",
  // A telephony provider's webhooks take no session at all (telephony-webhooks.test.ts).
  "POST /api/telephony/:provider/:kind": "public",
  "POST /api/auth/login": "public",
  // Codes take no session (an admin's cookie or token is not read): nothing to record.
  "POST /api/auth/codes": "public",
  "POST /api/auth/login-code": "public",
  "POST /api/auth/reset-password": "public",
  "POST /api/auth/verify-number": "farmer only",
  // Support sends a farmer a code: who, to whom, which kind; never the code.
  "POST /api/admin/users/:id/sign-in-code": {
    run: async (admin) => {
      const farmer = await createUser();
      const response = await call("POST", `/api/admin/users/${farmer.id}/sign-in-code`, admin.token);
      return { response, target: farmer.mobileNo, details: { purpose: "signIn" } };
    },
    status: 200,
  },
  "POST /api/admin/login": "admin login",
  "POST /api/auth/logout": "farmer only",
  "POST /api/devices/motor": "farmer only",
  "POST /api/recharge/request": "farmer only",
  "POST /api/payments/checkout": "farmer only",
  // The gateway's webhooks take no session at all (its signature): nothing to record.
  "POST /api/payments/razorpay/webhook": "public",
  "POST /api/schedule": "farmer only",
  "PUT /api/schedule/:id": "farmer only",
  "DELETE /api/schedule/:id": "farmer only",
  // An admin changing their own password: recorded without the passwords.
  "POST /api/auth/change-password": {
    run: async (admin) => {
      const body = { currentPassword: admin.password, newPassword: "naya-admin-paani-2026" };
      return {
        response: await call("POST", "/api/auth/change-password", admin.token, body),
        target: admin.mobileNo,
        details: {},
      };
    },
    status: 200,
  },
  "PUT /api/push/subscriptions": "farmer only",
  "DELETE /api/push/subscriptions": "farmer only",
  "POST /api/push/subscriptions/renew": "farmer only",
  "POST /api/push/test": "farmer only",
  "PUT /api/alerts/channels": "farmer only",
  "POST /api/admin/logout": {
    run: async (admin) => ({
      response: await call("POST", "/api/admin/logout", admin.token),
      target: null,
      details: {},
    }),
    status: 200,
  },
  // Making an installer and giving them boxes: whom, and what was given.
  "POST /api/admin/installers": {
    run: async (admin) => {
      const electrician = await createUser();
      const body = { mobileNo: electrician.mobileNo, name: "Ramesh Electricals" };
      const response = await call("POST", "/api/admin/installers", admin.token, body);
      return { response, target: `user:${electrician.id}`, details: body };
    },
    status: 201,
  },
  "POST /api/admin/installers/:userId/stock": {
    run: async (admin) => {
      const electrician = await createUser();
      // Made an installer by another admin: only the stock is this admin's write.
      const other = await freshAdmin();
      await call("POST", "/api/admin/installers", other.token, { mobileNo: electrician.mobileNo, name: "Suresh" });
      const { deviceId } = await provisionDevice(null);
      const body = { deviceIds: [deviceId] };
      const response = await call("POST", `/api/admin/installers/${electrician.id}/stock`, admin.token, body);
      return { response, target: `user:${electrician.id}`, details: body };
    },
    status: 200,
  },
  "DELETE /api/admin/installers/:userId/stock": {
    run: async (admin) => {
      const electrician = await createUser();
      const other = await freshAdmin();
      await call("POST", "/api/admin/installers", other.token, { mobileNo: electrician.mobileNo, name: "Suresh" });
      const { deviceId } = await provisionDevice(null);
      await call("POST", `/api/admin/installers/${electrician.id}/stock`, other.token, { deviceIds: [deviceId] });
      const body = { deviceIds: [deviceId] };
      const response = await call("DELETE", `/api/admin/installers/${electrician.id}/stock`, admin.token, body);
      return { response, target: `user:${electrician.id}`, details: body };
    },
    status: 200,
  },
  "PUT /api/admin/installers/:userId/region": {
    run: async (admin) => {
      const electrician = await createUser();
      const other = await freshAdmin();
      await call("POST", "/api/admin/installers", other.token, { mobileNo: electrician.mobileNo, name: "Suresh" });
      const response = await call("PUT", `/api/admin/installers/${electrician.id}/region`, admin.token, {
        region: "Barabanki",
      });
      return { response, target: `user:${electrician.id}`, details: { region: "barabanki" } };
    },
    status: 200,
  },
  "PUT /api/admin/box-regions": {
    run: async (admin) => {
      const { deviceId } = await provisionDevice(null);
      const body = { deviceIds: [deviceId], region: "sitapur" };
      const response = await call("PUT", "/api/admin/box-regions", admin.token, body);
      return { response, target: null, details: body };
    },
    status: 200,
  },
  "POST /api/pumps/:deviceId/installation/seen": "farmer only",
  "POST /api/installer/claims": "installer only",
  "POST /api/installer/claims/confirm": "installer only",
  "POST /api/installer/boxes/:deviceId/supply": "installer only",
  "POST /api/installer/boxes/:deviceId/test-run": "installer only",
  "POST /api/installer/boxes/:deviceId/commissioning": "installer only",
  "POST /api/installer/boxes/:deviceId/dry-run-check": "installer only",
  "POST /api/installer/boxes/:deviceId/hand-over": "installer only",
  "PUT /api/admin/update-user-role": {
    run: async (admin) => {
      const farmer = await createUser();
      const response = await call("PUT", "/api/admin/update-user-role", admin.token, {
        userId: farmer.id,
        isAdmin: true,
      });
      return { response, target: `user:${farmer.id}`, details: { userId: farmer.id, isAdmin: true } };
    },
    status: 200,
  },
  "DELETE /api/admin/delete-user": {
    run: async (admin) => {
      const farmer = await createUser();
      const response = await call("DELETE", "/api/admin/delete-user", admin.token, { mobileNo: farmer.mobileNo });
      return { response, target: farmer.mobileNo, details: { mobileNo: farmer.mobileNo } };
    },
    status: 200,
  },
  "PUT /api/admin/update-motor-config": {
    run: async (admin) => {
      // Motor settings are a box's: the account needs one.
      const { user: farmer } = await farmerWithDevice();
      const config = { mobileNo: farmer.mobileNo, defaultCurrent: 8.5, dryRunThreshold: 25, overCurrentThreshold: 40 };
      return {
        response: await call("PUT", "/api/admin/update-motor-config", admin.token, config),
        target: farmer.mobileNo,
        details: config,
      };
    },
    status: 200,
  },
  "PUT /api/admin/device-config": {
    run: async (admin) => {
      const { user } = await farmerWithDevice();
      const body = { mobileNo: user.mobileNo, debug: true };
      // The box is offline: refused by the hub, and recorded with its 503.
      return {
        response: await call("PUT", "/api/admin/device-config", admin.token, body),
        target: user.mobileNo,
        details: body,
      };
    },
    status: 503,
  },
  "POST /api/admin/devices": {
    run: async (admin) => {
      const response = await call("POST", "/api/admin/devices", admin.token, { kind: "1phase" });
      const { device, key } = await readJson(response.clone(), provisionResponseSchema);
      expect(await wholeTrail()).not.toContain(key);
      return { response, target: device.id, details: { kind: "1phase" } };
    },
    status: 201,
  },
  "POST /api/admin/devices/:id/rotate-key": {
    run: async (admin) => {
      const { deviceId, key: oldKey } = await provisionDevice(null);
      const response = await call("POST", `/api/admin/devices/${deviceId}/rotate-key`, admin.token);
      const { key } = await readJson(response.clone(), keyRotatedResponseSchema);
      const trail = await wholeTrail();
      expect(trail).not.toContain(key);
      expect(trail).not.toContain(oldKey);
      return { response, target: deviceId, details: {} };
    },
    status: 200,
  },
  "PUT /api/admin/devices/:id/owner": {
    run: async (admin) => {
      const { deviceId } = await provisionDevice(null);
      const response = await call("PUT", `/api/admin/devices/${deviceId}/owner`, admin.token, { mobileNo: null });
      return { response, target: deviceId, details: { mobileNo: null } };
    },
    status: 200,
  },
  "POST /api/admin/firmware": {
    run: async (admin) => {
      const version = `a-${crypto.randomUUID().slice(0, 8)}`;
      const bytes = `FIRMWARE-BYTES-${crypto.randomUUID()}`;
      const response = await call("POST", "/api/admin/firmware", admin.token, firmwareForm(version, bytes));
      expect(await wholeTrail()).not.toContain(bytes);
      return {
        response,
        target: `firmware:wifi/${version}`,
        details: {
          deviceType: "wifi",
          version,
          file: { file: "firmware.bin", size: bytes.length, type: "application/octet-stream" },
        },
      };
    },
    status: 201,
  },
  "PUT /api/recharge/status/:id": {
    run: async (admin) => {
      const id = await pendingRecharge();
      const response = await call("PUT", `/api/recharge/status/${id}`, admin.token, { status: "failed" });
      return { response, target: `recharge:${id}`, details: { status: "failed" } };
    },
    status: 200,
  },
  "DELETE /api/recharge/:id": {
    run: async (admin) => {
      const id = await pendingRecharge();
      return {
        response: await call("DELETE", `/api/recharge/${id}`, admin.token),
        target: `recharge:${id}`,
        details: {},
      };
    },
    status: 200,
  },
  "POST /api/devices/motor/config/:mobileNo": {
    run: async (admin) => {
      const { user: farmer } = await farmerWithDevice();
      // The spec's clients send their token in this body: it must never reach the trail.
      const token = `body-token-${crypto.randomUUID()}`;
      const config = { defaultCurrent: 7, dryRunThreshold: 20, overCurrentThreshold: 35 };
      const response = await call("POST", `/api/devices/motor/config/${farmer.mobileNo}`, admin.token, {
        ...config,
        token,
      });
      expect(await wholeTrail()).not.toContain(token);
      return { response, target: farmer.mobileNo, details: { ...config, token: "[redacted]" } };
    },
    status: 200,
  },
  "POST /api/devices/motor/power/:mobileNo": askOfflineBox("power"),
  "POST /api/devices/motor/health/:mobileNo": askOfflineBox("health"),
  "POST /api/mqtt/ota": {
    run: async (admin) => {
      const { user } = await farmerWithDevice();
      const body = { mobileNo: user.mobileNo, deviceType: "sim" as const };
      // No sim firmware in this file's storage: refused with 404, and recorded as such.
      return { response: await call("POST", "/api/mqtt/ota", admin.token, body), target: user.mobileNo, details: body };
    },
    status: 404,
  },
  "POST /api/pumps/:deviceId/motor": "farmer only",
  "POST /api/pumps/:deviceId/ask-again": "farmer only",
  "PUT /api/pumps/:deviceId/name": "farmer only",
  "PUT /api/pumps/:deviceId/phone-start": "farmer only",
  "PUT /api/pumps/:deviceId/sms-pin": "farmer only",
  "POST /api/pumps/:deviceId/schedules": "farmer only",
  "PUT /api/pumps/:deviceId/schedules/:id": "farmer only",
  "DELETE /api/pumps/:deviceId/schedules/:id": "farmer only",
  "POST /api/pumps/:deviceId/invitation": "farmer only",
  "POST /api/pumps/:deviceId/members": "farmer only",
  "PUT /api/pumps/:deviceId/members/:mobileNo": "farmer only",
  "POST /api/pumps/:deviceId/config": {
    run: async (admin) => {
      const { device } = await farmerWithDevice();
      const config = { defaultCurrent: 6, dryRunThreshold: 25, overCurrentThreshold: 30 };
      const response = await call("POST", `/api/pumps/${device.deviceId}/config`, admin.token, config);
      return { response, target: device.deviceId, details: config };
    },
    status: 200,
  },
  "POST /api/pumps/:deviceId/power": askOfflineBox("power", "id"),
  "POST /api/pumps/:deviceId/health": askOfflineBox("health", "id"),
  "POST /api/pumps/:deviceId/ota": {
    run: async (admin) => {
      const { device } = await farmerWithDevice();
      const body = { deviceType: "sim" as const };
      // No sim firmware in this file's storage: refused with 404, and recorded as such.
      const response = await call("POST", `/api/pumps/${device.deviceId}/ota`, admin.token, body);
      return { response, target: device.deviceId, details: body };
    },
    status: 404,
  },
  "DELETE /api/pumps/:deviceId/members/:mobileNo": {
    run: async (admin) => {
      const { device, token } = await farmerWithDevice();
      const member = await createUser();
      const invited = await postJson(
        `/api/pumps/${device.deviceId}/members`,
        { mobileNo: member.mobileNo, role: "viewer", label: "Sita" },
        token,
      );
      expect(invited.status).toBe(201);
      const response = await call("DELETE", `/api/pumps/${device.deviceId}/members/${member.mobileNo}`, admin.token);
      return { response, target: device.deviceId, details: {} };
    },
    status: 200,
  },
};

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS", "ALL"]);

function writeRoutes(): string[] {
  const routes = apiApp.routes
    .filter((route) => !READ_METHODS.has(route.method))
    .map((route) => `${route.method} ${route.path}`);
  return [...new Set(routes)].sort();
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("every admin write leaves exactly one entry", () => {
  it("covers every write route the router has, and no route it does not", () => {
    expect(Object.keys(WRITES).sort()).toEqual(writeRoutes());
  });

  for (const [route, spec] of Object.entries(WRITES)) {
    if (typeof spec === "string") continue;
    const [method] = route.split(" ") as [string];
    it(`${route} → ${spec.status}`, async () => {
      const admin = await freshAdmin();
      const before = Date.now();
      const { response, target, details } = await spec.run(admin);
      expect(response.status, await response.clone().text()).toBe(spec.status);
      const entry = await onlyEntryOf(admin.id);
      expect(entry).toMatchObject({
        adminUserId: admin.id,
        adminMobileNo: admin.mobileNo,
        action: route,
        target,
        status: spec.status,
        clientIp: "198.51.100.47",
        userAgent: "audit-test/1.0",
      });
      expect(entry.action.startsWith(`${method} /api/`)).toBe(true);
      expect(entry.createdAt).toBeGreaterThanOrEqual(before);
      if (spec.status >= 400) {
        expect(entry.parsed.error).toBe((await readJson(response, apiErrorSchema)).code);
      }
      if (details) {
        const { error: _error, errorParams: _errorParams, ...recorded } = entry.parsed;
        expect(recorded).toEqual(details);
      }
    });
  }

  for (const [route, spec] of Object.entries(WRITES)) {
    if (spec !== "farmer only" && spec !== "installer only" && spec !== "public") continue;
    const [method, path] = route.split(" ") as [string, string];
    it(`${route} (${spec}): an admin session's call leaves nothing`, async () => {
      const admin = await freshAdmin();
      const response = await call(method, path.replace(":id", "1"), admin.token, {});
      if (spec !== "public") expect(response.status).toBe(403);
      expect(await entriesOf(admin.id)).toEqual([]);
    });
  }
});

describe("refused writes are recorded with their status and reason", () => {
  it("a body that fails validation: 400, its code and what was wrong, no target yet", async () => {
    const admin = await freshAdmin();
    const farmer = await createUser();
    const body = { mobileNo: farmer.mobileNo, defaultCurrent: -1, dryRunThreshold: 30, overCurrentThreshold: 30 };
    const response = await call("PUT", "/api/admin/update-motor-config", admin.token, body);
    expect(response.status).toBe(400);
    const { message, code } = await readJson(response, apiErrorSchema);
    expect(code).toBe("invalidInput");
    const entry = await onlyEntryOf(admin.id);
    expect(entry).toMatchObject({ action: "PUT /api/admin/update-motor-config", status: 400, target: null });
    expect(entry.parsed).toEqual({ error: "invalidInput", errorParams: { field: "defaultCurrent", detail: message } });
  });

  it("a malformed id in the path and malformed JSON: 400", async () => {
    const admin = await freshAdmin();
    expect((await call("POST", "/api/admin/devices/not-an-id/rotate-key", admin.token)).status).toBe(400);
    const malformed = await api("/api/admin/devices", {
      method: "POST",
      headers: { Authorization: `Bearer ${admin.token}`, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    const [json, path] = await entriesOf(admin.id);
    expect(json).toMatchObject({ action: "POST /api/admin/devices", status: 400, target: null });
    expect(JSON.parse(json!.details)).toEqual({ error: "invalidJson" });
    expect(path).toMatchObject({ action: "POST /api/admin/devices/:id/rotate-key", status: 400, target: null });
  });

  it("a malformed box id on a per-pump write: 400, on the trail with no target", async () => {
    const admin = await freshAdmin();
    expect((await call("POST", "/api/pumps/not-an-id/power", admin.token)).status).toBe(400);
    const entry = await onlyEntryOf(admin.id);
    expect(entry).toMatchObject({ action: "POST /api/pumps/:deviceId/power", status: 400, target: null });
    expect(entry.parsed).toMatchObject({ error: "invalidInput" });
  });

  it("an admin who also farms, signed in to both areas in one browser, acts on another farmer's box as the admin, on the trail", async () => {
    const admin = await freshAdmin();
    const farmerSession = (await startSession(env, admin.id, "user")).token;
    const { device } = await farmerWithDevice(); // someone else's box, offline
    const response = await api(`/api/pumps/${device.deviceId}/power`, {
      method: "POST",
      headers: {
        Cookie: `sinchai_session=${farmerSession}; sinchai_admin_session=${admin.token}`,
        Origin: ORIGIN,
        "User-Agent": "audit-test/1.0",
      },
    });
    // Their farmer session may not see the box; their admin session may: the box is offline, not missing.
    expect(response.status).toBe(503);
    const entry = await onlyEntryOf(admin.id);
    expect(entry).toMatchObject({ action: "POST /api/pumps/:deviceId/power", status: 503, target: device.deviceId });
  });

  it("a valid request the server refuses: 409 with what was asked", async () => {
    const admin = await freshAdmin();
    const response = await call("DELETE", "/api/admin/delete-user", admin.token, { mobileNo: admin.mobileNo });
    expect(response.status).toBe(409);
    const entry = await onlyEntryOf(admin.id);
    expect(entry).toMatchObject({ action: "DELETE /api/admin/delete-user", status: 409, target: admin.mobileNo });
    expect(entry.parsed).toEqual({ mobileNo: admin.mobileNo, error: "deleteSelf" });
  });

  it("a farmer or a stranger calling an admin write is refused and leaves nothing", async () => {
    const { token } = await farmerWithDevice();
    const count = async () => (await getDb(env.DB).select().from(adminAudit)).length;
    const before = await count();
    expect((await postJson("/api/admin/devices", { kind: "3phase" }, token)).status).toBe(403);
    expect((await postJson("/api/admin/devices", { kind: "3phase" })).status).toBe(401);
    expect(await count()).toBe(before);
  });
});

describe("admin logins", () => {
  const loginEntries = async (mobileNo: string) =>
    getDb(env.DB).select().from(adminAudit).where(eq(adminAudit.target, mobileNo)).orderBy(desc(adminAudit.id));

  it("records a success with the admin, and failures with the number tried and why; never the password", async () => {
    const admin = await createUser({ isAdmin: true, password: `admin-secret-${crypto.randomUUID()}` });
    const farmer = await createUser({ password: `farmer-secret-${crypto.randomUUID()}` });
    const wrong = `wrong-${crypto.randomUUID()}`;
    const headers = {
      "Content-Type": "application/json",
      "CF-Connecting-IP": "198.51.100.4",
      "User-Agent": "login-test",
    };
    const login = (body: unknown) => api("/api/admin/login", { method: "POST", headers, body: JSON.stringify(body) });

    expect((await login({ mobileNo: admin.mobileNo, password: admin.password })).status).toBe(200);
    expect((await login({ mobileNo: admin.mobileNo, password: wrong })).status).toBe(401);
    expect((await login({ mobileNo: farmer.mobileNo, password: farmer.password })).status).toBe(401);
    const unknown = "9000000777";
    expect((await login({ mobileNo: unknown, password: wrong })).status).toBe(401);

    const [failed, success] = await loginEntries(admin.mobileNo);
    expect(success).toMatchObject({
      action: "admin login",
      adminUserId: admin.id,
      adminMobileNo: admin.mobileNo,
      status: 200,
      details: "{}",
      clientIp: "198.51.100.4",
      userAgent: "login-test",
    });
    expect(failed).toMatchObject({ action: "admin login", adminUserId: null, adminMobileNo: null, status: 401 });
    expect(JSON.parse(failed!.details)).toEqual({ error: "wrongPassword" });
    const [notAdmin] = await loginEntries(farmer.mobileNo);
    expect(notAdmin).toMatchObject({
      action: "admin login",
      adminUserId: null,
      status: 401,
      details: JSON.stringify({ error: "notAdmin" }),
    });
    const [stranger] = await loginEntries(unknown);
    expect(stranger).toMatchObject({ status: 401, details: JSON.stringify({ error: "unknownNumber" }) });

    const trail = await wholeTrail();
    for (const secret of [admin.password, farmer.password, wrong]) expect(trail).not.toContain(secret);
  });

  it("does not record a farmer's login, nor a malformed admin login body", async () => {
    const farmer = await createUser();
    await loginToken(farmer);
    expect((await postJson("/api/admin/login", { mobileNo: farmer.mobileNo })).status).toBe(400);
    expect(await loginEntries(farmer.mobileNo)).toEqual([]);
  });
});

describe("a failed audit write", () => {
  it("never turns a successful admin action into an error, and is logged with its context", async () => {
    const admin = await freshAdmin();
    const farmer = await createUser();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await env.DB.exec("ALTER TABLE admin_audit RENAME TO admin_audit_away");
    try {
      const response = await call("PUT", "/api/admin/update-user-role", admin.token, {
        userId: farmer.id,
        isAdmin: true,
      });
      expect(response.status).toBe(200);
    } finally {
      await env.DB.exec("ALTER TABLE admin_audit_away RENAME TO admin_audit");
    }
    const logged = errors.mock.calls.map((args) => args.map(String).join(" ")).join("\n");
    expect(logged).toContain("admin audit: could not record");
    expect(logged).toContain("PUT /api/admin/update-user-role");
    expect(logged).toContain(`user:${farmer.id}`);
    expect(await entriesOf(admin.id)).toEqual([]);
  });
});

describe("auditDetails", () => {
  it("redacts secret-named fields at any depth, reduces files, caps strings and the whole", () => {
    const details = JSON.parse(
      auditDetails({
        password: "p",
        nested: { newPassword: "p", apiKey: "k", deeper: { still: { cut: "c" } } },
        list: [{ refreshToken: "t" }],
        file: new File([new Uint8Array(5)], "fw.bin"),
        long: "x".repeat(500),
      }),
    ) as Record<string, unknown>;
    expect(details).toMatchObject({
      password: "[redacted]",
      nested: { newPassword: "[redacted]", apiKey: "[redacted]", deeper: { still: "…" } },
      list: [{ refreshToken: "[redacted]" }],
      file: { file: "fw.bin", size: 5 },
    });
    expect((details.long as string).length).toBeLessThan(130);
    const huge = auditDetails(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`field${i}`, "y".repeat(200)])));
    expect(huge.length).toBeLessThanOrEqual(MAX_DETAILS_CHARS);
    expect(JSON.parse(huge)).toHaveProperty("truncated");
  });
});

describe("GET /api/admin/audit", () => {
  const list = (query: string, token: string) => getOk(`/api/admin/audit${query}`, token, auditPageResponseSchema);

  it("pages newest first and filters by admin and by target", async () => {
    const admin = await freshAdmin();
    const farmers = [await createUser(), await createUser(), await createUser()];
    for (const farmer of farmers) {
      await call("PUT", "/api/admin/update-user-role", admin.token, { userId: farmer.id, isAdmin: false });
    }
    const reader = (await freshAdmin()).token;
    const mine = await list(`?adminId=${admin.id}&limit=2`, reader);
    expect(mine).toMatchObject({ success: true, page: 1, pageSize: 2, total: 3, totalPages: 2 });
    expect(mine.entries.map((entry) => entry.target)).toEqual([`user:${farmers[2]!.id}`, `user:${farmers[1]!.id}`]);
    expect(mine.entries[0]!.details).toEqual({ userId: farmers[2]!.id, isAdmin: false });
    const second = await list(`?adminId=${admin.id}&limit=2&page=2`, reader);
    expect(second.entries.map((entry) => entry.target)).toEqual([`user:${farmers[0]!.id}`]);
    const byTarget = await list(`?target=user:${farmers[1]!.id}`, reader);
    expect(byTarget.entries).toHaveLength(1);
    expect(byTarget.entries[0]).toMatchObject({
      adminUserId: admin.id,
      action: "PUT /api/admin/update-user-role",
      status: 200,
    });
    const all = await list("", reader);
    expect(all.pageSize).toBe(20);
    const ids = all.entries.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it("refuses a bad query with 400, farmers with 403 and strangers with 401; reading is not recorded", async () => {
    const admin = await freshAdmin();
    for (const query of ["?limit=0", "?limit=101", "?page=abc", "?adminId=-3", `?target=${"t".repeat(81)}`]) {
      expect((await getJson(`/api/admin/audit${query}`, admin.token)).status, query).toBe(400);
    }
    expect(await entriesOf(admin.id)).toEqual([]);
    const { token } = await farmerWithDevice();
    expect((await getJson("/api/admin/audit", token)).status).toBe(403);
    expect((await getJson("/api/admin/audit")).status).toBe(401);
  });
});

describe("the trail's codes, worded for the reader", () => {
  const recorded = [
    ...Object.entries(WRITES)
      .filter(([, spec]) => typeof spec === "object")
      .map(([route]) => route),
    ADMIN_LOGIN_ACTION,
    ADMIN_LOGOUT_PAGE_ACTION,
  ];

  it("every action the trail records has words in both languages, not its route", () => {
    for (const action of recorded) {
      expect(AUDIT_ACTIONS[action], action).toBeDefined();
      expect(auditActionText(action, "hi"), action).toMatch(/[\u0900-\u097F]/);
      expect(auditActionText(action, "en"), action).not.toContain("/api/");
    }
  });

  it("every field a write records is named for people in both languages, not as the API calls it", async () => {
    const fields = new Map<string, unknown>();
    for (const spec of Object.values(WRITES)) {
      if (typeof spec !== "object") continue;
      const admin = await freshAdmin();
      await spec.run(admin);
      const { error: _error, errorParams: _errorParams, ...recorded } = (await onlyEntryOf(admin.id)).parsed;
      for (const [name, value] of Object.entries(recorded)) fields.set(name, value);
    }
    expect(fields.size).toBeGreaterThan(10);
    const recorded = Object.fromEntries(fields);
    const hindi = auditFieldsText(recorded, "hi");
    const english = auditFieldsText(recorded, "en");
    for (const [index, { name, label }] of hindi.entries()) {
      expect(label, name).toMatch(/[\u0900-\u097F]/);
      expect(label, name).not.toMatch(/[A-Za-z]{3,}/);
      expect(english[index]!.label, name).not.toBe(name);
    }
    // Values are data as sent; a yes or no is a word.
    const [confirmed] = auditFieldsText({ confirmWeakerProtection: true }, "hi");
    expect(confirmed).toEqual({
      name: "confirmWeakerProtection",
      label: "कमज़ोर सुरक्षा की पुष्टि",
      value: "हाँ",
      words: true,
    });
    expect(auditFieldsText({ mobileNo: "9876543210", defaultCurrent: 8.9 }, "hi")).toEqual([
      { name: "mobileNo", label: "मोबाइल नंबर", value: "9876543210", words: false },
      { name: "defaultCurrent", label: "डिफ़ॉल्ट करंट (A)", value: "8.9", words: false },
    ]);
  });

  it("a status, a kind, a code's purpose is a word; a list of ids a list, never JSON", () => {
    const value = (fields: Record<string, unknown>, language: "hi" | "en") =>
      auditFieldsText(fields, language).map((field) => field.value);
    expect(value({ status: "paid" }, "hi")).toEqual(["भुगतान हुआ"]);
    expect(value({ status: "paid" }, "en")).toEqual(["paid"]);
    expect(value({ status: "failed" }, "hi")).toEqual(["नहीं हुआ"]);
    expect(value({ purpose: "signIn" }, "hi")).toEqual(["लॉगिन का कोड"]);
    expect(value({ purpose: "resetPassword" }, "en")).toEqual(["Code to set a new password"]);
    expect(value({ kind: "3phase", deviceType: "wifi" }, "hi")).toEqual(["3-फेज़", "वाई-फ़ाई"]);
    expect(auditFieldsText({ status: "paid" }, "hi")[0]!.words).toBe(true);
    const [boxes] = auditFieldsText({ deviceIds: ["SNC-DEMAPUMP", "SNC-ABCD2345", "SNC-WXYZ6789"] }, "hi");
    expect(boxes!.value).toMatch(/^SNC-DEMAPUMP, SNC-ABCD2345,? और SNC-WXYZ6789$/);
    expect(boxes!.words).toBe(false);
    expect(value({ deviceIds: ["SNC-DEMAPUMP", "SNC-ABCD2345"] }, "en")).toEqual(["SNC-DEMAPUMP and SNC-ABCD2345"]);
    expect(value({ deviceIds: ["SNC-DEMAPUMP"] }, "hi")).toEqual(["SNC-DEMAPUMP"]);
    for (const language of ["hi", "en"] as const)
      expect(value({ deviceIds: ["SNC-DEMAPUMP", "SNC-ABCD2345"] }, language).join()).not.toMatch(/[[\]"]/);
  });

  it("the outcome is a word (the HTTP status only in the cell's title)", () => {
    expect(auditStatusText(200, "hi")).toBe("हो गया");
    expect(auditStatusText(201, "en")).toBe("Done");
    for (const status of [400, 401, 403, 404, 409, 429]) {
      expect(auditStatusText(status, "hi"), String(status)).toBe("मना");
      expect(auditStatusText(status, "en"), String(status)).toBe("Refused");
    }
    expect(auditStatusText(503, "hi")).toBe("गड़बड़ी");
    expect(auditStatusText(500, "en")).toBe("Server error");
  });

  it("a target is named: an account by its number, a box by its printed id, a number as a number", () => {
    const numbers = new Map([[12, "9876543210"]]);
    expect(auditTargetText("user:12", "hi", numbers)).toEqual({ words: "खाता", id: "9876543210" });
    expect(auditTargetText("user:12", "en", numbers)).toEqual({ words: "Account", id: "9876543210" });
    // An account deleted since keeps its number in the trail's filter, and its id here.
    expect(auditTargetText("user:13", "hi", numbers)).toEqual({ words: "खाता #13", id: null });
    expect(auditTargetText("SNC-DEMAPUMP", "hi", numbers)).toEqual({ words: "डिवाइस", id: "SNC-DEMAPUMP" });
    expect(auditTargetText("SNC-DEMAPUMP", "en", numbers)).toEqual({ words: "Device", id: "SNC-DEMAPUMP" });
    expect(auditTargetText("9876543210", "hi", numbers)).toEqual({ words: "नंबर", id: "9876543210" });
    expect(auditTargetText("recharge:7", "hi", numbers)).toEqual({ words: "रिचार्ज की माँग #7", id: null });
    expect(auditTargetText("recharge:7", "en", numbers)).toEqual({ words: "Recharge request #7", id: null });
    expect(auditTargetText("firmware:wifi/1.4.0", "hi", numbers)).toEqual({
      words: "फ़र्मवेयर Wi-Fi वाला 1.4.0",
      id: null,
    });
    expect(auditTargetText("something-else", "en", numbers)).toEqual({ words: null, id: "something-else" });
  });

  it("a refusal is stored as its code and worded in the reader's language", async () => {
    const admin = await freshAdmin();
    await call("DELETE", "/api/admin/delete-user", admin.token, { mobileNo: admin.mobileNo });
    const entry = await onlyEntryOf(admin.id);
    expect(entry.parsed.error).toBe("deleteSelf");
    expect(auditRefusalText(entry.parsed, "en")).toBe("You cannot delete your own account.");
    expect(auditRefusalText(entry.parsed, "hi")).toBe("आप अपना ही खाता नहीं हटा सकते।");
    expect(auditRefusalText({ error: "wrongPassword" }, "hi")).toBe("पासवर्ड गलत था।");
    expect(auditRefusalText({ error: "offline" }, "en")).toMatch(/offline/i);
    // A row from before refusals had codes keeps its sentence.
    expect(auditRefusalText({ error: "You cannot delete your own account." }, "hi")).toBe(
      "You cannot delete your own account.",
    );
    expect(auditRefusalText({ mobileNo: "9876543210" }, "hi")).toBeNull();
  });
});
