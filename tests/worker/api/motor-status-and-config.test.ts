// GET status, POST config, POST power and health requests (SPEC §7), owners and admins only.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { healthReadingResponseSchema, motorConfigResponseSchema } from "../../../common/api-responses/devices.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices, motorConfigHistory } from "../../../worker/db/schema.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { FRESH_PUMP_STATE, farmerWithBox, farmerWithDevice } from "../helpers/boxes.ts";
import { api, expectRefusedSaying, getJson, postJson, putJson, refusal } from "../helpers/http.ts";
import { rewriteHubState } from "../helpers/hub-state.ts";
import { THREE_PHASE_DEFAULT_CONFIG } from "../helpers/motor-config.ts";
import { connectDevice } from "../helpers/sockets.ts";

/** Where a box's owner (or an admin) saves its motor config, keyed by the owner's number. */
const url = (mobileNo: string) => `/api/devices/motor/config/${mobileNo}`;
const rowOf = (deviceId: string) => getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, deviceId) });

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
    await expectRefusedSaying(other, 403, "You can only access your own device.");
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
    await expectRefusedSaying(response, 400, message);
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
    [{ underVoltage: 5000 }, "Under voltage must be a number from 0 to 1000."],
    [{ overVoltage: "abc" }, "Over voltage must be a number from 0 to 1000, or empty for the default."],
    [{ voltageUnbalance: 300 }, "Voltage unbalance must be a number from 0 to 100."],
  ])("refuses %j, not a voltage at all, with 400 and saves nothing", async (limits, message) => {
    const { user, device, token } = await farmerWithDevice();
    const response = await postJson(url(user.mobileNo), { ...config, ...limits }, token);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, code: "invalidInput", message });
    expect(await rowOf(device.deviceId)).toMatchObject({ defaultCurrent: 1, underVoltage: null, overVoltage: null });
  });

  // docs/device-protocol.md §6, "Voltage limits by kind".
  it.each([
    ["3phase", { underVoltage: 250 }, "underVoltage", 270, 400],
    ["3phase", { underVoltage: 415 }, "underVoltage", 270, 400],
    ["3phase", { overVoltage: 520 }, "overVoltage", 430, 495],
    ["3phase", { underVoltage: 400, overVoltage: 410 }, "overVoltage", 430, 495],
    ["3phase", { voltageUnbalance: 25 }, "voltageUnbalance", 2, 20],
    ["1phase", { overVoltage: 520 }, "overVoltage", 240, 275],
    ["1phase", { underVoltage: 340, overVoltage: 460 }, "underVoltage", 150, 220],
    ["1phase", { underVoltage: 120 }, "underVoltage", 150, 220],
  ] as const)(
    "refuses %s %j with 400, the code and the kind's range, and saves nothing",
    async (kind, limits, field, min, max) => {
      const { user, device, token } = await farmerWithDevice(kind);
      const response = await postJson(url(user.mobileNo), { ...config, ...limits }, token);
      expect(response.status).toBe(400);
      const nominal = kind === "1phase" ? 230 : 415;
      expect(await readJson(response, apiErrorSchema)).toEqual(
        refusal(expect.stringContaining(`must be from ${min} to ${max}`), "voltageLimitOutOfRange", {
          field,
          min,
          max,
          unit: field === "voltageUnbalance" ? "%" : "V",
          kind,
          nominal,
        }),
      );
      expect(await rowOf(device.deviceId)).toMatchObject({ defaultCurrent: 1, underVoltage: null, overVoltage: null });
    },
  );

  it("words the range in the caller's language", async () => {
    const { user, token } = await farmerWithDevice("1phase");
    const response = await api(url(user.mobileNo), {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "Accept-Language": "hi" },
      body: JSON.stringify({ ...config, overVoltage: 520 }),
    });
    expect(await response.json()).toMatchObject({
      message: "1-फेज़ मोटर (230 V) के लिए ज़्यादा वोल्टेज पर बंद की सीमा 240 से 275 V के बीच होनी चाहिए।",
    });
  });

  it("holds a 1-phase motor to its 230 V supply: its defaults, and limits from its own range", async () => {
    const { user, device, token } = await farmerWithDevice("1phase");
    const status = await getJson(`/api/devices/motor/status/${user.mobileNo}`, token);
    expect(await status.json()).toMatchObject({
      motorConfig: { underVoltage: 190, overVoltage: 255, voltageUnbalance: 6 },
    });
    expect((await postJson(url(user.mobileNo), { ...config, underVoltage: 180 }, token)).status).toBe(200);
    expect(await rowOf(device.deviceId)).toMatchObject({ underVoltage: 180 });
  });
});

describe("a change that weakens protection asks first (docs/decisions/025)", () => {
  const config = { defaultCurrent: 9.5, dryRunThreshold: 30, overCurrentThreshold: 30 };

  it("answers 409 with the settings and their old and new values, saves nothing and tells the box nothing", async () => {
    const { user, device, token, box } = await farmerWithBox({ autoAck: true });
    expect((await postJson(url(user.mobileNo), config, token)).status).toBe(200);
    await box.next("config");
    const response = await postJson(url(user.mobileNo), { ...config, dryRunThreshold: 95 }, token);
    expect(response.status).toBe(409);
    expect(await readJson(response, apiErrorSchema)).toEqual(
      refusal(
        "This change weakens the motor's protection: dry run threshold 30 → 95 %. To save it anyway, send it again with confirmWeakerProtection: true.",
        "weakerProtectionUnconfirmed",
        { settings: "dryRunThreshold", dryRunThresholdFrom: 30, dryRunThresholdTo: 95 },
      ),
    );
    expect(await rowOf(device.deviceId)).toMatchObject({ dryRunThreshold: 30 });
    const history = await getDb(env.DB).select().from(motorConfigHistory).where(eq(motorConfigHistory.userId, user.id));
    expect(history).toHaveLength(1);

    const confirmed = await postJson(
      url(user.mobileNo),
      { ...config, dryRunThreshold: 95, confirmWeakerProtection: true },
      token,
    );
    expect(confirmed.status).toBe(200);
    expect(await readJson(confirmed, motorConfigResponseSchema)).toMatchObject({
      motorConfig: { dryRunThreshold: 95 },
      deliveredToDevice: true,
    });
    // The first config frame the box got since is the confirmed one: the refused change never left.
    expect(await box.next("config")).toMatchObject({ config: { dryRunThreshold: 95 } });
    const [, entry] = await getDb(env.DB)
      .select()
      .from(motorConfigHistory)
      .where(eq(motorConfigHistory.userId, user.id))
      .orderBy(motorConfigHistory.id);
    expect(entry!.changeNote).toBe(
      "Changed by the owner in the app; weaker protection confirmed: dry run threshold 30 → 95 %",
    );
    box.close();
  });

  it("lists every weakened setting in order, in the caller's language", async () => {
    const { user, token } = await farmerWithDevice();
    const response = await api(url(user.mobileNo), {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "Accept-Language": "hi" },
      body: JSON.stringify({
        ...config,
        overCurrentThreshold: 100,
        underVoltage: 300,
        overVoltage: 495,
        voltageUnbalance: 10,
      }),
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual(
      refusal(
        "इस बदलाव से मोटर की सुरक्षा कमज़ोर होती है: ओवरकरंट सीमा 30 → 100 %, कम वोल्टेज पर बंद 340 → 300 V, ज़्यादा वोल्टेज पर बंद 460 → 495 V, फेज़ असंतुलन सीमा 6 → 10 %। फिर भी सेव करना हो तो confirmWeakerProtection: true के साथ दोबारा भेजें।",
        "weakerProtectionUnconfirmed",
        {
          settings: "overCurrentThreshold,underVoltage,overVoltage,voltageUnbalance",
          overCurrentThresholdFrom: 30,
          overCurrentThresholdTo: 100,
          underVoltageFrom: 340,
          underVoltageTo: 300,
          overVoltageFrom: 460,
          overVoltageTo: 495,
          voltageUnbalanceFrom: 6,
          voltageUnbalanceTo: 10,
        },
      ),
    );
  });

  it.each([
    ["stricter settings", { dryRunThreshold: 0, overCurrentThreshold: 10, underVoltage: 380, overVoltage: 440 }],
    ["small steps", { dryRunThreshold: 40, overCurrentThreshold: 40, underVoltage: 320, overVoltage: 480 }],
    ["SPEC's three numbers, the running current raised", { defaultCurrent: 40 }],
  ])("saves %s without asking", async (_what, change) => {
    const { user, token } = await farmerWithDevice();
    const response = await postJson(url(user.mobileNo), { ...config, ...change }, token);
    expect(response.status).toBe(200);
  });

  it("asks for a move into the zone where the protection is as good as off, however small", async () => {
    const { user, token } = await farmerWithDevice();
    const at65 = { ...config, dryRunThreshold: 65 };
    expect((await postJson(url(user.mobileNo), { ...at65, confirmWeakerProtection: true }, token)).status).toBe(200);
    const response = await postJson(url(user.mobileNo), { ...config, dryRunThreshold: 70 }, token);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ params: { dryRunThresholdFrom: 65, dryRunThresholdTo: 70 } });
  });

  it("holds the per-pump route and the admin's to the same rule; a non-boolean confirmation is 400", async () => {
    const { user, device, token } = await farmerWithDevice();
    const pumpUrl = `/api/pumps/${device.deviceId}/config`;
    expect((await postJson(pumpUrl, { ...config, overCurrentThreshold: 200 }, token)).status).toBe(409);
    const admin = await adminToken();
    const adminChange = { ...config, overCurrentThreshold: 200 };
    const refused = await putJson("/api/admin/update-motor-config", { mobileNo: user.mobileNo, ...adminChange }, admin);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "weakerProtectionUnconfirmed" });
    expect(await rowOf(device.deviceId)).toMatchObject({ overCurrentThreshold: 30 });
    const sloppy = await postJson(pumpUrl, { ...adminChange, confirmWeakerProtection: "yes" }, token);
    expect(sloppy.status).toBe(400);
    const accepted = await putJson(
      "/api/admin/update-motor-config",
      { mobileNo: user.mobileNo, ...adminChange, confirmWeakerProtection: true },
      admin,
    );
    expect(accepted.status).toBe(200);
    expect(await rowOf(device.deviceId)).toMatchObject({ overCurrentThreshold: 200 });
  });

  it("checks the ranges before it asks: a limit out of range is 400 even when confirmed", async () => {
    const { user, token } = await farmerWithDevice("1phase");
    const response = await postJson(
      url(user.mobileNo),
      { ...config, overVoltage: 520, confirmWeakerProtection: true },
      token,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "voltageLimitOutOfRange" });
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
  });
});
