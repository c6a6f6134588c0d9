// GET /api/health for an uptime monitor: the real D1 and a real DeviceHub round trip, no
// session, nothing secret in the answer, 503 with the failing part when a check fails, and no
// device created or touched along the way.
import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { healthResponseSchema } from "../../../common/api-responses/health.ts";
import { apiApp } from "../../../worker/api/app.ts";
import { HEALTH_HUB_NAME, runCheck } from "../../../worker/api/health.ts";
import { hubStorageSnapshot } from "../fuzz-support.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { api, ORIGIN } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";

freshStorageForThisFile();

function health(response: Response) {
  return readJson(response, healthResponseSchema);
}

describe("GET /api/health", () => {
  it("answers 200 with both checks and their times, without a session and without caching", async () => {
    const response = await api("/api/health");
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = await health(response);
    expect(body).toEqual({
      success: true,
      d1: { ok: true, ms: expect.any(Number) },
      hub: { ok: true, ms: expect.any(Number) },
    });
    expect(body.d1.ms).toBeGreaterThanOrEqual(0);
    expect(body.hub.ms).toBeGreaterThanOrEqual(0);
  });

  it("says nothing secret: no secret, binding, table or device name in the answer", async () => {
    const text = await (await api("/api/health")).text();
    expect(text).not.toContain(env.JWT_SECRET);
    for (const word of ["JWT", "DEVICE_HUB", "FIRMWARE", "users", HEALTH_HUB_NAME, "SNC-"])
      expect(text).not.toContain(word);
  });

  it("answers HEAD too, as some monitors send it", async () => {
    const response = await api("/api/health", { method: "HEAD" });
    expect(response.status).toBe(200);
  });

  it("uses a hub of its own: no device is created, and a real box's hub state stays as it was", async () => {
    const { device } = await farmerWithDevice();
    await hubStub(device.deviceId).getSnapshot(); // the hub exists and has loaded what it caches
    const before = await hubStorageSnapshot(device.deviceId);
    // The rows only: D1's answer also carries how long the query took.
    const devicesBefore = (await env.DB.prepare("SELECT id FROM devices ORDER BY id").all()).results;
    const hubsBefore = new Set((await listDurableObjectIds(env.DEVICE_HUB)).map((id) => id.toString()));

    for (let call = 0; call < 3; call++) expect((await api("/api/health")).status).toBe(200);

    expect((await env.DB.prepare("SELECT id FROM devices ORDER BY id").all()).results).toEqual(devicesBefore);
    expect(await hubStorageSnapshot(device.deviceId)).toEqual(before);
    const healthHub = env.DEVICE_HUB.idFromName(HEALTH_HUB_NAME).toString();
    const hubIds = (await listDurableObjectIds(env.DEVICE_HUB)).map((id) => id.toString());
    expect(hubIds).toContain(healthHub);
    // The health check's own hub, nothing more (the runtime lists the hubs earlier files made too).
    expect(hubIds.filter((id) => !hubsBefore.has(id) && id !== healthHub)).toEqual([]);
  });

  it("answers 503 naming D1 when the database cannot answer, and recovers when it can", async () => {
    // The real D1 with the table the check reads taken away for a moment.
    await env.DB.exec("ALTER TABLE users RENAME TO users_away");
    try {
      const response = await api("/api/health");
      expect(response.status).toBe(503);
      const body = await health(response);
      expect(body).toMatchObject({
        success: false,
        message: "Health check failed: D1.",
        d1: { ok: false },
        hub: { ok: true },
      });
    } finally {
      await env.DB.exec("ALTER TABLE users_away RENAME TO users");
    }
    expect((await api("/api/health")).status).toBe(200);
  });

  it("answers 503 naming the Durable Object when the hub round trip fails", async () => {
    // A namespace whose object throws, standing in for a Durable Object that cannot be reached.
    const broken = {
      idFromName: (name: string) => env.DEVICE_HUB.idFromName(name),
      get: () => ({ ping: () => Promise.reject(new Error("Durable Object reset")) }),
    } as unknown as Env["DEVICE_HUB"];
    const response = await apiApp.fetch(new Request(`${ORIGIN}/api/health`), { ...env, DEVICE_HUB: broken });
    expect(response.status).toBe(503);
    expect(await health(response)).toMatchObject({
      success: false,
      message: "Health check failed: Durable Object.",
      d1: { ok: true },
      hub: { ok: false },
    });
  });

  it("counts a check that never answers as failed once its time is up", async () => {
    const result = await runCheck("never", () => new Promise(() => {}), 50);
    expect(result.ok).toBe(false);
    expect(await runCheck("at once", () => Promise.resolve(), 50)).toMatchObject({ ok: true });
  });
});
