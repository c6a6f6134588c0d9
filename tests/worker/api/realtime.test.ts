import { describe, expect, it } from "vitest";
import { createUser, loginToken } from "../helpers/accounts.ts";
import { FRESH_LIVE_PUMP_STATE, farmerWithBox, farmerWithDevice } from "../helpers/boxes.ts";
import { api, expectRefusedSaying, postJson } from "../helpers/http.ts";
import { browserWatching, connectBrowser } from "../helpers/sockets.ts";

function upgrade(query: string, headers: Record<string, string>) {
  return api(`/api/realtime${query}`, { headers: { Upgrade: "websocket", ...headers } });
}

describe("GET /api/realtime", () => {
  it("sends initialData, then status, power and log updates as they happen", async () => {
    const { user, token, box } = await farmerWithBox({ autoAck: { runningCurrent: 8.9 } });
    const browser = await connectBrowser(user.mobileNo, { token });
    expect(await browser.next("initialData")).toEqual({
      type: "initialData",
      motorStatus: "off",
      deviceStatus: "online",
      powerData: { current: 0, wattage: 0 },
      lastLogs: [],
      phaseFault: false,
      health: expect.objectContaining({ version: "test-1.0.0", imei: "866000000000001", mqtt: "connected" }),
      debug: false,
      pump: { ...FRESH_LIVE_PUMP_STATE, at: expect.any(Number) },
    });
    // A watching browser makes the hub ask the box for frequent readings.
    expect(await box.next("watch")).toEqual({ type: "watch", watched: true, intervalSeconds: 5 });

    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    expect(await browser.next("motorStatusUpdate")).toEqual({ type: "motorStatusUpdate", status: "on" });
    const log = await browser.next("motorLogUpdate");
    expect(log.log).toMatchObject({ action: "on", logMessage: "Motor turned ON from the app" });
    expect(await browser.next("powerDataUpdate")).toEqual({
      type: "powerDataUpdate",
      powerData: { current: 8.9, wattage: Math.round(8.9 * 575) },
    });

    box.close();
    expect(await browser.next("deviceStatusUpdate")).toEqual({ type: "deviceStatusUpdate", deviceStatus: "offline" });
    browser.close();
  });

  it("tells the box to stop fast readings when the last browser leaves", async () => {
    const { user, token, box } = await farmerWithBox();
    const first = await connectBrowser(user.mobileNo, { token });
    const second = await connectBrowser(user.mobileNo, { token });
    await box.next("watch");
    first.close();
    await box.expectNone("watch");
    second.close();
    expect(await box.next("watch")).toMatchObject({ watched: false });
    box.close();
  });

  it("shows a device that never connected as offline, and its motor as unknown rather than OFF", async () => {
    const { user, token } = await farmerWithDevice();
    const browser = await connectBrowser(user.mobileNo, { token });
    expect(await browser.next("initialData")).toMatchObject({
      deviceStatus: "offline",
      motorStatus: "unknown",
      pump: { status: "unknown", statusSource: "none", lastSeenAt: null },
    });
    browser.close();
  });

  it("lets a user watch only their own device", async () => {
    const a = await farmerWithDevice();
    const b = await farmerWithDevice();
    const response = await upgrade(`?mobileNo=${b.user.mobileNo}`, { Authorization: `Bearer ${a.token}` });
    await expectRefusedSaying(response, 403, "You can only watch your own device.");
  });

  it("lets an admin watch any device", async () => {
    const { user } = await farmerWithDevice();
    const admin = await createUser({ isAdmin: true });
    const browser = await connectBrowser(user.mobileNo, { token: await loginToken(admin, "admin") });
    expect((await browser.next("initialData")).deviceStatus).toBe("offline");
    browser.close();
  });

  it("lets an admin who is also signed in as a farmer watch another farmer's device", async () => {
    const other = await farmerWithDevice();
    const admin = await createUser({ isAdmin: true });
    const farmerSide = await loginToken(admin, "user");
    const adminSide = await loginToken(admin, "admin");
    const cookie = `sinchai_session=${farmerSide}; sinchai_admin_session=${adminSide}`;
    const browser = await browserWatching(other.user.mobileNo, { cookie });
    browser.close();
    // The farmer session alone still may not.
    const refused = await upgrade(`?mobileNo=${other.user.mobileNo}`, {
      Cookie: `sinchai_session=${farmerSide}`,
      Origin: "http://sinchai.test",
    });
    expect(refused.status).toBe(403);
  });

  it("accepts the session cookie from our own pages and refuses it from another site", async () => {
    const { user, token } = await farmerWithDevice();
    const cookie = `sinchai_session=${token}`;
    const own = await browserWatching(user.mobileNo, { cookie });
    own.close();
    const foreign = await upgrade(`?mobileNo=${user.mobileNo}`, { Cookie: cookie, Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
  });

  it("refuses anonymous, invalid and malformed requests", async () => {
    const { user, token } = await farmerWithDevice();
    const anonymous = await upgrade(`?mobileNo=${user.mobileNo}`, {});
    expect(anonymous.status).toBe(401);
    const invalid = await upgrade(`?mobileNo=${user.mobileNo}`, { Authorization: "Bearer not.a.token" });
    await expectRefusedSaying(invalid, 401, "Invalid or expired token.");
    const noNumber = await upgrade("", { Authorization: `Bearer ${token}` });
    await expectRefusedSaying(noNumber, 400, "Mobile number is required.");
    const noUpgrade = await api(`/api/realtime?mobileNo=${user.mobileNo}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(noUpgrade.status).toBe(426);
  });

  it("answers 404 for an account without a device", async () => {
    const user = await createUser();
    const token = await loginToken(user);
    const response = await upgrade(`?mobileNo=${user.mobileNo}`, { Authorization: `Bearer ${token}` });
    expect(response.status).toBe(404);
  });
});
