// Nothing the Worker answers is kept by a cache (docs/security.md, "Web"): a farmer's pump, logs
// and plan, an admin's lists, a login's token, refusals, and pages (here the worker tests'
// stand-in for React Router; tests/e2e/user-shell.spec.ts checks real pages).
import { describe, expect, it } from "vitest";
import { adminToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { api, getJson, postJson } from "../helpers/http.ts";

describe("Cache-Control: no-store", () => {
  it("is on every authenticated API answer, success or refusal, and on the login answer", async () => {
    const farmer = await farmerWithDevice();
    const admin = await adminToken();
    const answers = await Promise.all([
      getJson(`/api/devices/motor/status/${farmer.user.mobileNo}`, farmer.token),
      getJson(`/api/logs/motor/${farmer.user.mobileNo}`, farmer.token),
      getJson("/api/recharge/plan", farmer.token),
      getJson("/api/recharge/requests", farmer.token),
      getJson("/api/admin/users", admin),
      getJson("/api/admin/recharge-requests", admin),
      getJson("/api/admin/users", farmer.token), // 403
      getJson("/api/recharge/plan"), // 401
      getJson("/api/no-such-route", farmer.token), // 404
      postJson("/api/auth/login", { mobileNo: farmer.user.mobileNo, password: farmer.user.password }),
      api("/api/health"),
    ]);
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200, 403, 401, 404, 200, 200]);
    for (const response of answers) expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("is on pages the Worker answers, signed in or not", async () => {
    const farmer = await farmerWithDevice();
    for (const headers of [{}, { Cookie: `sinchai_session=${farmer.token}` }] as Record<string, string>[]) {
      const page = await api("/motor-control", { headers });
      expect(page.headers.get("Cache-Control")).toBe("no-store");
    }
  });
});
