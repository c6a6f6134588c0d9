// Provisioning (create, rotate key, assign) and PUT /api/admin/device-config (debug, new number).
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { deviceListResponseSchema, keyRotatedResponseSchema } from "../../../common/api-responses/admin.ts";
import { motorStatusResponseSchema } from "../../../common/api-responses/devices.ts";
import { DEVICE_ID_PATTERN } from "../../../common/credentials.ts";
import { DEBUG_MODE_MAX_MS } from "../../../durable-objects/device-hub/settings.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices, users } from "../../../worker/db/schema.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice, provisionThroughApi } from "../helpers/boxes.ts";
import { api, expectRefusedSaying, getJson, getOk, postJson, putJson } from "../helpers/http.ts";
import { fireTimer } from "../helpers/hub-state.ts";
import { basicAuth, connectDevice } from "../helpers/sockets.ts";

describe("POST /api/admin/devices", () => {
  it("creates a device with a key shown once and stored only as a hash", async () => {
    const owner = await createUser();
    const body = await provisionThroughApi(await adminToken(), { kind: "1phase", ownerMobileNo: owner.mobileNo });
    expect(body.device.id).toMatch(DEVICE_ID_PATTERN);
    expect(body.device).toMatchObject({ kind: "1phase", ownerMobileNo: owner.mobileNo });
    expect(body.key.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits in base64url
    const row = await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, body.device.id) });
    expect(row?.keyHash).not.toContain(body.key);
    const box = await connectDevice({ deviceId: body.device.id, key: body.key }, { kind: "1phase" });
    box.close();
  });

  it("links a second box to an account that has one; the routes keyed by its number keep acting on the first", async () => {
    const token = await adminToken();
    const { user, device, token: farmerToken, box } = await farmerWithBox();
    const second = await provisionThroughApi(token, { kind: "1phase", ownerMobileNo: user.mobileNo });
    expect(second.device).toMatchObject({ kind: "1phase", ownerMobileNo: user.mobileNo });
    const owned = await getDb(env.DB).query.devices.findMany({ where: eq(devices.ownerUserId, user.id) });
    expect(owned.map((row) => row.id).sort()).toEqual([device.deviceId, second.device.id].sort());
    // The first box is online and 3-phase, the second never connected: the number's status is the first's.
    const status = await getOk(`/api/devices/motor/status/${user.mobileNo}`, farmerToken, motorStatusResponseSchema);
    expect(status.deviceStatus).toBe("online");
    box.close();
  });

  it("refuses an unknown owner and a bad kind", async () => {
    const token = await adminToken();
    expect((await postJson("/api/admin/devices", { kind: "3phase", ownerMobileNo: "9111111111" }, token)).status).toBe(
      404,
    );
    expect((await postJson("/api/admin/devices", { kind: "2phase" }, token)).status).toBe(400);
  });

  it("is refused to farmers (403) and strangers (401)", async () => {
    const { token } = await farmerWithDevice();
    expect((await postJson("/api/admin/devices", { kind: "3phase" }, token)).status).toBe(403);
    expect((await postJson("/api/admin/devices", { kind: "3phase" })).status).toBe(401);
  });
});

describe("POST /api/admin/devices/{id}/rotate-key", () => {
  it("issues a new key, drops the connection made with the old one and refuses the old key", async () => {
    const { device, box } = await farmerWithBox();
    const response = await postJson(`/api/admin/devices/${device.deviceId}/rotate-key`, {}, await adminToken());
    expect(response.status).toBe(200);
    const { key } = await readJson(response, keyRotatedResponseSchema);
    expect((await box.waitForClose()).code).toBe(4003);
    const old = await api("/api/device/connect", {
      headers: { Upgrade: "websocket", Authorization: basicAuth(device.deviceId, device.key) },
    });
    expect(old.status).toBe(401);
    const fresh = await connectDevice({ deviceId: device.deviceId, key });
    fresh.close();
  });

  it("answers 404 for an unknown device and 400 for a malformed id", async () => {
    const token = await adminToken();
    expect((await postJson("/api/admin/devices/SNC-ZZZZZZZZ/rotate-key", {}, token)).status).toBe(404);
    expect((await postJson("/api/admin/devices/not-an-id/rotate-key", {}, token)).status).toBe(400);
  });
});

describe("PUT /api/admin/devices/{id}/owner", () => {
  it("assigns and unassigns; the hub picks up the new owner at once", async () => {
    const token = await adminToken();
    const created = await provisionThroughApi(token, { kind: "3phase" });
    const farmer = await createUser();
    const box = (await connectDevice({ deviceId: created.device.id, key: created.key })).autoAck();
    const assigned = await putJson(
      `/api/admin/devices/${created.device.id}/owner`,
      { mobileNo: farmer.mobileNo },
      token,
    );
    expect(assigned.status).toBe(200);
    expect((await box.next("config")).config.mobileNo).toBe(farmer.mobileNo);
    // The farmer can now switch it.
    expect((await postJson("/api/devices/motor", { action: "on" }, await loginToken(farmer))).status).toBe(200);
    expect((await putJson(`/api/admin/devices/${created.device.id}/owner`, { mobileNo: null }, token)).status).toBe(
      200,
    );
    expect((await box.next("config")).config.mobileNo).toBeNull();
    const list = await readJson(await getJson("/api/admin/devices", token), deviceListResponseSchema);
    expect(list.devices.find((device) => device.id === created.device.id)).toMatchObject({ ownerMobileNo: null });
    box.close();
  });
});

describe("PUT /api/admin/device-config", () => {
  it("turns debug mode on (the box is told) and off; it also switches itself off after 30 minutes", async () => {
    const { user, device } = await farmerWithDevice();
    const token = await adminToken();
    const box = (await connectDevice(device)).autoAck();
    const on = await putJson("/api/admin/device-config", { mobileNo: user.mobileNo, debug: true }, token);
    expect(on.status).toBe(200);
    expect(await box.next("config")).toMatchObject({ config: { debug: true } });
    expect((await putJson("/api/admin/device-config", { mobileNo: user.mobileNo, debug: false }, token)).status).toBe(
      200,
    );
    expect(await box.next("config")).toMatchObject({ config: { debug: false } });

    expect((await putJson("/api/admin/device-config", { mobileNo: user.mobileNo, debug: true }, token)).status).toBe(
      200,
    );
    await box.next("config");
    expect(DEBUG_MODE_MAX_MS).toBe(30 * 60_000);
    await fireTimer(device.deviceId, "debug-off");
    expect(await box.next("config")).toMatchObject({ config: { debug: false } });
    box.close();
  });

  it("cannot turn debug on for an offline box", async () => {
    const { user } = await farmerWithDevice();
    const response = await putJson(
      "/api/admin/device-config",
      { mobileNo: user.mobileNo, debug: true },
      await adminToken(),
    );
    expect(response.status).toBe(503);
  });

  it("changes the account's number: the box is told and restarts; the farmer logs in with the new number", async () => {
    const { user, box } = await farmerWithBox({ autoAck: true });
    const response = await putJson(
      "/api/admin/device-config",
      { mobileNo: user.mobileNo, newMobile: "9555512345" },
      await adminToken(),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      message: "Mobile number update sent!",
      mobileNo: "9555512345",
      deliveredToDevice: true,
    });
    expect((await box.next("config")).config.mobileNo).toBe("9555512345");
    await box.next("restart");
    const row = await getDb(env.DB).query.users.findFirst({ where: eq(users.id, user.id) });
    expect(row?.mobileNo).toBe("9555512345");
    expect((await postJson("/api/auth/login", { mobileNo: "9555512345", password: user.password })).status).toBe(200);
    box.close();
  });

  it.each([
    [{ newMobile: "0123456789" }, 400, "Invalid mobile number"],
    [{ newMobile: "12345" }, 400, "Invalid mobile number"],
    [{ newMobile: "SAME" }, 400, "New number is same as current number"],
    [{ newMobile: "TAKEN" }, 409, "That mobile number belongs to another account."],
    [{}, 400, "Send mobileNo with either debug (true or false) or newMobile."],
    [{ debug: "yes" }, 400, "Send mobileNo with either debug (true or false) or newMobile."],
  ])("refuses %j (%i) and changes nothing", async (change, status, message) => {
    const { user } = await farmerWithDevice();
    const other = await createUser();
    const body = {
      mobileNo: user.mobileNo,
      ...change,
      ...("newMobile" in change && change.newMobile === "SAME" ? { newMobile: user.mobileNo } : {}),
      ...("newMobile" in change && change.newMobile === "TAKEN" ? { newMobile: other.mobileNo } : {}),
    };
    const response = await putJson("/api/admin/device-config", body, await adminToken());
    await expectRefusedSaying(response, status, message);
    const row = await getDb(env.DB).query.users.findFirst({ where: eq(users.id, user.id) });
    expect(row?.mobileNo).toBe(user.mobileNo);
  });

  it("is for admins only", async () => {
    const { user, token } = await farmerWithDevice();
    expect((await putJson("/api/admin/device-config", { mobileNo: user.mobileNo, debug: true }, token)).status).toBe(
      403,
    );
  });
});
