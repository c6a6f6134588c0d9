// GET status, POST config, POST power and health requests (SPEC §7), owners and admins only.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { healthReadingResponseSchema, motorConfigResponseSchema } from "../../../common/api-responses/devices.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices, motorConfigHistory } from "../../../worker/db/schema.ts";
import {
  adminToken,
  api,
  connectDevice,
  createUser,
  FRESH_PUMP_STATE,
  farmerWithBox,
  farmerWithDevice,
  getJson,
  loginToken,
  postJson,
  rewriteHubState,
  THREE_PHASE_DEFAULT_CONFIG,
} from "../helpers.ts";

describe("GET /api/devices/motor/status/{mobileNo}", () => {
  it("answers status, healthLogs and motorConfig (defaults 1 A, 30 %, 30 %; a 3-phase box's voltage limits)", async () => {
    const { user, token, box } = await farmerWithBox({ autoAck: true });
    const response = await getJson(`/api/devices/motor/status/${user.mobileNo}`, token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      ...FRESH_PUMP_STATE,
      phaseFault: false,
      powerData: { current: 0, wattage: 0 },
      healthLogs: expect.objectContaining({ version: "test-1.0.0", mqtt: "connected" }),
      motorConfig: THREE_PHASE_DEFAULT_CONFIG,
    });
    box.close();
  });

  it("is refused for another farmer's number, allowed for an admin", async () => {
    const a = await farmerWithDevice();
    const b = await farmerWithDevice();
    const other = await getJson(`/api/devices/motor/status/${b.user.mobileNo}`, a.token);
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ success: false, message: "You can only access your own device." });
    expect((await getJson(`/api/devices/motor/status/${b.user.mobileNo}`, await adminToken())).status).toBe(200);
    expect((await getJson(`/api/devices/motor/status/${b.user.mobileNo}`)).status).toBe(401);
  });

  it("answers 400 for a malformed number and 404 for an account without a device", async () => {
    const user = await createUser();
    const token = await loginToken(user);
    expect((await getJson("/api/devices/motor/status/12345", token)).status).toBe(400);
    const none = await getJson(`/api/devices/motor/status/${user.mobileNo}`, token);
    expect(none.status).toBe(404);
  });
});

const THREE_PHASE_DEFAULTS = { underVoltage: 340, overVoltage: 460, voltageUnbalance: 6 };

describe("POST /api/devices/motor/config/{mobileNo}", () => {
  const config = { defaultCurrent: 9.5, dryRunThreshold: 25, overCurrentThreshold: 35 };

  it("saves the settings with a history entry and takes them to the box", async () => {
    const { user, device, token, box } = await farmerWithBox({ autoAck: true });
    const response = await postJson(`/api/devices/motor/config/${user.mobileNo}`, { token, ...config }, token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      message: "Motor configuration updated successfully!",
      motorConfig: { ...config, ...THREE_PHASE_DEFAULTS },
      deliveredToDevice: true,
    });
    expect(await box.next("config")).toMatchObject({ config: { ...config, debug: false, mobileNo: user.mobileNo } });
    // The settings are the box's own; the history entry is on the owner's account and names the box.
    const row = await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, device.deviceId) });
    expect(row).toMatchObject(config);
    const history = await getDb(env.DB).select().from(motorConfigHistory).where(eq(motorConfigHistory.userId, user.id));
    expect(history).toEqual([
      expect.objectContaining({
        ...config,
        deviceId: device.deviceId,
        changeNote: "Changed by the owner in the app",
        changedByUserId: user.id,
      }),
    ]);
    box.close();
  });

  it("accepts numbers sent as text, as forms do", async () => {
    const { user, token } = await farmerWithDevice();
    const response = await postJson(
      `/api/devices/motor/config/${user.mobileNo}`,
      { defaultCurrent: "12", dryRunThreshold: "30.5", overCurrentThreshold: "40" },
      token,
    );
    expect(response.status).toBe(200);
    expect(await readJson(response, motorConfigResponseSchema)).toMatchObject({
      motorConfig: { defaultCurrent: 12, dryRunThreshold: 30.5, overCurrentThreshold: 40 },
      deliveredToDevice: false,
    });
  });

  it("saves for an offline box and delivers at its next hello", async () => {
    const { user, device, token } = await farmerWithDevice();
    expect((await postJson(`/api/devices/motor/config/${user.mobileNo}`, config, token)).status).toBe(200);
    const box = await connectDevice(device, { hello: false });
    box.send({ type: "hello", protocol: 1, firmware: "1.0.0", kind: "3phase", relay: "off" });
    expect((await box.next("welcome")).config).toMatchObject(config);
    box.close();
  });

  it.each([
    [{ ...config, defaultCurrent: 0 }, "Default current must be a number from 0.1 to 100."],
    [{ ...config, defaultCurrent: "" }, "Default current must be a number from 0.1 to 100."],
    [{ ...config, dryRunThreshold: "abc" }, "Dry run threshold must be a number from 0 to 95."],
    [{ ...config, overCurrentThreshold: 900 }, "Over current threshold must be a number from 0 to 500."],
    [{ defaultCurrent: 5 }, "Dry run threshold must be a number from 0 to 95."],
  ])("refuses %j with 400 and saves nothing", async (body, message) => {
    const { user, token } = await farmerWithDevice();
    const response = await postJson(`/api/devices/motor/config/${user.mobileNo}`, body, token);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, message });
    const history = await getDb(env.DB).select().from(motorConfigHistory).where(eq(motorConfigHistory.userId, user.id));
    expect(history).toEqual([]);
  });

  it("never changes another farmer's settings", async () => {
    const a = await farmerWithDevice();
    const b = await farmerWithDevice();
    const response = await postJson(`/api/devices/motor/config/${b.user.mobileNo}`, config, a.token);
    expect(response.status).toBe(403);
    const row = await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, b.device.deviceId) });
    expect(row?.defaultCurrent).toBe(1);
  });
});

describe("voltage limits in the motor config", () => {
  const config = { defaultCurrent: 9.5, dryRunThreshold: 25, overCurrentThreshold: 35 };
  const url = (mobileNo: string) => `/api/devices/motor/config/${mobileNo}`;
  const rowOf = (deviceId: string) => getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, deviceId) });

  it("saves limits with the history entry, takes them to the box and answers the limits in force", async () => {
    const { user, device, token, box } = await farmerWithBox({ autoAck: true });
    const limits = { underVoltage: 330, overVoltage: "470", voltageUnbalance: 8 };
    const response = await postJson(url(user.mobileNo), { ...config, ...limits }, token);
    expect(response.status).toBe(200);
    const inForce = { underVoltage: 330, overVoltage: 470, voltageUnbalance: 8 };
    expect(await readJson(response, motorConfigResponseSchema)).toMatchObject({
      motorConfig: { ...config, ...inForce },
    });
    expect(await box.next("config")).toMatchObject({ config: inForce });
    expect(await rowOf(device.deviceId)).toMatchObject(inForce);
    const history = await getDb(env.DB).select().from(motorConfigHistory).where(eq(motorConfigHistory.userId, user.id));
    expect(history).toEqual([expect.objectContaining(inForce)]);
    box.close();
  });

  it("keeps limits a SPEC client leaves out, and puts back the kind's default for null or an empty field", async () => {
    const { user, device, token } = await farmerWithDevice();
    await postJson(url(user.mobileNo), { ...config, underVoltage: 320, overVoltage: 450 }, token);
    expect(await rowOf(device.deviceId)).toMatchObject({ underVoltage: 320, overVoltage: 450 });
    await postJson(url(user.mobileNo), config, token);
    expect(await rowOf(device.deviceId)).toMatchObject({ underVoltage: 320, overVoltage: 450 });
    const reset = await postJson(url(user.mobileNo), { ...config, underVoltage: null, overVoltage: "" }, token);
    expect(await readJson(reset, motorConfigResponseSchema)).toMatchObject({
      motorConfig: { underVoltage: 340, overVoltage: 460 },
    });
    expect(await rowOf(device.deviceId)).toMatchObject({ underVoltage: null, overVoltage: null });
  });

  it.each([
    [{ underVoltage: 50 }, "Under voltage must be a number from 100 to 415."],
    [{ overVoltage: "abc" }, "Over voltage must be a number from 230 to 520, or empty for the default."],
    [{ voltageUnbalance: 30 }, "Voltage unbalance must be a number from 2 to 20."],
    [{ underVoltage: 415 }, "Under voltage must be below the motor's 415 V supply."],
    [{ underVoltage: 400, overVoltage: 410 }, "Over voltage must be above the motor's 415 V supply."],
  ])("refuses %j on a 3-phase motor with 400 and saves nothing", async (limits, message) => {
    const { user, device, token } = await farmerWithDevice();
    const response = await postJson(url(user.mobileNo), { ...config, ...limits }, token);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, message });
    expect(await rowOf(device.deviceId)).toMatchObject({ defaultCurrent: 1, underVoltage: null, overVoltage: null });
  });

  it("holds a 1-phase motor to its 230 V supply: its defaults, and no 3-phase limits", async () => {
    const { user, device, token } = await farmerWithDevice("1phase");
    const status = await getJson(`/api/devices/motor/status/${user.mobileNo}`, token);
    expect(await status.json()).toMatchObject({
      motorConfig: { underVoltage: 190, overVoltage: 255, voltageUnbalance: 6 },
    });
    const refused = await postJson(url(user.mobileNo), { ...config, underVoltage: 340, overVoltage: 460 }, token);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: "Under voltage must be below the motor's 230 V supply." });
    expect((await postJson(url(user.mobileNo), { ...config, underVoltage: 180 }, token)).status).toBe(200);
    expect(await rowOf(device.deviceId)).toMatchObject({ underVoltage: 180 });
  });
});

describe("fresh readings on request", () => {
  it("POST /api/devices/motor/power/{mobileNo} asks the box for a reading now when the last is not fresh", async () => {
    const { user, device, token, box } = await farmerWithBox({ autoAck: { runningCurrent: 8.4 } });
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    // The reading that followed the switch, 10 s later (tests/worker/api/fresh-readings.test.ts has the rest).
    await rewriteHubState(device.deviceId, (state) => ({ ...state, powerAt: (state.powerAt as number) - 10_000 }));
    const response = await api(`/api/devices/motor/power/${user.mobileNo}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      powerData: { current: 8.4, wattage: Math.round(8.4 * 575) },
      source: "box",
      ageSeconds: 0,
    });
    box.close();
  });

  it("POST /api/devices/motor/health/{mobileNo} asks the box for a health report now", async () => {
    const { user, token, box } = await farmerWithBox({ autoAck: true });
    const response = await postJson(`/api/devices/motor/health/${user.mobileNo}`, {}, token);
    expect(response.status).toBe(200);
    expect(await readJson(response, healthReadingResponseSchema)).toMatchObject({
      success: true,
      healthData: { uptime: 42, signal: -71, mqtt: "connected", version: "test-1.0.0" },
      source: "box",
    });
    box.close();
  });

  it("answers an offline box with 503 and a box that never answers with 504", async () => {
    const { user, device, token } = await farmerWithDevice();
    expect((await postJson(`/api/devices/motor/power/${user.mobileNo}`, {}, token)).status).toBe(503);
    const silent = await connectDevice(device); // acknowledges nothing
    const response = await postJson(`/api/devices/motor/health/${user.mobileNo}`, {}, token);
    expect(response.status).toBe(504);
    silent.close();
  }, 10_000);
});
