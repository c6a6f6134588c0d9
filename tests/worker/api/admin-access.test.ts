// Every admin call of SPEC §7 (and the admin-only extras) is refused on the server: 401 to an
// anonymous caller or a dead session, 403 to a signed-in farmer. Nothing is changed by a
// refused call.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices, users } from "../../../worker/db/schema.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { api, putJson, refusal } from "../helpers/http.ts";

type Call = { method: string; path: string; body?: unknown; multipart?: boolean };

/** Each admin endpoint with a body it would accept from an admin. */
function adminCalls(target: { userId: number; mobileNo: string; deviceId: string }): Call[] {
  return [
    { method: "POST", path: "/api/admin/logout" },
    { method: "GET", path: "/api/admin/dashboard-stats" },
    { method: "GET", path: "/api/admin/users" },
    { method: "GET", path: "/api/admin/device-statuses" },
    { method: "GET", path: `/api/admin/user/${target.userId}` },
    { method: "PUT", path: "/api/admin/update-user-role", body: { userId: target.userId, isAdmin: true } },
    { method: "DELETE", path: "/api/admin/delete-user", body: { mobileNo: target.mobileNo } },
    { method: "GET", path: `/api/admin/motor-logs?deviceId=${target.deviceId}` },
    { method: "GET", path: "/api/admin/audit?page=1" },
    {
      method: "PUT",
      path: "/api/admin/update-motor-config",
      body: { mobileNo: target.mobileNo, defaultCurrent: 7, dryRunThreshold: 20, overCurrentThreshold: 20 },
    },
    { method: "GET", path: `/api/admin/motor-config-history/${target.mobileNo}` },
    { method: "GET", path: "/api/admin/recharge-requests" },
    { method: "PUT", path: "/api/recharge/status/1", body: { status: "paid" } },
    { method: "DELETE", path: "/api/recharge/1" },
    { method: "PUT", path: "/api/admin/device-config", body: { mobileNo: target.mobileNo, debug: false } },
    { method: "GET", path: "/api/admin/devices" },
    { method: "POST", path: "/api/admin/devices", body: { kind: "3phase" } },
    { method: "POST", path: `/api/admin/devices/${target.deviceId}/rotate-key` },
    { method: "PUT", path: `/api/admin/devices/${target.deviceId}/owner`, body: { mobileNo: null } },
    { method: "GET", path: "/api/admin/firmware" },
    { method: "POST", path: "/api/admin/firmware", multipart: true },
  ];
}

function send(call: Call, token?: string): Promise<Response> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  let body: BodyInit | undefined;
  if (call.multipart) {
    const form = new FormData();
    form.set("deviceType", "wifi");
    form.set("version", `v-${crypto.randomUUID().slice(0, 8)}`);
    form.set("file", new File([new Uint8Array([1, 2, 3])], "firmware.bin"));
    body = form;
  } else if (call.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(call.body);
  }
  return api(call.path, { method: call.method, headers, body });
}

async function target() {
  const { user, device } = await farmerWithDevice();
  return { userId: user.id, mobileNo: user.mobileNo, deviceId: device.deviceId };
}

describe("admin endpoints", () => {
  it("answer an anonymous caller with 401 and the spec's words", async () => {
    for (const call of adminCalls(await target())) {
      const response = await send(call);
      expect(response.status, `${call.method} ${call.path}`).toBe(401);
      expect(await response.json(), `${call.method} ${call.path}`).toEqual(
        refusal("Missing token. Please log in again.", "missingToken"),
      );
    }
  });

  it("answer a garbage or tampered token with 401 Invalid or expired token.", async () => {
    const token = await adminToken();
    const tampered = `${token.slice(0, -4)}AAAA`;
    for (const call of adminCalls(await target())) {
      for (const bad of ["not-a-token", tampered]) {
        const response = await send(call, bad);
        expect(response.status, `${call.method} ${call.path}`).toBe(401);
        expect((await readJson(response, apiErrorSchema)).message).toBe("Invalid or expired token.");
      }
    }
  });

  it("answer a signed-in farmer with 403 and change nothing", async () => {
    const victim = await target();
    const farmer = await farmerWithDevice();
    for (const call of adminCalls(victim)) {
      const response = await send(call, farmer.token);
      expect(response.status, `${call.method} ${call.path}`).toBe(403);
      expect((await readJson(response, apiErrorSchema)).success).toBe(false);
    }
    const rows = await getDb(env.DB).select().from(users);
    expect(rows.find((row) => row.id === victim.userId)).toMatchObject({ isAdmin: false });
    const box = await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, victim.deviceId) });
    expect(box).toMatchObject({ defaultCurrent: 1 });
    expect(rows.find((row) => row.mobileNo === farmer.user.mobileNo)?.isAdmin).toBe(false);
  });

  it("refuse a farmer's session cookie too, and an admin cookie sent from another site", async () => {
    const victim = await target();
    const farmer = await farmerWithDevice();
    // Signed in as a farmer, not as an admin: 403, as for a farmer's bearer token.
    const users = await api("/api/admin/users", { headers: { Cookie: `sinchai_session=${farmer.token}` } });
    expect(users.status).toBe(403);
    // A farmer's token put into the admin cookie does not open the admin area either.
    const asAdminCookie = await api("/api/admin/users", {
      headers: { Cookie: `sinchai_admin_session=${farmer.token}` },
    });
    expect(asAdminCookie.status).toBe(401);
    const admin = await adminToken();
    const crossSite = await api("/api/admin/delete-user", {
      method: "DELETE",
      headers: {
        Cookie: `sinchai_admin_session=${admin}`,
        Origin: "https://evil.example",
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ mobileNo: victim.mobileNo }),
    });
    expect(crossSite.status).toBe(403);
    expect(
      (await api(`/api/admin/user/${victim.userId}`, { headers: { Authorization: `Bearer ${admin}` } })).status,
    ).toBe(200);
  });

  it("refuse an admin whose role was removed, at once (401), even if the role comes back", async () => {
    const boss = await adminToken();
    const demoted = await createUser({ isAdmin: true });
    const token = await loginToken(demoted, "admin");
    expect((await send({ method: "GET", path: "/api/admin/users" }, token)).status).toBe(200);
    expect((await putJson("/api/admin/update-user-role", { userId: demoted.id, isAdmin: false }, boss)).status).toBe(
      200,
    );
    expect((await send({ method: "GET", path: "/api/admin/users" }, token)).status).toBe(401);
    expect((await putJson("/api/admin/update-user-role", { userId: demoted.id, isAdmin: true }, boss)).status).toBe(
      200,
    );
    expect((await send({ method: "GET", path: "/api/admin/users" }, token)).status).toBe(401);
    // A fresh login works again.
    expect((await send({ method: "GET", path: "/api/admin/users" }, await loginToken(demoted, "admin"))).status).toBe(
      200,
    );
  });
});
