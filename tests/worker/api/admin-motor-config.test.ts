// PUT /api/admin/update-motor-config and GET /api/admin/motor-config-history/{mobileNo}:
// saved with a history entry naming the admin, pushed to the box (or at its next hello).
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { adminUserResponseSchema, configHistoryResponseSchema } from "../../../common/api-responses/admin.ts";
import { motorConfigResponseSchema, motorStatusResponseSchema } from "../../../common/api-responses/devices.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { DEVICE_PROTOCOL_VERSION } from "../../../common/device-protocol.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices } from "../../../worker/db/schema.ts";
import { adminChangeNote } from "../../../worker/services/motor-config.ts";
import { createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice, provisionDevice, provisionThroughApi } from "../helpers/boxes.ts";
import { expectRefusedSaying, getJson, getOk, postJson, putJson, refusal } from "../helpers/http.ts";
import { THREE_PHASE_DEFAULT_CONFIG, updateMotorConfig } from "../helpers/motor-config.ts";
import { connectDevice } from "../helpers/sockets.ts";

async function history(mobileNo: string, token: string) {
  const body = await getOk(`/api/admin/motor-config-history/${mobileNo}`, token, configHistoryResponseSchema);
  expect(body.success).toBe(true);
  return body.history;
}

const rowOf = (deviceId: string) => getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, deviceId) });

async function admin() {
  const user = await createUser({ isAdmin: true });
  return { user, token: await loginToken(user, "admin") };
}

describe("PUT /api/admin/update-motor-config", () => {
  it("saves the config, records who changed what, and the box receives it at once", async () => {
    const { user: adminUser, token } = await admin();
    const { user, device, box } = await farmerWithBox({ autoAck: true });
    const response = await updateMotorConfig(
      user.mobileNo,
      { defaultCurrent: 8.9, dryRunThreshold: "25.5", overCurrentThreshold: 40 },
      token,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, deliveredToDevice: true });
    expect((await box.next("config")).config).toMatchObject({
      defaultCurrent: 8.9,
      dryRunThreshold: 25.5,
      overCurrentThreshold: 40,
    });
    const row = await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, device.deviceId) });
    expect(row).toMatchObject({ defaultCurrent: 8.9, dryRunThreshold: 25.5, overCurrentThreshold: 40 });

    const [entry] = await history(user.mobileNo, token);
    expect(entry).toMatchObject({
      defaultCurrent: 8.9,
      dryRunThreshold: 25.5,
      overCurrentThreshold: 40,
      changedBy: adminUser.mobileNo,
    });
    expect(entry!.changeNote).toBe(
      `Admin ${adminUser.mobileNo}: default current 1 → 8.9 A, dry run threshold 30 → 25.5 %, over current threshold 30 → 40 %`,
    );
    // The farmer sees the new settings in their own status call.
    const status = await readJson(
      await getJson(`/api/devices/motor/status/${user.mobileNo}`, await loginToken(user)),
      motorStatusResponseSchema,
    );
    expect(status.motorConfig).toEqual({
      defaultCurrent: 8.9,
      dryRunThreshold: 25.5,
      overCurrentThreshold: 40,
      underVoltage: 340,
      overVoltage: 460,
      voltageUnbalance: 6,
    });
    box.close();
  });

  it("saves for an offline box, which gets the settings in its next welcome", async () => {
    const { token } = await admin();
    const { user, device } = await farmerWithDevice();
    const response = await updateMotorConfig(
      user.mobileNo,
      { defaultCurrent: 12, dryRunThreshold: 20, overCurrentThreshold: 25 },
      token,
    );
    expect(await response.json()).toMatchObject({ success: true, deliveredToDevice: false });
    const box = await connectDevice(device, { hello: false });
    box.send({ type: "hello", protocol: DEVICE_PROTOCOL_VERSION, firmware: "t", kind: "3phase", relay: "off" });
    expect((await box.next("welcome")).config).toMatchObject({
      defaultCurrent: 12,
      dryRunThreshold: 20,
      overCurrentThreshold: 25,
    });
    box.close();
  });

  it("keeps the values for an account without a box as its first box's, which gets them when it is provisioned", async () => {
    const { user: adminUser, token } = await admin();
    const plain = await createUser();
    const kept = { defaultCurrent: 8.9, dryRunThreshold: 25, overCurrentThreshold: 40 };
    const response = await updateMotorConfig(plain.mobileNo, { ...kept, underVoltage: null }, token);
    expect(response.status).toBe(200);
    // No voltage limits: they are the box's kind's, and the kind is not known before the box.
    expect(await readJson(response, motorConfigResponseSchema)).toEqual({
      success: true,
      message: "Configuration updated!",
      motorConfig: kept,
      deliveredToDevice: false,
    });
    const [entry] = await history(plain.mobileNo, token);
    expect(entry).toMatchObject({ ...kept, changedBy: adminUser.mobileNo });
    expect(entry!.changeNote).toBe(
      `Admin ${adminUser.mobileNo}: default current 1 → 8.9 A, dry run threshold 30 → 25 %, over current threshold 30 → 40 % (kept for the first box)`,
    );
    const view = await getOk(`/api/admin/user/${plain.id}`, token, adminUserResponseSchema);
    expect(view.user).toMatchObject({ ...kept, device: null });

    // The installer's numbers reach the box that is fitted, and only that one.
    const answer = await provisionThroughApi(token, { kind: "3phase", ownerMobileNo: plain.mobileNo });
    const first = answer.device.id;
    expect(await rowOf(first)).toMatchObject(kept);
    const box = await connectDevice({ deviceId: first, key: answer.key }, { hello: false });
    box.send({ type: "hello", protocol: DEVICE_PROTOCOL_VERSION, firmware: "t", kind: "3phase", relay: "off" });
    expect((await box.next("welcome")).config).toMatchObject(kept);
    box.close();
    const second = await provisionThroughApi(token, { kind: "3phase", ownerMobileNo: plain.mobileNo });
    expect(await rowOf(second.device.id)).toMatchObject({
      defaultCurrent: 1,
    });
    const [applied] = await history(plain.mobileNo, token);
    expect(applied!.changeNote).toBe(`Kept for the first box, applied to ${first}`);
  });

  it("gives the kept values to a stock box linked to the account, and the box gets them at once", async () => {
    const { token } = await admin();
    const plain = await createUser();
    const kept = { defaultCurrent: 6.5, dryRunThreshold: 30, overCurrentThreshold: 30 };
    expect((await updateMotorConfig(plain.mobileNo, kept, token)).status).toBe(200);
    const stock = await provisionDevice(null);
    const box = await connectDevice(stock);
    box.autoAck();
    const linked = await putJson(`/api/admin/devices/${stock.deviceId}/owner`, { mobileNo: plain.mobileNo }, token);
    expect(linked.status).toBe(200);
    expect(await rowOf(stock.deviceId)).toMatchObject(kept);
    expect((await box.next("config")).config).toMatchObject(kept);
    box.close();
  });

  it("refuses a voltage limit for an account without a box (400, nothing kept), and asks before weakening kept values", async () => {
    const { token } = await admin();
    const plain = await createUser();
    const base = { defaultCurrent: 5, dryRunThreshold: 30, overCurrentThreshold: 30 };
    const voltage = await updateMotorConfig(plain.mobileNo, { ...base, overVoltage: 470 }, token);
    expect(voltage.status).toBe(400);
    expect(await voltage.json()).toMatchObject({ success: false, code: "voltageLimitNeedsBox" });
    expect(await history(plain.mobileNo, token)).toEqual([]);

    const weaker = await updateMotorConfig(plain.mobileNo, { ...base, dryRunThreshold: 80 }, token);
    expect(weaker.status).toBe(409);
    expect(await weaker.json()).toMatchObject({ code: "weakerProtectionUnconfirmed" });
    expect(await history(plain.mobileNo, token)).toEqual([]);
    const confirmed = await putJson(
      "/api/admin/update-motor-config",
      { mobileNo: plain.mobileNo, ...base, dryRunThreshold: 80, confirmWeakerProtection: true },
      token,
    );
    expect(confirmed.status).toBe(200);
    expect((await history(plain.mobileNo, token))[0]!.changeNote).toContain("weaker protection confirmed");
  });

  it("refuses missing, empty, non-numeric and out-of-range values with 400 and changes nothing", async () => {
    const { token } = await admin();
    const { user, device } = await farmerWithDevice();
    const valid = { mobileNo: user.mobileNo, defaultCurrent: 5, dryRunThreshold: 30, overCurrentThreshold: 30 };
    const bad = [
      { ...valid, defaultCurrent: undefined },
      { ...valid, defaultCurrent: "" },
      { ...valid, dryRunThreshold: "abc" },
      { ...valid, overCurrentThreshold: -1 },
      { ...valid, defaultCurrent: 0 },
      { ...valid, dryRunThreshold: 96 },
      { ...valid, mobileNo: "12" },
      { ...valid, mobileNo: undefined },
    ];
    for (const body of bad) {
      const response = await putJson("/api/admin/update-motor-config", body, token);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await readJson(response, apiErrorSchema)).success).toBe(false);
    }
    expect(await history(user.mobileNo, token)).toEqual([]);
    expect(
      (await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, device.deviceId) }))?.defaultCurrent,
    ).toBe(1);
  });

  it("answers 404 User not found. for an unknown number", async () => {
    const { token } = await admin();
    const response = await updateMotorConfig(
      "9111111118",
      { defaultCurrent: 5, dryRunThreshold: 30, overCurrentThreshold: 30 },
      token,
    );
    await expectRefusedSaying(response, 404, "User not found.");
  });
});

describe("GET /api/admin/motor-config-history/{mobileNo}", () => {
  it("lists the farmer's and the admins' changes, newest first", async () => {
    const { user: adminUser, token } = await admin();
    const { user, token: farmerToken } = await farmerWithDevice();
    // The admin saves what the farmer saved: one history entry each, the admin's noting no change.
    const config = { defaultCurrent: 6, dryRunThreshold: 30, overCurrentThreshold: 30 };
    expect((await postJson(`/api/devices/motor/config/${user.mobileNo}`, config, farmerToken)).status).toBe(200);
    expect((await updateMotorConfig(user.mobileNo, config, token)).status).toBe(200);
    const entries = await history(user.mobileNo, token);
    expect(entries.map((entry) => entry.changedBy)).toEqual([adminUser.mobileNo, user.mobileNo]);
    expect(entries[0]!.changeNote).toBe(`Admin ${adminUser.mobileNo}: saved without changes`);
  });

  it("answers 404 for an unknown number and 400 for a malformed one", async () => {
    const { token } = await admin();
    expect((await getJson("/api/admin/motor-config-history/9111111117", token)).status).toBe(404);
    expect((await getJson("/api/admin/motor-config-history/0123", token)).status).toBe(400);
  });
});

describe("adminChangeNote", () => {
  it("names only what changed", () => {
    const before = { defaultCurrent: 1, dryRunThreshold: 30, overCurrentThreshold: 30 };
    expect(adminChangeNote("9000000001", before, { ...before, overCurrentThreshold: 35 })).toBe(
      "Admin 9000000001: over current threshold 30 → 35 %",
    );
  });

  it("names voltage limits that changed, a limit put back to its default, and none that were left out", () => {
    const before = { ...THREE_PHASE_DEFAULT_CONFIG };
    const { underVoltage: _left, ...rest } = before;
    expect(adminChangeNote("9000000001", before, { ...rest, overVoltage: 470, voltageUnbalance: null })).toBe(
      "Admin 9000000001: over voltage 460 → 470 V, voltage unbalance 6 → default",
    );
  });

  it("saves voltage limits beside SPEC's numbers, and the history says which were set", async () => {
    const { token } = await admin();
    const { user } = await farmerWithDevice();
    const base = { defaultCurrent: 8.9, dryRunThreshold: 25, overCurrentThreshold: 40 };
    const response = await updateMotorConfig(user.mobileNo, { ...base, underVoltage: "330" }, token);
    expect(await response.json()).toMatchObject({
      motorConfig: { ...base, underVoltage: 330, overVoltage: 460, voltageUnbalance: 6 },
    });
    const [entry] = await history(user.mobileNo, token);
    expect(entry).toMatchObject({ underVoltage: 330, overVoltage: null, voltageUnbalance: null });
    expect(entry!.changeNote).toContain("under voltage 340 → 330 V");
  });

  it("refuses voltage limits that would not protect the motor with 400, and saves nothing", async () => {
    const { token } = await admin();
    const { user, device } = await farmerWithDevice();
    const base = { defaultCurrent: 8.9, dryRunThreshold: 25, overCurrentThreshold: 40 };
    const response = await updateMotorConfig(user.mobileNo, { ...base, underVoltage: 415 }, token);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "voltageLimitOutOfRange",
      params: { field: "underVoltage", min: 270, max: 400 },
    });
    const row = await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, device.deviceId) });
    expect(row).toMatchObject({ defaultCurrent: 1, underVoltage: null });
  });

  it("refuses 520 V over-voltage on a 1-phase box with 400 and its range (240 to 275 V), and saves nothing", async () => {
    const { token } = await admin();
    const { user, device } = await farmerWithDevice("1phase");
    const base = { defaultCurrent: 6, dryRunThreshold: 30, overCurrentThreshold: 30 };
    const response = await updateMotorConfig(user.mobileNo, { ...base, overVoltage: 520 }, token);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      refusal("Over voltage for a 1-phase motor (230 V) must be from 240 to 275 V.", "voltageLimitOutOfRange", {
        field: "overVoltage",
        min: 240,
        max: 275,
        unit: "V",
        kind: "1phase",
        nominal: 230,
      }),
    );
    const row = await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, device.deviceId) });
    expect(row).toMatchObject({ defaultCurrent: 1, overVoltage: null });
    expect(await history(user.mobileNo, token)).toEqual([]);
  });
});
