// Accounts for admins: GET /api/admin/users, /device-statuses, /user/{id},
// PUT /update-user-role and DELETE /delete-user.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import {
  adminUserResponseSchema,
  deviceStatusesResponseSchema,
  userListResponseSchema,
} from "../../../common/api-responses/admin.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices, motorConfigHistory, sessions, users } from "../../../worker/db/schema.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice, provisionDevice } from "../helpers/boxes.ts";
import { deleteJson, expectRefusedSaying, getJson, getOk, postJson, putJson } from "../helpers/http.ts";
import { motorLogRows } from "../helpers/hub-state.ts";
import { THREE_PHASE_DEFAULT_CONFIG, updateMotorConfig } from "../helpers/motor-config.ts";
import { connectDevice } from "../helpers/sockets.ts";

const deleteUser = (body: unknown, token: string) => deleteJson("/api/admin/delete-user", body, token);

async function statuses(token: string) {
  const body = await getOk("/api/admin/device-statuses", token, deviceStatusesResponseSchema);
  expect(body.success).toBe(true);
  return body.statuses;
}

describe("GET /api/admin/users", () => {
  it("lists every account with role, dates and device, oldest first", async () => {
    const token = await adminToken();
    const { user: farmer, device } = await farmerWithDevice();
    const plain = await createUser();
    const response = await getJson("/api/admin/users", token);
    expect(response.status).toBe(200);
    const body = await readJson(response, userListResponseSchema);
    expect(body.success).toBe(true);
    const withDevice = body.users.find((user) => user.id === farmer.id);
    expect(withDevice).toMatchObject({ mobileNo: farmer.mobileNo, isAdmin: false, deviceId: device.deviceId });
    expect(withDevice?.lastLogin).not.toBeNull(); // farmerWithDevice logged in
    expect(new Date(withDevice!.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(body.users.find((user) => user.id === plain.id)).toMatchObject({ deviceId: null, lastLogin: null });
    const ids = body.users.map((user) => user.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // Never a password hash.
    expect(JSON.stringify(body)).not.toContain("pbkdf2");
  });
});

describe("GET /api/admin/device-statuses", () => {
  it("maps every number to its device's presence, following the box", async () => {
    const token = await adminToken();
    const { user, device } = await farmerWithDevice();
    const noDevice = await createUser();
    expect(await statuses(token)).toMatchObject({ [user.mobileNo]: "offline", [noDevice.mobileNo]: "offline" });
    const box = await connectDevice(device);
    await expect.poll(async () => (await statuses(token))[user.mobileNo]).toBe("online");
    box.close();
    await expect.poll(async () => (await statuses(token))[user.mobileNo]).toBe("offline");
  });
});

describe("GET /api/admin/user/{id}", () => {
  it("answers the admin view of SPEC §3 with the device and what it reported", async () => {
    const token = await adminToken();
    const { user, device, box } = await farmerWithBox({ firmware: "2.4.1" });
    await expect
      .poll(
        async () =>
          (await readJson(await getJson(`/api/admin/user/${user.id}`, token), adminUserResponseSchema)).user.deviceInfo
            .firmware,
      )
      .toBe("2.4.1");
    const body = await readJson(await getJson(`/api/admin/user/${user.id}`, token), adminUserResponseSchema);
    expect(body.success).toBe(true);
    expect(body.user).toMatchObject({
      id: user.id,
      mobileNo: user.mobileNo,
      isAdmin: false,
      ...THREE_PHASE_DEFAULT_CONFIG,
      deviceInfo: { imei: "866000000000001", firmware: "2.4.1", sim: null, chipId: null },
      device: { id: device.deviceId, kind: "3phase", online: true },
    });
    expect(typeof body.user.createdAt).toBe("string");
    expect(typeof body.user.lastLogin).toBe("string");
    box.close();
  });

  it("lists every box of an account with several, and shows the first box's settings and device", async () => {
    const token = await adminToken();
    const { user, device } = await farmerWithDevice();
    const second = await provisionDevice(user.id, "1phase");
    // The second box's motor is another motor: its settings are its own. (Linked a minute
    // later: the clock inside a test may not have moved between the two inserts.)
    await getDb(env.DB)
      .update(devices)
      .set({ defaultCurrent: 4.5, createdAt: Date.now() + 60_000 })
      .where(eq(devices.id, second.deviceId));
    const body = await readJson(await getJson(`/api/admin/user/${user.id}`, token), adminUserResponseSchema);
    expect(body.user).toMatchObject({ defaultCurrent: 1, device: { id: device.deviceId, kind: "3phase" } });
    expect(body.user.boxes).toEqual([
      { id: device.deviceId, kind: "3phase", online: false },
      { id: second.deviceId, kind: "1phase", online: false },
    ]);
    // The list of users has the account once, with its first box.
    const list = await readJson(await getJson("/api/admin/users", token), userListResponseSchema);
    expect(list.users.filter((row) => row.id === user.id)).toEqual([
      expect.objectContaining({ deviceId: device.deviceId }),
    ]);
  });

  it("shows an account without a device and one that never logged in", async () => {
    const plain = await createUser();
    const body = await readJson(
      await getJson(`/api/admin/user/${plain.id}`, await adminToken()),
      adminUserResponseSchema,
    );
    expect(body.user).toMatchObject({
      lastLogin: null,
      device: null,
      deviceInfo: { signal: null, imei: null, sim: null, chipId: null, firmware: null },
      boxes: [],
    });
  });

  it("answers 404 User not found. and 400 for a malformed id", async () => {
    const token = await adminToken();
    const missing = await getJson("/api/admin/user/987654321", token);
    await expectRefusedSaying(missing, 404, "User not found.");
    for (const bad of ["abc", "0", "-3", "1.5"]) {
      expect((await getJson(`/api/admin/user/${bad}`, token)).status, bad).toBe(400);
    }
  });
});

describe("PUT /api/admin/update-user-role", () => {
  it("makes a farmer an admin, who can then log in to the admin area", async () => {
    const token = await adminToken();
    const farmer = await createUser();
    expect((await postJson("/api/admin/login", { mobileNo: farmer.mobileNo, password: farmer.password })).status).toBe(
      401,
    );
    const response = await putJson("/api/admin/update-user-role", { userId: farmer.id, isAdmin: true }, token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      success: true,
      user: { id: farmer.id, isAdmin: true },
      signedOut: false,
    });
    const promoted = await loginToken(farmer, "admin");
    expect((await getJson("/api/admin/users", promoted)).status).toBe(200);
  });

  it("removes the role and revokes that account's admin sessions in the same step", async () => {
    const token = await adminToken();
    const other = await createUser({ isAdmin: true });
    const otherAdminToken = await loginToken(other, "admin");
    const otherUserToken = await loginToken(other, "user");
    expect((await putJson("/api/admin/update-user-role", { userId: other.id, isAdmin: false }, token)).status).toBe(
      200,
    );
    const rows = await getDb(env.DB).select().from(sessions).where(eq(sessions.userId, other.id));
    expect(rows.find((row) => row.audience === "admin")?.revokedAt).not.toBeNull();
    expect(rows.find((row) => row.audience === "user")?.revokedAt).toBeNull();
    expect((await getJson("/api/admin/users", otherAdminToken)).status).toBe(401);
    // Their farmer session is untouched.
    expect((await getJson("/api/recharge/requests", otherUserToken)).status).toBe(200);
  });

  it("lets an admin remove their own role while another admin remains; they are signed out", async () => {
    await adminToken(); // someone stays admin
    const self = await createUser({ isAdmin: true });
    const token = await loginToken(self, "admin");
    const response = await putJson("/api/admin/update-user-role", { userId: self.id, isAdmin: false }, token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, signedOut: true });
    expect((await getJson("/api/admin/users", token)).status).toBe(401);
  });

  it("is idempotent, and answers 404 for an unknown account and 400 for a bad body", async () => {
    const token = await adminToken();
    const farmer = await createUser();
    expect((await putJson("/api/admin/update-user-role", { userId: farmer.id, isAdmin: false }, token)).status).toBe(
      200,
    );
    expect((await putJson("/api/admin/update-user-role", { userId: 987654321, isAdmin: true }, token)).status).toBe(
      404,
    );
    for (const body of [
      {},
      { userId: farmer.id },
      { userId: farmer.id, isAdmin: "yes" },
      { userId: "x", isAdmin: true },
      { userId: farmer.id, isAdmin: true, extra: 1 },
    ]) {
      const response = await putJson("/api/admin/update-user-role", body, token);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await readJson(response, apiErrorSchema)).success).toBe(false);
    }
    const row = await getDb(env.DB).query.users.findFirst({ where: eq(users.id, farmer.id) });
    expect(row?.isAdmin).toBe(false);
  });
});

describe("DELETE /api/admin/delete-user", () => {
  it("deletes the account, ends its sessions and unbinds its device, which the hub forgets", async () => {
    const token = await adminToken();
    const { user, device, token: farmerToken, box } = await farmerWithBox({ autoAck: true });
    // Some history to see what stays and what goes.
    expect((await postJson("/api/devices/motor", { action: "on" }, farmerToken)).status).toBe(200);
    await box.next("switch");
    expect(
      (
        await updateMotorConfig(
          user.mobileNo,
          { defaultCurrent: 8, dryRunThreshold: 30, overCurrentThreshold: 30 },
          token,
        )
      ).status,
    ).toBe(200);
    await box.next("config");
    await expect.poll(async () => (await motorLogRows(device.deviceId)).length).toBeGreaterThan(0);

    const response = await deleteUser({ mobileNo: user.mobileNo }, token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, message: "User deleted successfully!", hubConfirmed: true });

    const db = getDb(env.DB);
    expect(await db.query.users.findFirst({ where: eq(users.id, user.id) })).toBeUndefined();
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await db.select().from(motorConfigHistory).where(eq(motorConfigHistory.userId, user.id))).toEqual([]);
    expect((await db.query.devices.findFirst({ where: eq(devices.id, device.deviceId) }))?.ownerUserId).toBeNull();
    // The logs keep the number they were written under.
    const logs = await motorLogRows(device.deviceId);
    expect(logs.every((log) => log.mobileNo === user.mobileNo && log.userId === null)).toBe(true);
    // The hub told the box it has no owner now, and the farmer's token is dead.
    expect((await box.next("config")).config.mobileNo).toBeNull();
    expect((await postJson("/api/devices/motor", { action: "off" }, farmerToken)).status).toBe(401);
    const list = await readJson(await getJson("/api/admin/users", token), userListResponseSchema);
    expect(list.users.some((row) => row.id === user.id)).toBe(false);
    // The number is free to register again.
    expect((await postJson("/api/auth/register", { mobileNo: user.mobileNo, password: "a-new-password" })).status).toBe(
      201,
    );
    box.close();
  });

  it("deletes an account without a device", async () => {
    const plain = await createUser();
    expect((await deleteUser({ mobileNo: plain.mobileNo }, await adminToken())).status).toBe(200);
  });

  it("refuses to delete the caller's own account, an unknown number and bad bodies", async () => {
    const me = await createUser({ isAdmin: true });
    const token = await loginToken(me, "admin");
    const self = await deleteUser({ mobileNo: me.mobileNo }, token);
    expect(self.status).toBe(409);
    expect((await deleteUser({ mobileNo: "9111111119" }, token)).status).toBe(404);
    for (const body of ["{", {}, { mobileNo: "12345" }, { mobileNo: 9876543210 }]) {
      expect((await deleteUser(body, token)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await getDb(env.DB).query.users.findFirst({ where: eq(users.id, me.id) })).toBeDefined();
  });
});
